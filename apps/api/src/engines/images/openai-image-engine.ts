import type { Quality } from '@altwise/contracts/limits';
import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import { EngineInputError, EngineProviderError } from '../errors.ts';
import type { ImageEngine } from './types.ts';

export interface OpenAiImageOptions {
  baseURL: string;
  apiKey: string;
  /** gpt-image-1 by default; dall-e-2/3 answer URLs unless asked for b64_json, which we always ask. */
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

/** Portrait, the closest of the model's sizes to a reel's 9:16 frame. */
const GENERATED_SIZE = '1024x1536';

/**
 * Any OpenAI-compatible images API (`images.edit`, `images.generate`): the prompt goes to the
 * model as written, with the product's quality. Pictures come back as base64 and are stored as
 * PNG. Failures become EngineProviderError (status kept) so the caller refunds and explains.
 */
export function createOpenAiImageEngine(options: OpenAiImageOptions): ImageEngine {
  const client = new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
  });
  const isDallE = /^dall-e/i.test(options.model);
  // GPT image models take low/medium/high; DALL·E 3 takes standard/hd and DALL·E 2 nothing.
  const qualityParam = (quality: Quality) =>
    isDallE
      ? /dall-e-3/i.test(options.model)
        ? { quality: quality === 'high' ? 'hd' : 'standard' }
        : {}
      : { quality };

  return {
    name: 'openai',
    model: options.model,
    planEdit(prompt) {
      // The model reads the prompt itself; there is nothing to refuse beforehand.
      return [`edited by ${options.model}: ${prompt.trim()}`];
    },
    async editImage(image, prompt, quality) {
      let png: Buffer;
      try {
        png = await sharp(image, { failOn: 'error', pages: 1 }).rotate().png().toBuffer();
      } catch (error) {
        throw new EngineInputError('NOT_AN_IMAGE', 'The image could not be read; it may be damaged.', {
          cause: error,
        });
      }
      let response: OpenAI.Images.ImagesResponse;
      try {
        response = await client.images.edit({
          model: options.model,
          image: await toFile(png, 'image.png', { type: 'image/png' }),
          prompt,
          n: 1,
          ...(isDallE ? { response_format: 'b64_json' as const } : {}),
          ...(qualityParam(quality) as object),
        });
      } catch (error) {
        throw toImageProviderError(error);
      }
      const [edited] = await decodeImages(response, 1);
      return { png: edited as Buffer, operations: [`edited by ${options.model}: ${prompt.trim()}`] };
    },
    async generateImages(prompt, count, quality) {
      const responses: OpenAI.Images.ImagesResponse[] = [];
      try {
        // DALL·E 3 makes one image per call; the others take n.
        if (/dall-e-3/i.test(options.model)) {
          for (let i = 0; i < count; i++) responses.push(await generate(prompt, 1, quality));
        } else responses.push(await generate(prompt, count, quality));
      } catch (error) {
        throw toImageProviderError(error);
      }
      const images = (await Promise.all(responses.map((r) => decodeImages(r)))).flat();
      if (images.length < count) {
        throw new EngineProviderError(`The image model returned ${images.length} of ${count} images.`, {
          retryable: true,
        });
      }
      return { images: images.slice(0, count), typographic: false };
    },
  };

  function generate(prompt: string, n: number, quality: Quality) {
    return client.images.generate({
      model: options.model,
      prompt,
      n,
      size: isDallE ? '1024x1792' : GENERATED_SIZE,
      ...(isDallE ? { response_format: 'b64_json' as const } : {}),
      ...(qualityParam(quality) as object),
    } as OpenAI.Images.ImageGenerateParamsNonStreaming);
  }
}

/** Each answered image as PNG; a missing or undecodable one is a malformed answer. */
async function decodeImages(response: OpenAI.Images.ImagesResponse, expected?: number): Promise<Buffer[]> {
  const data = response?.data ?? [];
  if (data.length === 0 || (expected !== undefined && data.length < expected)) {
    throw new EngineProviderError('The image model returned no image.', { retryable: true });
  }
  return Promise.all(
    data.map(async (item) => {
      if (!item.b64_json)
        throw new EngineProviderError('The image model returned no image data.', { retryable: true });
      try {
        return await sharp(Buffer.from(item.b64_json, 'base64'), { failOn: 'error' }).png().toBuffer();
      } catch (error) {
        throw new EngineProviderError('The image model returned an image we cannot read.', {
          retryable: true,
          cause: error,
        });
      }
    }),
  );
}

function toImageProviderError(error: unknown): EngineProviderError {
  if (error instanceof EngineProviderError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new EngineProviderError('The image model did not answer in time.', {
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new EngineProviderError('Could not reach the image model.', { retryable: true, cause: error });
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    const providerMessage = (error.error as { message?: unknown } | undefined)?.message;
    const retryable =
      status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
    const what =
      status === 400 && typeof providerMessage === 'string' && providerMessage.trim()
        ? // A refusal (content policy, unsupported image) is the person's to act on: pass it on.
          `The image model refused the request: ${providerMessage.trim().slice(0, 300)}`
        : status === 429
          ? 'The image model is rate limiting us.'
          : status === 401 || status === 403
            ? 'The image model refused our credentials.'
            : `The image model answered with an error${status ? ` (${status})` : ''}.`;
    return new EngineProviderError(what, { retryable, ...(status ? { status } : {}), cause: error });
  }
  return new EngineProviderError('The image model call failed.', { retryable: true, cause: error });
}
