import {
  assertPublicAddress,
  isPrivateAddress,
  parseFetchableUrl,
  SafeFetchError,
  safeFetch,
} from '../net/safe-fetch.ts';
import { EngineInputError } from './errors.ts';

/**
 * Downloads an image by URL for the CLI and the engine, through the shared SSRF-safe fetcher
 * (net/safe-fetch.ts): http and https only, no private, loopback or link-local addresses unless
 * allowed, a size cap, a time limit, and every connection and redirect checked again.
 */

export { isPrivateAddress };

export interface FetchImageOptions {
  allowPrivate?: boolean;
  maxBytes: number;
  timeoutMs?: number;
  maxRedirects?: number;
}

function toEngineError(error: unknown): unknown {
  if (!(error instanceof SafeFetchError)) return error;
  if (error.code === 'TOO_LARGE')
    return new EngineInputError('TOO_LARGE', 'The image is too large to download.', { cause: error });
  return new EngineInputError('UNREADABLE_URL', error.message, { cause: error });
}

export async function assertPublicUrl(url: URL, allowPrivate = false): Promise<void> {
  try {
    parseFetchableUrl(url);
    if (!allowPrivate) await assertPublicAddress(url);
  } catch (error) {
    throw toEngineError(error);
  }
}

export async function fetchImage(
  address: string,
  options: FetchImageOptions,
): Promise<{ bytes: Uint8Array; url: URL }> {
  try {
    const { body, url } = await safeFetch(address, {
      allowPrivate: options.allowPrivate,
      maxBytes: options.maxBytes,
      timeoutMs: options.timeoutMs ?? 15_000,
      maxRedirects: options.maxRedirects ?? 3,
      accept: 'image/*',
    });
    return { bytes: body, url };
  } catch (error) {
    throw toEngineError(error);
  }
}
