import { errorCodes } from '@altwise/contracts/errors';
import { MAX_SCRAPE_IMAGES } from '@altwise/contracts/limits';
import { MAX_SCRAPE_HTML_BYTES, type ScrapedImage } from '@altwise/contracts/scrape';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, badGateway, badRequest, payloadTooLarge } from '../../errors.ts';
import { SafeFetchError, safeFetch } from '../../net/safe-fetch.ts';
import { extractImages } from './extract-images.ts';

export type ScrapeService = ReturnType<typeof createScrapeService>;

export type FetchSettings = {
  /** FETCH_ALLOW_PRIVATE: private and local addresses may be fetched (local testing only). */
  allowPrivate: boolean;
  connectTimeoutMs: number;
  timeoutMs: number;
};

const htmlTypes = /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i;

function charsetOf(contentType: string): string {
  return /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
}

function decode(body: Buffer, contentType: string): string {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Each fetch failure as the caller sees it: a 4xx they can fix, or a 502/504 about the remote page. */
function toAppError(error: SafeFetchError): AppError {
  switch (error.code) {
    case 'INVALID_URL':
      return badRequest(error.message);
    case 'REFUSED_ADDRESS':
      return badRequest(`${error.message} Only public web pages can be scraped.`);
    case 'TOO_LARGE':
      return payloadTooLarge(
        `The page is too large to scrape: ${error.message.replace(/^The answer is /, 'it is ')}`,
      );
    case 'UNSUPPORTED_TYPE':
      return new AppError(
        415,
        errorCodes.unsupportedMediaType,
        `${error.message} Please enter the address of a web page.`,
      );
    case 'TIMEOUT':
      return new AppError(504, errorCodes.gatewayTimeout, `The page took too long to load. ${error.message}`);
    case 'HTTP_ERROR':
      return badGateway(`The page could not be loaded: ${error.message}`, error);
    case 'TOO_MANY_REDIRECTS':
      return badGateway(`The page could not be loaded: ${error.message}`, error);
    case 'UNREACHABLE':
      return badGateway(`The page could not be reached: ${error.message}`, error);
  }
}

/**
 * Reads a web page for its images (SPEC.md §7 POST /users/scrape-and-generate): fetched through the
 * SSRF-safe fetcher, parsed without running scripts, at most MAX_SCRAPE_IMAGES rows.
 */
export function createScrapeService(deps: { fetch: FetchSettings; logger: FastifyBaseLogger }) {
  const { fetch: settings, logger } = deps;

  return {
    async scrapePage(userId: string, address: string): Promise<ScrapedImage[]> {
      let page: Awaited<ReturnType<typeof safeFetch>>;
      try {
        page = await safeFetch(address, {
          allowPrivate: settings.allowPrivate,
          connectTimeoutMs: settings.connectTimeoutMs,
          timeoutMs: settings.timeoutMs,
          maxBytes: MAX_SCRAPE_HTML_BYTES,
          maxRedirects: 5,
          accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
          // No content type: read it as HTML, as browsers do.
          acceptContentType: (type) => type.trim() === '' || htmlTypes.test(type),
        });
      } catch (error) {
        if (!(error instanceof SafeFetchError)) throw error;
        logger.info({ userId, code: error.code }, 'scraping a page failed');
        throw toAppError(error);
      }
      return extractImages(decode(page.body, page.contentType), page.url, MAX_SCRAPE_IMAGES);
    },
  };
}
