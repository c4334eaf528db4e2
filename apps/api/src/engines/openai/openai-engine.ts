import OpenAI from 'openai';
import { z } from 'zod';
import type { EngineOptions, OpenAiOptions } from '../engine-options.ts';
import { EngineProviderError } from '../errors.ts';
import { measurePixels } from '../image-stats.ts';
import { classifyKind } from '../offline/compose.ts';
import { cleanContext } from '../page-context.ts';
import { encodeJpeg, prepareImage } from '../prepare-image.ts';
import { altTextSystemPrompt, altTextUserPrompt } from '../prompts.ts';
import { applyQualityRules } from '../quality-rules.ts';
import { reviewVerdict } from '../review.ts';
import type {
  AltTextEngine,
  AltTextResult,
  DescribeOptions,
  GeneratedText,
  GenerateTextOptions,
} from '../types.ts';

/**
 * Any OpenAI-compatible chat-completions server with vision: OpenAI, Azure OpenAI, OpenRouter,
 * Ollama, vLLM, LM Studio. The SDK retries 429, 5xx and timeouts with exponential backoff (and
 * honours retry-after); whatever still fails is thrown as EngineProviderError so the caller refunds.
 */

const answerSchema = z.object({
  altText: z.string(),
  decorative: z.boolean().optional().default(false),
  textInImage: z.string().nullish(),
});

export function createOpenAiEngine(options: EngineOptions): AltTextEngine {
  if (!options.openai) throw new Error('ALT_TEXT_ENGINE=openai needs the openai options');
  const settings: OpenAiOptions = options.openai;
  const client = new OpenAI({
    baseURL: settings.baseURL,
    apiKey: settings.apiKey,
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });

  async function describeImage(image: Uint8Array, describe: DescribeOptions = {}): Promise<AltTextResult> {
    const t0 = performance.now();
    const prepared = await prepareImage(image, options.limits);
    const [stats, jpeg] = await Promise.all([measurePixels(prepared), encodeJpeg(prepared)]);
    const tPrepared = performance.now();
    const context = cleanContext(describe.context);
    const maxLength = describe.maxLength ?? options.defaultMaxLength;
    const language = describe.language ?? options.defaultLanguage;
    const content = await complete(
      client,
      settings,
      [
        { role: 'system', content: altTextSystemPrompt({ maxLength, language }) },
        {
          role: 'user',
          content: [
            {
              type: 'text',
              text: altTextUserPrompt({
                context,
                maxLength,
                ...(describe.prompt ? { prompt: describe.prompt } : {}),
                ...(describe.keywords ? { keywords: describe.keywords } : {}),
              }),
            },
            {
              type: 'image_url',
              image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}`, detail: 'low' },
            },
          ],
        },
      ],
      describe.signal,
    );
    const answer = parseAnswer(content);
    const ruled = applyQualityRules({
      altText: answer.altText,
      decorative: answer.decorative,
      maxLength,
      ...(context.fileName ? { fileName: context.fileName } : {}),
    });
    if (!ruled.decorative && !ruled.altText) {
      throw new EngineProviderError('The model answered without usable alt text.', { retryable: true });
    }
    const textInImage = answer.textInImage?.trim() || undefined;
    return {
      altText: ruled.altText,
      decorative: ruled.decorative,
      ...reviewVerdict(0.8, options.reviewThreshold),
      reasons: [{ source: 'model', detail: settings.model }],
      ...(textInImage ? { textInImage } : {}),
      signals: {
        width: prepared.original.width,
        height: prepared.original.height,
        format: prepared.original.format,
        kind: classifyKind(
          {
            stats,
            ocr: { text: '', confidence: 0, words: 0, numbers: 0 },
            width: prepared.original.width,
            height: prepared.original.height,
            transparentShare: prepared.transparentShare,
          },
          '',
        ),
        greyscale: stats.greyscale,
        brightness: stats.brightness,
        colours: stats.colours,
        objects: [],
        faces: [],
        ...(textInImage ? { text: textInImage } : {}),
        contextUsed: Object.keys(context) as Array<keyof typeof context>,
        promptApplied: Boolean(describe.prompt),
        language,
        timingsMs: {
          prepare: Math.round(tPrepared - t0),
          provider: Math.round(performance.now() - tPrepared),
          total: Math.round(performance.now() - t0),
        },
      },
      engine: 'openai',
      model: settings.model,
    };
  }

  async function generateText(prompt: string, generate: GenerateTextOptions = {}): Promise<GeneratedText> {
    const language = generate.language ?? options.defaultLanguage;
    const text = await complete(
      client,
      { ...settings, maxTokens: generate.maxTokens ?? 1_200, temperature: 0.7 },
      [
        {
          role: 'system',
          content: `You are a careful copywriter. Write in ${language}. Do not invent statistics, quotes or sources.`,
        },
        { role: 'user', content: prompt },
      ],
      generate.signal,
    );
    return { text: text.trim(), engine: 'openai', model: settings.model };
  }

  return {
    name: 'openai',
    model: settings.model,
    describeImage,
    generateText,
    warmUp: async () => {},
    close: async () => {},
  };
}

async function complete(
  client: OpenAI,
  settings: OpenAiOptions,
  messages: OpenAI.Chat.ChatCompletionMessageParam[],
  signal: AbortSignal | undefined,
): Promise<string> {
  let completion: OpenAI.Chat.ChatCompletion;
  try {
    completion = await client.chat.completions.create(
      {
        model: settings.model,
        messages,
        temperature: settings.temperature,
        max_tokens: settings.maxTokens,
      },
      signal ? { signal } : {},
    );
  } catch (error) {
    throw toProviderError(error);
  }
  const content = completion?.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) {
    throw new EngineProviderError('The model returned an empty answer.', { retryable: true });
  }
  return content;
}

function toProviderError(error: unknown): EngineProviderError {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new EngineProviderError('The model provider did not answer in time.', {
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIUserAbortError) {
    return new EngineProviderError('The request was cancelled.', { retryable: false, cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new EngineProviderError('Could not reach the model provider.', { retryable: true, cause: error });
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    const retryable =
      status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
    const what =
      status === 429
        ? 'The model provider is rate limiting us.'
        : status === 401 || status === 403
          ? 'The model provider refused our credentials.'
          : `The model provider answered with an error${status ? ` (${status})` : ''}.`;
    return new EngineProviderError(what, { retryable, ...(status ? { status } : {}), cause: error });
  }
  return new EngineProviderError('The model provider call failed.', { retryable: true, cause: error });
}

/**
 * Models are asked for JSON, but local ones often answer in plain text or wrap JSON in a code
 * fence. Plain prose is accepted as the alt text; JSON that does not parse is a malformed answer.
 */
export function parseAnswer(content: string): z.infer<typeof answerSchema> {
  const unfenced = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '')
    .trim();
  if (!unfenced.startsWith('{')) return { altText: unfenced, decorative: false };
  let json: unknown;
  try {
    json = JSON.parse(unfenced);
  } catch (error) {
    throw new EngineProviderError('The model returned malformed JSON.', { retryable: true, cause: error });
  }
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) {
    throw new EngineProviderError('The model answer is missing "altText".', {
      retryable: true,
      cause: parsed.error,
    });
  }
  return parsed.data;
}
