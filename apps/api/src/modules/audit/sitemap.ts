import { DomUtils, parseDocument } from 'htmlparser2';

/**
 * Reads a sitemap (sitemaps.org): a `<urlset>` of page `<loc>`s or a `<sitemapindex>` of sitemap
 * `<loc>`s. Anything else is not a sitemap, and the audit says so.
 */

export type SitemapReading =
  | { kind: 'urlset'; locations: string[] }
  | { kind: 'index'; locations: string[] }
  | { kind: 'not-xml' };

const xmlTypes = /^\s*(application|text)\/([\w.+-]+\+)?xml\s*(;|$)/i;

export function readSitemap(body: string, contentType: string): SitemapReading {
  const text = body.replace(/^\uFEFF/, '').trimStart();
  const looksXml = text.startsWith('<?xml') || /^<(urlset|sitemapindex)\b/i.test(text);
  if (!looksXml && !xmlTypes.test(contentType)) return { kind: 'not-xml' };
  const document = parseDocument(text, { xmlMode: true });
  const root = DomUtils.findOne(
    (element) => /(^|:)(urlset|sitemapindex)$/i.test(element.name),
    document.children,
    true,
  );
  if (!root) return { kind: 'not-xml' };
  const locations = DomUtils.findAll((element) => /(^|:)loc$/i.test(element.name), root.children)
    .map((element) => DomUtils.textContent(element).trim())
    .filter(Boolean);
  return { kind: /sitemapindex$/i.test(root.name) ? 'index' : 'urlset', locations };
}
