import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { MAX_SCRAPE_HTML_BYTES } from '@altwise/contracts/scrape';
import { Semaphore } from '../../lib/throttle.ts';
import { SafeFetchError, type SafeFetchOptions, safeFetch } from '../../net/safe-fetch.ts';
import { decode, type FetchSettings } from '../scrape/service.ts';
import type { RenderResult } from './render/browser-pool.ts';
import type { Renderer } from './render/renderer.ts';
import {
  allowEverything,
  disallowEverything,
  MAX_ROBOTS_CHARS,
  parseRobots,
  type RobotsRules,
} from './robots.ts';
import { type LocationAnswer, type SitemapKind, SitemapReader } from './sitemap.ts';

/**
 * How an audit fetches: through the SSRF-safe fetcher, never leaving the audited origin (a redirect
 * elsewhere is reported, not followed) nor following a redirect to a path robots.txt disallows, at
 * most PAGES_AT_ONCE_PER_HOST requests to one host at a time across every audit of this process.
 * Nothing fetched is run.
 */

export const PAGES_AT_ONCE_PER_HOST = 2;
/** A robots.txt of any size is fetched, but only its first MAX_ROBOTS_CHARS bytes are read (RFC 9309 §2.5). */
const ANY_SIZE = Number.MAX_SAFE_INTEGER;
/** Largest sitemap, as sent and once inflated from gzip (sitemaps.org: 50 MB and 50,000 URLs). */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Largest image the pixel check downloads (ADR 037): a bigger one gets no pixel evidence. */
export const MAX_AUDIT_IMAGE_BYTES = 5 * 1024 * 1024;
const htmlTypes = /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i;

/**
 * Something the audit declines to do or cannot read, said in words: a redirect to another origin
 * or to a path robots.txt disallows (`skipped`: nothing is wrong with the page), a sitemap too big.
 */
class CrawlNote extends Error {
  readonly skipped: boolean;

  constructor(message: string, skipped = false) {
    super(message);
    this.skipped = skipped;
  }
}

export type Fetched =
  | { ok: true; url: URL; body: string; contentType: string }
  | { ok: false; note: string; skipped?: boolean };

export type SitemapFetched =
  | { ok: true; kind: SitemapKind | 'not-xml'; contentType: string }
  | { ok: false; note: string };

/** What robots.txt rules are matched against: the path and the query. */
const pathOf = (url: URL) => `${url.pathname}${url.search}`;

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

/**
 * `renderer`: the process's headless browser for rendered audits (ADR 061); absent when no browser
 * is configured. A rendered page holds one of its host's slots like a fetched one.
 */
export function createCrawler(settings: FetchSettings, renderer?: Renderer | null) {
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
      /** Every redirect's target is checked against these rules too. */
      robots?: RobotsRules;
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
          if (options.robots && !options.robots.allows(pathOf(next)))
            throw new CrawlNote(
              `${address} redirects to ${next.href}, which robots.txt disallows, so it was not fetched.`,
              true,
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
      if (error instanceof CrawlNote) return { ok: false, note: error.message, skipped: error.skipped };
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
    /** Whether pages can be rendered (a browser is configured). */
    canRender: Boolean(renderer),

    /**
     * A page of the audited origin as the browser renders it, every request of the browser through
     * the SSRF proxy (render/ssrf-proxy.ts); a page that ends up on another origin or on a path
     * robots.txt disallows is not read. Never throws for anything the page does.
     */
    async renderPage(
      address: string,
      origin: string,
      robots: RobotsRules,
      options: { withShots: boolean; key?: string; owner?: string },
    ): Promise<RenderResult> {
      if (!renderer) return { ok: false, note: `${address} was not rendered: no browser is configured.` };
      const target = new URL(address);
      const result = await withHostSlot(target.host, () => renderer.render(address, options));
      if (!result.ok) return result;
      if (result.url.origin !== origin)
        return {
          ok: false,
          note: `${address} went to ${result.url.href} in the browser, which is on another site; the audit stays on ${origin} and did not read it there.`,
        };
      if (!robots.allows(pathOf(result.url)))
        return {
          ok: false,
          note: `${address} went to ${result.url.href} in the browser, which robots.txt disallows, so it was not read there.`,
        };
      return result;
    },

    /**
     * An HTML page of the audited origin (a page without a content type is read as HTML); a
     * redirect to a path the robots.txt rules disallow is not followed (a `skipped` answer).
     */
    fetchPage(address: string, origin: string, robots: RobotsRules): Promise<Fetched> {
      return fetchOnOrigin(address, origin, {
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
        acceptContentType: (type) => type.trim() === '' || htmlTypes.test(type),
        maxBytes: MAX_SCRAPE_HTML_BYTES,
        robots,
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
      const kind = reader.end();
      if (reader.refusal) return { ok: false, note: `${address} was not read: ${reader.refusal}.` };
      return { ok: true, kind, contentType: answer.contentType };
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

    /**
     * The origin's robots.txt rules (RFC 9309 §2.3.1): read when it answers 2xx (its first 512 KiB);
     * every page allowed when there is none (4xx, an HTML answer, more than 5 redirects); no page
     * allowed when it is unreachable (5xx, 429, no connection, a timeout), with `unreachable` saying
     * why in words. Its redirects are followed to other hosts too (§2.3.1.2), through the same
     * address checks as every fetch.
     */
    async fetchRobots(origin: string): Promise<{ rules: RobotsRules; unreachable?: string }> {
      const address = `${origin}/robots.txt`;
      const kept: Buffer[] = [];
      let size = 0;
      try {
        const answer = await fetchWithSlot(new URL(address), {
          maxBytes: ANY_SIZE,
          maxRedirects: 5,
          accept: 'text/plain,*/*;q=0.1',
          readBody: async (chunks) => {
            for await (const chunk of chunks) {
              kept.push(chunk);
              size += chunk.byteLength;
              if (size >= MAX_ROBOTS_CHARS) break;
            }
          },
        });
        if (/^\s*text\/html/i.test(answer.contentType)) return { rules: allowEverything };
        const text = decode(Buffer.concat(kept), answer.contentType);
        return { rules: parseRobots(text) };
      } catch (error) {
        if (!(error instanceof SafeFetchError)) throw error;
        const status = error.status;
        if (error.code === 'TOO_MANY_REDIRECTS') return { rules: allowEverything };
        if (
          error.code === 'HTTP_ERROR' &&
          status !== undefined &&
          status >= 400 &&
          status < 500 &&
          status !== 429
        )
          return { rules: allowEverything };
        const why =
          error.code === 'HTTP_ERROR'
            ? `it answered with HTTP ${status}`
            : error.code === 'UNREACHABLE'
              ? 'the site could not be reached'
              : error.code === 'TIMEOUT'
                ? 'it did not answer in time'
                : error.message.replace(/\.$/, '');
        return {
          rules: disallowEverything,
          unreachable: `The robots.txt of ${origin} could not be read (${why}). An unreachable robots.txt means no page may be crawled (RFC 9309), so the audit fetched none; try again once the site answers.`,
        };
      }
    },
  };
}
