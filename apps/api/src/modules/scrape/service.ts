import { MAX_SCRAPE_IMAGES } from '@altwise/contracts/limits';
import { MAX_SCRAPE_HTML_BYTES, type ScrapedImage } from '@altwise/contracts/scrape';
import type { FastifyBaseLogger } from 'fastify';
import { payloadTooLarge } from '../../errors.ts';
import { SafeFetchError, safeFetch } from '../../net/safe-fetch.ts';
import { MAX_PAGE_NODES, type PageLimit } from '../../pages/extract-images.ts';

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

/** A fetched body as text, in the charset its content type names (else UTF-8). */
export function decode(body: Buffer, contentType: string): string {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Reads a page's images in a worker thread (extract-images.ts readImages). */
export type ImageReader = (input: {
  html: string;
  pageUrl: string;
  limit: number;
}) => Promise<{ images: ScrapedImage[]; limits: PageLimit[] }>;

/**
 * Reads a web page for its images (the product spec §7 POST /users/scrape-and-generate): fetched through the
 * SSRF-safe fetcher, parsed without running scripts in a worker thread with time and memory
 * limits (a page that hits them is a 413 in words), at most MAX_SCRAPE_IMAGES rows.
 */
export function createScrapeService(deps: {
  fetch: FetchSettings;
  readImages: ImageReader;
  logger: FastifyBaseLogger;
}) {
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
        // The error handler answers a SafeFetchError (400, 413, 415, 502 or 504, naming the cause).
        if (error instanceof SafeFetchError)
          logger.info({ userId, code: error.code }, 'scraping a page failed');
        throw error;
      }
      const { images, limits } = await deps.readImages({
        html: decode(page.body, page.contentType),
        pageUrl: page.url.href,
        limit: MAX_SCRAPE_IMAGES,
      });
      // A page read in part answers only when the part already holds every row the call gives.
      if (limits.includes('nodes') && images.length < MAX_SCRAPE_IMAGES) {
        logger.info({ userId }, 'a scraped page hit the node limit');
        throw payloadTooLarge(
          `The page is too large to read whole: it has more than ${MAX_PAGE_NODES.toLocaleString('en')} HTML nodes.`,
        );
      }
      return images;
    },
  };
}
