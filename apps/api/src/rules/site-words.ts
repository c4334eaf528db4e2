/**
 * Words of text, of addresses and of sites' names: what the rulebook and the engines both read a
 * page's words with (a lower layer than either, so the checks never import an engine).
 */

/** Second-level labels under a country code ("example.co.uk"): the site's name is the label before. */
const secondLevel = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or', 'go']);

/** Words an address spells in lower case that people write in capitals. */
const acronyms = new Map([
  ['faq', 'FAQ'],
  ['faqs', 'FAQs'],
  ['api', 'API'],
  ['rss', 'RSS'],
  ['pdf', 'PDF'],
  ['ai', 'AI'],
]);

export function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * A URL path segment as words: "how-to-write_alt-text.html" → "How to write alt text". Null for
 * identifiers ("p", "12345", "a9f3c2e1") that say nothing to a person.
 */
export function readable(segment: string): string | null {
  const tokens = segment
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .split(/[\s\-_+.~,;:!]+/)
    .map((token) => token.toLowerCase())
    .filter(Boolean);
  const wordsOnly = tokens.filter((token) => /\p{L}/u.test(token) && !isIdentifier(token));
  if (wordsOnly.length === 0 || wordsOnly.join('').length < 2) return null;
  const text = wordsOnly.map((token) => acronyms.get(token) ?? token).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function isIdentifier(token: string): boolean {
  return (
    (/\d/.test(token) && /^[0-9a-f]{6,}$/i.test(token)) ||
    /^[a-z]?\d+[a-z]?$/i.test(token) ||
    /^[0-9a-z]{16,}$/i.test(token)
  );
}

/**
 * A site's name from its host ("www.altwise.app" → "Altwise", "shop.example.co.uk" → "Example"),
 * spelled as the page title spells it when the title names the site ("AltWise").
 */
export function siteName(hostname: string, pageTitle?: string): string | null {
  const key = siteKey(hostname);
  if (!/\p{L}/u.test(key) || key.includes('.')) return null;
  const spelled = pageTitle ? siteNameInTitle(hostname, pageTitle) : null;
  if (spelled) return spelled;
  return key
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');
}

/**
 * The site's name as the page title spells it, when one to three of the title's words are the
 * host's name ("News | AltWise" on altwise.app → "AltWise"); null when the title does not name the
 * site: a title's other part may be anything.
 */
export function siteNameInTitle(hostname: string, pageTitle: string): string | null {
  const key = siteKey(hostname);
  if (!/\p{L}/u.test(key) || key.includes('.')) return null;
  const squashed = key.replace(/-/g, '');
  const tokens = pageTitle.split(/[\s|–—:·•/]+/).filter(Boolean);
  for (let i = 0; i < tokens.length; i++) {
    for (const span of [1, 2, 3]) {
      const phrase = tokens.slice(i, i + span).join(' ');
      const bare = phrase.replace(/[^\p{L}\p{N}]/gu, '');
      if (bare.toLowerCase() === squashed) return phrase.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    }
  }
  return null;
}

/** The registrable label of a host: "www.shop.example.co.uk" → "example". */
export function siteKey(hostname: string): string {
  const labels = hostname.toLowerCase().replace(/\.$/, '').split('.').filter(Boolean);
  if (labels.length === 0) return '';
  if (labels.length === 1 || /^\d+$/.test(labels.at(-1) ?? '')) return labels.join('.');
  labels.pop();
  if (labels.length > 1 && secondLevel.has(labels.at(-1) ?? '')) labels.pop();
  return labels.at(-1) ?? '';
}
