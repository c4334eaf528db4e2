import OpenAI from 'openai';
import { z } from 'zod';
import type { EngineOptions, OpenAiOptions } from '../engine-options.ts';
import { EngineProviderError } from '../errors.ts';
import { groundedOrNothing, requestedLanguage } from '../grounded.ts';
import { fitLongDescription } from '../long-description.ts';
import { cleanContext, type PageTextField } from '../page-context.ts';
import { pixelSignals } from '../pixel-signals.ts';
import { altTextSystemPrompt, altTextUserPrompt, correctiveMessage } from '../prompts.ts';
import { applyQualityRules } from '../quality-rules.ts';
import { reviewVerdict } from '../review.ts';
import { capConfidence, decideRole } from '../role.ts';
import type {
  AltTextEngine,
  AltTextReason,
  AltTextResult,
  DescribeOptions,
  GeneratedText,
  GenerateTextOptions,
  PageContext,
  PreparedForEngine,
} from '../types.ts';
import { prepareModelImage } from './model-image.ts';

/**
 * Any OpenAI-compatible chat-completions server with vision: OpenAI, Azure OpenAI, OpenRouter,
 * Ollama, vLLM, LM Studio. The SDK retries 429, 5xx and timeouts with exponential backoff (and
 * honours retry-after); whatever still fails is thrown as EngineProviderError so the caller refunds.
 *
 * The model is asked for JSON `{altText, decorative, confidence, longDescription}` (with `response_format` json where
 * the server takes it). An answer that is not that is repaired where it safely can be (JSON inside a
 * fence or prose; an over-long alt text cut at a clause boundary that keeps it meaningful), else the
 * model is asked once more with a message saying what was wrong, else the image fails.
 */

/** Confidence of an answer that does not give its own: below the default review threshold, so a person looks. */
export const MISSING_CONFIDENCE = 0.4;

const answerSchema = z.object({
  altText: z.string().optional(),
  decorative: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])
    .optional()
    .default(false),
  confidence: z.unknown().optional(),
  textInImage: z.string().nullish(),
  longDescription: z.string().nullish(),
});

export type ModelAnswer = {
  altText: string;
  decorative: boolean;
  confidence: number;
  textInImage?: string;
  /** Only for a chart, diagram or complex image; null otherwise (ADR 050). */
  longDescription: string | null;
  /** The alt text was cut at a clause boundary to fit. */
  shortened: boolean;
};

export function createOpenAiEngine(options: EngineOptions): AltTextEngine {
  if (!options.openai) throw new Error('ALT_TEXT_ENGINE=openai needs the openai options');
  const settings: OpenAiOptions = options.openai;
  const client = new OpenAI({
    baseURL: settings.baseURL,
    apiKey: settings.apiKey,
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });
  // Some servers (LM Studio, older llama.cpp) refuse response_format json_object; after the first
  // refusal the prompt alone asks for JSON.
  let jsonMode = true;

  async function ask(
    messages: OpenAI.Chat.ChatCompletionMessageParam[],
    signal: AbortSignal | undefined,
  ): Promise<string> {
    if (jsonMode) {
      try {
        return await complete(client, settings, messages, signal, { type: 'json_object' });
      } catch (error) {
        if (!refusesJsonMode(error)) throw error;
        jsonMode = false;
      }
    }
    return complete(client, settings, messages, signal);
  }

  /**
   * The image's own work, before any engine slot is taken: decode, shrink and encode
   * (model-image.ts), the data URL and the pixel signals. What describe() then does per call is the
   * prompt and the model call; the input bytes and pixels are not kept.
   */
  async function prepareImage(image: Uint8Array): Promise<PreparedForEngine> {
    const t0 = performance.now();
    const prepared = await prepareModelImage(image, options.limits);
    const imageUrl = `data:${prepared.mime};base64,${prepared.data.toString('base64')}`;
    const signals = pixelSignals(prepared, prepared.stats);
    const prepareMs = performance.now() - t0;
    return { describe: (describe) => describePrepared(imageUrl, signals, prepareMs, describe) };
  }

  async function describePrepared(
    imageUrl: string,
    signals: ReturnType<typeof pixelSignals>,
    prepareMs: number,
    describe: DescribeOptions = {},
  ): Promise<AltTextResult> {
    const t0 = performance.now();
    const context = cleanContext(describe.context);
    // The picture's size lets the role tell a row of small pictograms (a rating's stars) from photos.
    const decision = decideRole(context, { size: { width: signals.width, height: signals.height } });
    const maxLength = describe.maxLength ?? options.defaultMaxLength;
    // The caller's language, else the page's, so the alt is written in the page's language.
    const language = requestedLanguage(describe, options.defaultLanguage);
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'system', content: altTextSystemPrompt({ maxLength, language }) },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: altTextUserPrompt({
              context,
              decision,
              maxLength,
              language,
              ...(describe.prompt ? { prompt: describe.prompt } : {}),
              ...(describe.keywords ? { keywords: describe.keywords } : {}),
            }),
          },
          {
            type: 'image_url',
            image_url: { url: imageUrl, detail: 'low' },
          },
        ],
      },
    ];
    const fileName = context.fileName;
    const first = await ask(messages, describe.signal);
    let read = readAnswer(first, maxLength, fileName);
    let attempts = 1;
    if (!read.ok) {
      attempts = 2;
      const second = await ask(
        [
          ...messages,
          { role: 'assistant', content: first },
          { role: 'user', content: correctiveMessage(read.problem, maxLength) },
        ],
        describe.signal,
      );
      read = readAnswer(second, maxLength, fileName);
      if (!read.ok) {
        // The model was told what was wrong and answered wrongly again: another try is not worth a wait.
        throw new EngineProviderError(
          `The model's answer could not be used, even after asking again: ${read.problem}`,
          { retryable: false },
        );
      }
    }
    const answer = read.answer;
    const ruled = applyQualityRules({
      altText: answer.altText,
      decorative: answer.decorative,
      maxLength,
      ...(fileName ? { fileName } : {}),
    });
    const verdict = reviewVerdict(capConfidence(decision, answer.confidence), options.reviewThreshold);
    const textInImage = answer.textInImage?.trim() || undefined;
    // The last stage (ADR 067): a kind-and-tone sentence, a file name or a title pasted in front is
    // never handed out, whoever wrote it.
    return groundedOrNothing(
      {
        altText: ruled.altText,
        decorative: ruled.decorative,
        ...verdict,
        reasons: uniqueReasons([
          { source: 'model', detail: settings.model, score: verdict.confidence },
          ...decision.reasons,
          ...contextReasons(context),
        ]),
        ...(textInImage ? { textInImage } : {}),
        // A decorative image has nothing to describe at length.
        longDescription: ruled.decorative ? null : answer.longDescription,
        signals: {
          ...signals,
          ...(textInImage ? { text: textInImage } : {}),
          contextUsed: Object.keys(context) as Array<keyof typeof context>,
          promptApplied: Boolean(describe.prompt),
          language,
          timingsMs: {
            prepare: Math.round(prepareMs),
            provider: Math.round(performance.now() - t0),
            total: Math.round(prepareMs + performance.now() - t0),
            attempts,
          },
        },
        engine: 'openai',
        model: settings.model,
      },
      describe.context,
      options.reviewThreshold,
    );
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
    if (!text.trim())
      throw new EngineProviderError('The model returned an empty answer.', { retryable: true });
    return { text: text.trim(), engine: 'openai', model: settings.model };
  }

  return {
    name: 'openai',
    model: settings.model,
    prepareImage,
    describeImage: async (image, describe) => (await prepareImage(image)).describe(describe),
    generateText,
    warmUp: async () => {},
    close: async () => {},
  };
}

/** One chat completion; the answer's text, '' when the model said nothing. */
async function complete(
  client: OpenAI,
  settings: OpenAiOptions,
  messages: OpenAI.Chat.ChatCompletionMessageParam[],
  signal: AbortSignal | undefined,
  responseFormat?: { type: 'json_object' },
): Promise<string> {
  let completion: OpenAI.Chat.ChatCompletion;
  try {
    completion = await client.chat.completions.create(
      {
        model: settings.model,
        messages,
        temperature: settings.temperature,
        max_tokens: settings.maxTokens,
        ...(responseFormat ? { response_format: responseFormat } : {}),
      },
      signal ? { signal } : {},
    );
  } catch (error) {
    throw toProviderError(error);
  }
  const content = completion?.choices?.[0]?.message?.content;
  return typeof content === 'string' ? content : '';
}

/** A 400 that blames response_format: the server does not do JSON mode (the prompt still asks for JSON). */
function refusesJsonMode(error: unknown): boolean {
  if (!(error instanceof EngineProviderError) || error.status !== 400) return false;
  const cause = error.cause;
  const message = cause instanceof Error ? cause.message : '';
  return /response_format|json_object|json mode|json_schema/i.test(message);
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
 * The JSON object in a model's answer: the whole answer, or the first object that parses inside a
 * code fence or prose ("Sure! Here it is: {...}"). Undefined when there is none.
 */
export function extractJson(content: string): Record<string, unknown> | undefined {
  const text = content.trim();
  const candidates = [text, ...[...text.matchAll(/```(?:json)?\s*([\s\S]*?)```/gi)].map((m) => m[1] ?? '')];
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start);
    if (end !== -1) candidates.push(text.slice(start, end + 1));
  }
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate.trim());
      if (value && typeof value === 'object' && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

/** Index of the brace closing the object that opens at `start`, skipping strings; -1 when unclosed. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text.charAt(i);
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return i;
  }
  return -1;
}

/**
 * The model's confidence as 0..1. A number or numeric string in 0..1 as given, below 0 as 0; a
 * percentage ("85%", or 10..100) as its share; anything else (missing, words, 1.7) is a model not
 * following the scale and gets the conservative MISSING_CONFIDENCE.
 */
export function readConfidence(value: unknown): number {
  const percent = typeof value === 'string' && /%\s*$/.test(value);
  const number =
    typeof value === 'string' && value.trim() ? Number(value.trim().replace(/\s*%$/, '')) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return MISSING_CONFIDENCE;
  if (percent || (number >= 10 && number <= 100)) return Math.min(1, Math.max(0, number / 100));
  if (number > 1) return MISSING_CONFIDENCE;
  return Math.max(0, number);
}

const danglingWords = new Set([
  'and',
  'or',
  'with',
  'of',
  'in',
  'on',
  'at',
  'the',
  'a',
  'an',
  'to',
  'by',
  'for',
  'from',
]);

/**
 * An over-long alt text cut at the last clause boundary (sentence end, semicolon, colon, comma, dash,
 * parenthesis) that fits, when what is kept still says something: at least half the limit and three
 * words, not ending on a dangling word. Undefined when no such cut exists.
 */
export function shortenAtClause(text: string, maxLength: number): string | undefined {
  if (text.length <= maxLength) return text;
  const boundary = /[.!?;:,](?=\s)|\s[–—-](?=\s)|\s\(/g;
  let best: string | undefined;
  for (const match of text.matchAll(boundary)) {
    const keepsMark = /[.!?]/.test(match[0]);
    const kept = text
      .slice(0, match.index + (keepsMark ? 1 : 0))
      .replace(/[\s,;:–—-]+$/, '')
      .trim();
    const finished = /[.!?]$/.test(kept) || !/[.!?]$/.test(text.trim()) ? kept : `${kept}.`;
    if (finished.length > maxLength) break;
    best = finished;
  }
  if (!best || best.length < maxLength / 2) return undefined;
  const keptWords = best.replace(/[.!?]$/, '').split(/\s+/);
  if (keptWords.length < 3 || danglingWords.has(keptWords.at(-1)?.toLowerCase() ?? '')) return undefined;
  return best;
}

type ReadAnswer = { ok: true; answer: ModelAnswer } | { ok: false; problem: string };

/** Checks one answer: usable as is, repaired, or the problem to tell the model. */
export function readAnswer(content: string, maxLength: number, fileName?: string): ReadAnswer {
  if (!content.trim()) return { ok: false, problem: 'Your answer was empty.' };
  const json = extractJson(content);
  if (!json) return { ok: false, problem: 'Your answer was not JSON.' };
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) return { ok: false, problem: 'Your JSON did not have the fields asked for.' };
  const { decorative, textInImage } = parsed.data;
  const confidence = readConfidence(parsed.data.confidence);
  // Over 1,000 characters is cut after the last whole entry, not asked again: the alt text is what counts.
  const longDescription = decorative ? null : fitLongDescription(parsed.data.longDescription);
  const extra = { longDescription, ...(textInImage?.trim() ? { textInImage: textInImage.trim() } : {}) };
  if (decorative)
    return { ok: true, answer: { altText: '', decorative, confidence, shortened: false, ...extra } };
  if (parsed.data.altText === undefined) return { ok: false, problem: 'Your JSON had no "altText".' };
  // The quality rules without the length cap: what is left is what a screen reader would hear.
  const cleaned = applyQualityRules({
    altText: parsed.data.altText,
    decorative: false,
    maxLength: Number.MAX_SAFE_INTEGER,
    ...(fileName ? { fileName } : {}),
  }).altText;
  if (!cleaned) {
    return {
      ok: false,
      problem: 'Your "altText" was empty (or only a file name) but "decorative" was false.',
    };
  }
  if (cleaned.length <= maxLength) {
    return { ok: true, answer: { altText: cleaned, decorative, confidence, shortened: false, ...extra } };
  }
  const shortened = shortenAtClause(cleaned, maxLength);
  if (shortened)
    return { ok: true, answer: { altText: shortened, decorative, confidence, shortened: true, ...extra } };
  return {
    ok: false,
    problem: `Your "altText" was ${cleaned.length} characters; the limit is ${maxLength}.`,
  };
}

const contextSources: Array<[PageTextField, AltTextReason['source']]> = [
  ['caption', 'caption'],
  ['existingAlt', 'existingAlt'],
  ['pageTitle', 'pageTitle'],
  ['heading', 'heading'],
  ['surroundingText', 'surroundingText'],
  ['linkTarget', 'link'],
  ['linkText', 'link'],
];

/** The page context the model was given, as reasons (the file name and page address are not evidence). */
function contextReasons(context: PageContext): AltTextReason[] {
  return contextSources.flatMap(([key, source]) => {
    const value = context[key];
    return value ? [{ source, detail: value }] : [];
  });
}

function uniqueReasons(reasons: AltTextReason[]): AltTextReason[] {
  const seen = new Set<string>();
  return reasons.filter((reason) => {
    const key = `${reason.source}\u0000${reason.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
