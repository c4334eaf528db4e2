/**
 * How image URLs are told apart. A fragment (`#…`) never reaches the server
 * that serves an image, so `x.png` and `x.png#frag` are one image: one row, one credit. Scraped
 * pages, CSV imports and the images a batch is started with all de-duplicate through these two.
 */

/** The URL without its fragment, in the WHATWG form (`new URL(…).href`); as it is if unparsable. */
export function normalizeImageUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return String(url);
  }
  parsed.hash = '';
  return parsed.href;
}

/** Each item whose normalized URL an earlier item had dropped; the first one stays, in order. */
export function uniqueImageUrls<T>(items: readonly T[], urlOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = normalizeImageUrl(urlOf(item));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
