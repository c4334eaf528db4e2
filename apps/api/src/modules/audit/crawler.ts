import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { MAX_SCRAPE_HTML_BYTES } from '@altwise/contracts/scrape';
import { Semaphore } from '../../lib/throttle.ts';
import { SafeFetchError, type SafeFetchOptions, safeFetch } from '../../net/safe-fetch.ts';
import { decode, type FetchSettings } from '../scrape/service.ts';
import { allowEverything, parseRobots, type RobotsRules } from './robots.ts';
import { type LocationAnswer, type SitemapKind, SitemapReader } from './sitemap.ts';

/**
 * How an audit fetches: through the SSRF-safe fetcher, never leaving the audited origin (a redirect
 * elsewhere is reported, not followed), at most PAGES_AT_ONCE_PER_HOST requests to one host at a
 * time across every audit of this process. Nothing fetched is run.
 */

export const PAGES_AT_ONCE_PER_HOST = 2;
/** Largest robots.txt read. */
const MAX_ROBOTS_BYTES = 5 * 1024 * 1024;
/** Largest sitemap, as sent and once inflated from gzip (sitemaps.org: 50 MB and 50,000 URLs). */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Largest image the pixel check downloads (ADR 037): a bigger one gets no pixel evidence. */
export const MAX_AUDIT_IMAGE_BYTES = 5 * 1024 * 1024;
const htmlTypes = /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i;

/** Something the audit declines to do or cannot read, said in words: a redirect to another origin, a sitemap too big. */
class CrawlNote extends Error {}

export type Fetched = { ok: true; url: URL; body: string; contentType: string } | { ok: false; note: string };

export type SitemapFetched =
  | { ok: true; kind: SitemapKind | 'not-xml'; contentType: string }
  | { ok: false; note: string };

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * The body as sent, or inflated when it starts with the gzip magic bytes (a `sitemap.xml.gz`),
 * refused once it inflates past `maxInflated`: a small gzip bomb cannot fill the memory.
 */
async function* inflatedIfGzipped(
  chunks: AsyncIterable<Buffer>,
  maxInflated: number,
  address: string,
): AsyncGenerator<Buffer> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  async function* all() {
    try {
      yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await iterator.return?.();
    }
  }
  if (!(first.value[0] === 0x1f && first.value[1] === 0x8b)) {
    yield* all();
    return;
  }
  const gunzip = createGunzip();
  const piping = pipeline(Readable.from(all()), gunzip).catch(() => {});
  let inflated = 0;
  try {
    for await (const piece of gunzip as AsyncIterable<Buffer>) {
      inflated += piece.byteLength;
      if (inflated > maxInflated)
        throw new CrawlNote(
          `${address} inflates to more than ${megabytes(maxInflated)}, more than a sitemap may hold, so it was not read.`,
        );
      yield piece;
    }
  } catch (error) {
    if (error instanceof CrawlNote || error instanceof SafeFetchError) throw error;
    throw new CrawlNote(`${address} is not a readable gzip file.`);
  } finally {
    gunzip.destroy();
    await piping;
  }
}

export type Crawler = ReturnType<typeof createCrawler>;

export function createCrawler(settings: FetchSettings) {
  const hosts = new Map<string, { slots: Semaphore; users: number }>();

  /** Runs `work` holding one of the host's slots. */
  async function withHostSlot<T>(host: string, work: () => Promise<T>): Promise<T> {
    let entry = hosts.get(host);
    if (!entry) {
      entry = { slots: new Semaphore(PAGES_AT_ONCE_PER_HOST), users: 0 };
      hosts.set(host, entry);
    }
    entry.users++;
    const release = await entry.slots.acquire();
    try {
      return await work();
    } finally {
      release();
      entry.users--;
      if (entry.users === 0) hosts.delete(host);
    }
  }

  /** The SSRF-safe fetch with the audit's settings, holding one of the host's slots. */
  function fetchWithSlot(
    target: URL,
    options: Omit<SafeFetchOptions, 'allowPrivate' | 'connectTimeoutMs' | 'timeoutMs'>,
  ) {
    return withHostSlot(target.host, () =>
      safeFetch(target, {
        allowPrivate: settings.allowPrivate,
        connectTimeoutMs: settings.connectTimeoutMs,
        timeoutMs: settings.timeoutMs,
        ...options,
      }),
    );
  }

  async function fetchOnOrigin(
    address: string,
    origin: string,
    options: {
      accept: string;
      acceptContentType?: (type: string) => boolean;
      maxBytes: number;
      readBody?: SafeFetchOptions['readBody'];
    },
  ): Promise<Fetched> {
    const target = new URL(address);
    try {
      const answer = await fetchWithSlot(target, {
        maxBytes: options.maxBytes,
        maxRedirects: 5,
        accept: options.accept,
        acceptContentType: options.acceptContentType,
        readBody: options.readBody,
        checkRedirect: (next) => {
          if (next.origin !== origin)
            throw new CrawlNote(
              `${address} redirects to ${next.href}, which is on another site; the audit stays on ${origin} and did not follow it.`,
            );
        },
      });
      return {
        ok: true,
        url: answer.url,
        body: options.readBody ? '' : decode(answer.body, answer.contentType),
        contentType: answer.contentType,
      };
    } catch (error) {
      if (error instanceof CrawlNote) return { ok: false, note: error.message };
      if (error instanceof SafeFetchError) {
        if (error.code === 'UNSUPPORTED_TYPE') {
          const type = /answered with (.+?), which/.exec(error.message)?.[1] ?? 'another type';
          return { ok: false, note: `${address} is not an HTML page (it answered with ${type}).` };
        }
        return { ok: false, note: `${address}: ${error.message}` };
      }
      throw error;
    }
  }

  return {
    /** An HTML page of the audited origin (a page without a content type is read as HTML). */
    fetchPage(address: string, origin: string): Promise<Fetched> {
      return fetchOnOrigin(address, origin, {
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
        acceptContentType: (type) => type.trim() === '' || htmlTypes.test(type),
        maxBytes: MAX_SCRAPE_HTML_BYTES,
      });
    },

    /**
     * A sitemap, read whatever its type (the reader decides whether it is one) as it arrives, each
     * location handed to `onLocation` until it answers 'enough'; gzip is inflated up to the same cap.
     */
    async fetchSitemap(
      address: string,
      origin: string,
      onLocation: (kind: SitemapKind, location: string) => LocationAnswer,
    ): Promise<SitemapFetched> {
      const reader = new SitemapReader(onLocation);
      const answer = await fetchOnOrigin(address, origin, {
        accept: 'application/xml,text/xml;q=0.9,*/*;q=0.1',
        maxBytes: MAX_SITEMAP_BYTES,
        readBody: async (chunks) => {
          for await (const piece of inflatedIfGzipped(chunks, MAX_SITEMAP_BYTES, address)) {
            reader.write(piece);
            if (reader.done) break;
          }
        },
      });
      if (!answer.ok) return answer;
      return { ok: true, kind: reader.end(), contentType: answer.contentType };
    },

    /**
     * An image of an audited page, for the pixel check (ADR 037): any public host (images often
     * live on a CDN), sharing the per-host limit with pages; null when it cannot be fetched.
     */
    async fetchImage(address: string): Promise<Uint8Array | null> {
      let target: URL;
      try {
        target = new URL(address);
      } catch {
        return null;
      }
      try {
        const answer = await fetchWithSlot(target, {
          maxBytes: MAX_AUDIT_IMAGE_BYTES,
          maxRedirects: 3,
          accept: 'image/*',
        });
        return answer.body;
      } catch (error) {
        if (error instanceof SafeFetchError) return null;
        throw error;
      }
    },

    /** The origin's robots.txt rules; none (every page allowed) when it has none or it cannot be read. */
    async fetchRobots(origin: string): Promise<RobotsRules> {
      const answer = await fetchOnOrigin(`${origin}/robots.txt`, origin, {
        accept: 'text/plain,*/*;q=0.1',
        maxBytes: MAX_ROBOTS_BYTES,
      });
      if (!answer.ok) return allowEverything;
      if (/^\s*text\/html/i.test(answer.contentType)) return allowEverything;
      return parseRobots(answer.body);
    },
  };
}
