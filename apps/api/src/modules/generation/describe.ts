import { buffer } from 'node:stream/consumers';
import { MAX_REMOTE_IMAGE_BYTES } from '@altwise/contracts/generation';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.ts';
import {
  type EmbeddedText,
  readEmbeddedText,
  withEmbeddedAlt,
  withEmbeddedEvidence,
} from '../../engines/embedded-text.ts';
import { EngineInputError, EngineProviderError } from '../../engines/errors.ts';
import { fetchImage } from '../../engines/fetch-image.ts';
import { fileNameFromUrl } from '../../engines/page-context.ts';
import type { AltTextEngine, AltTextResult, PageContext, PreparedForEngine } from '../../engines/types.ts';
import { ImageFailure } from '../../errors.ts';
import type { RateLimiter, Semaphore } from '../../lib/throttle.ts';
import { SafeFetchError } from '../../net/safe-fetch.ts';
import type { FilesService } from '../files/service.ts';
import { detectImageType, supportedImageTypesText } from './image-type.ts';

/** An image to describe: where its bytes are and what the engine is told about it. */
export type ImageToDescribe = {
  src: string;
  /** Set for uploads: the bytes come from storage, not from the network. */
  fileKey: string | null;
  context: PageContext;
  prompt?: string | null;
  /** BCP 47; absent: the engine's default. */
  language?: string | null;
  /** SEO keywords, used only where they truthfully describe the image. */
  keywords?: string[] | null;
  /** Handed the bytes once they are known to be an image (the runner makes its preview, ADR 051). */
  onImage?: (bytes: Uint8Array) => void;
};

// Defined with the other domain errors, which the error handler maps to HTTP in one place.
export { ImageFailure } from '../../errors.ts';

export type DescribeDeps = {
  engine: AltTextEngine;
  files: FilesService;
  fetch: AppConfig['fetch'];
  limiter: RateLimiter;
  /** Engine calls at once in this process (GENERATION_CONCURRENCY), across batches and regenerates. */
  engineSlots: Semaphore;
  logger: FastifyBaseLogger;
};

const retryableStatus = (status: number | undefined) =>
  status === 408 || status === 425 || status === 429 || (status !== undefined && status >= 500);

/**
 * What went wrong, in words the user can act on, and whether another attempt might succeed:
 * rate limits, outages and timeouts are worth retrying; bad input is not.
 */
export function classifyFailure(error: unknown): ImageFailure {
  if (error instanceof ImageFailure) return error;
  if (error instanceof EngineInputError) {
    const cause = error.cause;
    if (cause instanceof SafeFetchError)
      return new ImageFailure(
        `Could not download the image: ${cause.message}`,
        cause.code === 'TIMEOUT' || cause.code === 'UNREACHABLE' || retryableStatus(cause.status),
        { cause: error },
      );
    if (error.code === 'TOO_LARGE')
      return new ImageFailure(`The image is larger than ${MAX_REMOTE_IMAGE_BYTES / 1024 / 1024} MB.`, false, {
        cause: error,
      });
    return new ImageFailure(error.message, false, { cause: error });
  }
  if (error instanceof EngineProviderError)
    return new ImageFailure(
      `The alt-text engine could not describe this image: ${error.message}`,
      error.retryable || retryableStatus(error.status),
      { cause: error },
    );
  if (error instanceof SafeFetchError)
    return new ImageFailure(
      `Could not download the image: ${error.message}`,
      error.code === 'TIMEOUT' || retryableStatus(error.status),
      { cause: error },
    );
  return new ImageFailure('Something went wrong while describing this image.', true, { cause: error });
}

async function loadBytes(deps: DescribeDeps, image: ImageToDescribe): Promise<Uint8Array> {
  if (image.fileKey) {
    const stored = await deps.files.openFile(image.fileKey);
    if (!stored) throw new ImageFailure('The uploaded file is no longer stored.', false);
    return buffer(stored.body);
  }
  const { bytes } = await fetchImage(image.src, {
    allowPrivate: deps.fetch.allowPrivate,
    maxBytes: MAX_REMOTE_IMAGE_BYTES,
    timeoutMs: deps.fetch.timeoutMs,
  });
  return bytes;
}

/**
 * Reads the image (storage or the safe fetcher), checks it is an image and, where the engine has a
 * step of its own for it, prepares it (decode, shrink, encode). The input bytes are kept only when
 * the engine has no such step.
 */
async function loadAndPrepare(
  deps: DescribeDeps,
  image: ImageToDescribe,
): Promise<{ prepared: PreparedForEngine; embedded: EmbeddedText | null }> {
  const bytes = await loadBytes(deps, image);
  if (!detectImageType(bytes))
    throw new ImageFailure(`The file is not an image (expected ${supportedImageTypesText}).`, false);
  image.onImage?.(bytes);
  const embedded = await readEmbeddedText(bytes);
  if (deps.engine.prepareImage) return { prepared: await deps.engine.prepareImage(bytes), embedded };
  return { prepared: { describe: (options) => deps.engine.describeImage(bytes, options) }, embedded };
}

/** A remote image's file name is evidence ("red-leather-handbag.jpg"), as an upload's is. */
function withFileName(image: ImageToDescribe): ImageToDescribe['context'] {
  if (image.fileKey || image.context?.fileName) return image.context;
  const fileName = fileNameFromUrl(image.src);
  return fileName ? { ...image.context, fileName } : image.context;
}

/** Loads and prepares the image, then asks the engine once. */
export async function describeOnce(deps: DescribeDeps, image: ImageToDescribe): Promise<AltTextResult> {
  // Only the engine call holds a slot: the next images download and prepare while the engine is
  // busy, so the provider always has GENERATION_CONCURRENCY requests in flight.
  const { prepared, embedded } = await loadAndPrepare(deps, image);
  const context = withEmbeddedAlt(withFileName(image), embedded);
  // The language asked for, else the language of the image's place on its page (ADR 071).
  const language = image.language ?? context.language;
  const release = await deps.engineSlots.acquire();
  try {
    await deps.limiter.take();
    const result = await prepared.describe({
      ...(image.prompt ? { prompt: image.prompt } : {}),
      ...(language ? { language } : {}),
      ...(image.keywords?.length ? { keywords: image.keywords } : {}),
      context,
    });
    return withEmbeddedEvidence(result, context, embedded);
  } finally {
    release();
  }
}
