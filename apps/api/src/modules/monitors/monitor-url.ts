/**
 * The one spelling of a monitored URL (ADR 062: one monitor per URL and user). Two spellings that
 * reach the same page are the same monitor: the URL parser already lower-cases the host, drops the
 * scheme's default port and resolves dot segments; on top of that the fragment (never sent to the
 * server) and an empty query (`/page?`) are dropped, percent-escapes of unreserved characters
 * (RFC 3986 §2.3: letters, digits, `-._~`) are decoded and the other escapes are written in upper
 * case (§6.2.2). Reserved characters stay escaped: `%2F` is not `/` to a server.
 */
export function normalizeMonitorUrl(address: string): string {
  const url = new URL(address);
  url.hash = '';
  url.pathname = normalizeEscapes(url.pathname);
  // `search` is '' for both no query and a bare `?`; assigning '' removes the `?` from `href`.
  url.search = url.search.length > 1 ? normalizeEscapes(url.search) : '';
  return url.href;
}

const unreserved = /^[A-Za-z0-9\-._~]$/;

function normalizeEscapes(part: string): string {
  return part.replace(/%([0-9A-Fa-f]{2})/g, (escaped, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return unreserved.test(character) ? character : escaped.toUpperCase();
  });
}
