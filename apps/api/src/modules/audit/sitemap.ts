import { Parser } from 'htmlparser2';

/**
 * Reads a sitemap (sitemaps.org) as it arrives: a `<urlset>` of page `<loc>`s or a `<sitemapindex>`
 * of sitemap `<loc>`s. Each location is handed over as soon as its `</loc>` is read and nothing else
 * is kept, so a 50 MB sitemap costs no more memory than a small one, and reading stops as soon as
 * the caller has enough. Anything else is not a sitemap, and the audit says so.
 */

export type SitemapKind = 'urlset' | 'index';

/** What the caller does with a location: keep reading, or stop (it has enough). */
export type LocationAnswer = 'more' | 'enough';

/** Longest `<loc>` kept (sitemaps.org: under 2,048 characters); a longer one is skipped. */
const MAX_LOCATION_CHARS = 4096;
/**
 * Deepest nesting read. A sitemap is 3 levels deep (4 with extensions such as `<image:image>`);
 * the parser's stack of open elements costs O(depth) per element, so a document of a million
 * nested elements would cost O(n²) and hold the event loop: it is refused at this depth instead.
 */
export const MAX_SITEMAP_DEPTH = 32;

export class SitemapReader {
  /** null until the root element is read; 'not-xml' when the document is not a sitemap. */
  kind: SitemapKind | 'not-xml' | null = null;
  /** True once the caller said it has enough, or the document is known not to be a sitemap. */
  done = false;
  /** Why the document was refused part way (too deeply nested), in words; null when it was not. */
  refusal: string | null = null;
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser: Parser;
  private location: string | null = null;
  private depth = 0;
  /** Inside a `<url>` or `<sitemap>` entry of the root (depth 2), whose own `<loc>` is read. */
  private inEntry = false;

  constructor(onLocation: (kind: SitemapKind, location: string) => LocationAnswer) {
    this.parser = new Parser(
      {
        onopentag: (name) => {
          if (this.done) return;
          if (++this.depth > MAX_SITEMAP_DEPTH) {
            this.refusal = `it nests elements more than ${MAX_SITEMAP_DEPTH} deep, which no sitemap does`;
            this.stop();
            return;
          }
          if (this.kind === null) {
            const root = /(^|:)(urlset|sitemapindex)$/i.exec(name);
            this.kind = root ? (/sitemapindex$/i.test(name) ? 'index' : 'urlset') : 'not-xml';
            if (!root) this.stop();
            return;
          }
          if (this.depth === 2) this.inEntry = /(^|:)(url|sitemap)$/i.test(name);
          // Only the entry's own <loc>: an <image:loc> of the image extension is not a page.
          else if (this.depth === 3 && this.inEntry && /(^|:)loc$/i.test(name)) this.location = '';
        },
        ontext: (text) => {
          if (this.done) return;
          if (this.kind === null) {
            // Words before the root element: not a sitemap (an HTML error page without tags, say).
            if (text.replace(/^\uFEFF/, '').trim()) {
              this.kind = 'not-xml';
              this.stop();
            }
            return;
          }
          if (this.location !== null && this.location.length <= MAX_LOCATION_CHARS) this.location += text;
        },
        onclosetag: (name) => {
          if (this.done) return;
          if (this.depth-- !== 3 || this.location === null || !/(^|:)loc$/i.test(name)) return;
          const location = this.location.trim();
          this.location = null;
          if (!location || location.length > MAX_LOCATION_CHARS) return;
          if (onLocation(this.kind as SitemapKind, location) === 'enough') this.stop();
        },
      },
      { xmlMode: true },
    );
  }

  /** Reads no further, not even the rest of the piece being read. */
  private stop() {
    this.done = true;
    this.parser.pause();
  }

  /** Reads the next piece of the document (UTF-8 bytes, or text). */
  write(chunk: Uint8Array | string): void {
    if (this.done) return;
    this.parser.write(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
  }

  /** The document has ended: what it was. */
  end(): SitemapKind | 'not-xml' {
    if (!this.done) {
      const rest = this.decoder.decode();
      if (rest) this.parser.write(rest);
      this.parser.end();
    }
    if (this.kind === null) this.kind = 'not-xml';
    return this.kind;
  }
}

export type SitemapReading =
  | { kind: 'urlset'; locations: string[] }
  | { kind: 'index'; locations: string[] }
  | { kind: 'not-xml' };

/** Reads a whole sitemap held in memory (small documents and tests). */
export function readSitemap(body: string): SitemapReading | { kind: 'refused'; why: string } {
  const locations: string[] = [];
  const reader = new SitemapReader((_kind, location) => {
    locations.push(location);
    return 'more';
  });
  reader.write(body);
  const kind = reader.end();
  if (reader.refusal) return { kind: 'refused', why: reader.refusal };
  return kind === 'not-xml' ? { kind } : { kind, locations };
}
