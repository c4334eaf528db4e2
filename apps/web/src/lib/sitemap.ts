/** robots.txt and sitemap.xml of the public site, written into the build by scripts/prerender.ts. */

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `origin` is the site's public base URL without a trailing slash, e.g. https://altwise.example. */
export function buildSitemapXml(
  origin: string,
  paths: readonly string[],
  lastModified: Readonly<Record<string, string>> = {},
): string {
  const base = origin.replace(/\/+$/, '');
  const urls = paths.map((path) => {
    const lastmod = lastModified[path];
    return [
      '  <url>',
      `    <loc>${escapeXml(`${base}${path}`)}</loc>`,
      ...(lastmod ? [`    <lastmod>${escapeXml(lastmod)}</lastmod>`] : []),
      '  </url>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** Lets crawlers into the site but not the API or users' files, and points them to the sitemap. */
export function buildRobotsTxt(origin: string): string {
  const base = origin.replace(/\/+$/, '');
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /files/',
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n');
}
