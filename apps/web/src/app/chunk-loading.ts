import { CHUNK_LOAD_TIMEOUT_MS } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';

export class ChunkLoadError extends Error {
  constructor(cause?: unknown) {
    super(messages.common.chunkLoadFailed, { cause });
    this.name = 'ChunkLoadError';
  }
}

/** What browsers and Vite say when a lazily imported file cannot be fetched (e.g. after a deploy). */
const chunkFailurePatterns = [
  /failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /importing a module script failed/i,
  /unable to preload css/i,
  /loading chunk .* failed/i,
  /loading chunk failed/i,
];

export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof ChunkLoadError) return true;
  return error instanceof Error && chunkFailurePatterns.some((pattern) => pattern.test(error.message));
}

/** Loads a route's chunk, giving up after CHUNK_LOAD_TIMEOUT_MS (the product spec §9) with a ChunkLoadError. */
export function loadChunk<T>(importer: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError()), timeoutMs);
    importer().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(isChunkLoadError(error) ? new ChunkLoadError(error) : error);
      },
    );
  });
}
