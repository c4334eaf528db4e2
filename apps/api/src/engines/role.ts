import { isDescriptiveAlt } from './page-context.ts';
import type { AltTextReason, PageContext } from './types.ts';

/**
 * The W3C alt decision tree (https://www.w3.org/WAI/tutorials/images/decision-tree/) applied to what
 * the page says about an image, before anyone looks at its pixels:
 * - the only content of a link or button is functional: its alt text is the control's name, so it
 *   says where the link goes or what the button does ("Pricing", "Altwise home"), not what the
 *   picture looks like;
 * - an image whose information is already in the text next to it (a link's own text, or an existing
 *   alt that repeats the caption or link text word for word) is decorative: `alt=""`;
 * - anything else is described, with the role as a hint (a figure's caption is read beside it).
 * Pure: the same context always gives the same decision.
 */

export type RoleDecision =
  | { kind: 'functional'; altText: string; confidence: number; reasons: AltTextReason[] }
  | { kind: 'decorative'; confidence: number; reasons: AltTextReason[] }
  | {
      kind: 'describe';
      reasons: AltTextReason[];
      /** The most an engine should claim: set when the image's purpose is unknown (a bare icon button). */
      maxConfidence?: number;
    };

/** How sure an engine may be once the role has spoken: a describe decision can cap it. */
export function capConfidence(decision: RoleDecision, confidence: number): number {
  return decision.kind === 'describe' && decision.maxConfidence !== undefined
    ? Math.min(confidence, decision.maxConfidence)
    : confidence;
}

/** Link texts that do not say where a link goes: an image beside them still has work to do. */
const vagueLinkTexts = new Set([
  'more',
  'read more',
  'learn more',
  'see more',
  'view more',
  'more info',
  'details',
  'click here',
  'here',
  'link',
  'continue',
  'continue reading',
  'go',
  'open',
  'view',
  'next',
  'previous',
  'prev',
]);

const imageFile = /\.(jpe?g|png|gif|webp|svg|avif|bmp|tiff?|heic|heif)$/i;
const filePage = /(^|\/)(file|image|datei|fichier|archivo|bestand|special:filepath)[:/]/i;
const homeSegment = /^(index|home|default|start|main)(\.[a-z]{2,5})?$/i;
const localeSegment = /^[a-z]{2}(?:[-_][a-z]{2,4})?$/i;
const secondLevel = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or', 'go']);
const acronyms = new Map([
  ['faq', 'FAQ'],
  ['faqs', 'FAQs'],
  ['api', 'API'],
  ['rss', 'RSS'],
  ['pdf', 'PDF'],
  ['ai', 'AI'],
]);

export function decideRole(context: PageContext): RoleDecision {
  const role = context.role;
  if ((role === 'link' || role === 'button') && context.linkText) return besideControlText(context, role);
  if (role === 'link') return linkOnly(context) ?? unknownPurpose('link');
  if (role === 'button') return buttonOnly(context);
  const repeated = repeatedText(context);
  if (repeated) return repeated;
  if (role === 'figure') {
    return {
      kind: 'describe',
      reasons: [
        {
          source: 'role',
          detail: 'In a figure: the caption is read beside it, so the alt text need not repeat it',
        },
      ],
    };
  }
  return { kind: 'describe', reasons: [] };
}

/** Inside a link or button that has its own text: that text is the name; the image adds nothing. */
function besideControlText(context: PageContext, role: 'link' | 'button'): RoleDecision {
  const text = context.linkText ?? '';
  const control = role === 'link' ? 'link' : 'button';
  if (vagueLinkTexts.has(words(text).join(' '))) {
    return {
      kind: 'describe',
      reasons: [
        {
          source: 'role',
          detail: `In a ${control} whose own text (“${text}”) does not say where it goes`,
        },
      ],
    };
  }
  return {
    kind: 'decorative',
    confidence: 0.75,
    reasons: [
      { source: 'link', detail: `The ${control}’s own text already names it: “${text}”` },
      { source: 'role', detail: `An image beside the ${control}’s text: alt="" avoids saying it twice` },
    ],
  };
}

/** The only content of a link: name where it goes. Undefined when the target says nothing readable. */
function linkOnly(context: PageContext): RoleDecision | undefined {
  const target = context.linkTarget;
  if (!target) return linkByExistingAlt(context);
  const onlyContent: AltTextReason = {
    source: 'role',
    detail: 'The only content of a link: its alt text is the link’s name, so it says where the link goes',
  };
  const functional = (altText: string, confidence: number): RoleDecision => {
    const own = existingNameFor(context, altText);
    return {
      kind: 'functional',
      altText: own ?? altText,
      confidence,
      reasons: [
        onlyContent,
        { source: 'link', detail: target },
        ...(own ? [{ source: 'existingAlt' as const, detail: own }] : []),
      ],
    };
  };
  let url: URL;
  try {
    url = new URL(target, context.pageUrl);
  } catch {
    return linkByExistingAlt(context);
  }
  if (url.protocol === 'mailto:') {
    const address = decodeURIComponent(url.pathname);
    return address ? functional(`Email ${address}`, 0.8) : linkByExistingAlt(context);
  }
  if (url.protocol === 'tel:') {
    const number = decodeURIComponent(url.pathname);
    return number ? functional(`Call ${number}`, 0.8) : linkByExistingAlt(context);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return linkByExistingAlt(context);
  // A link to the picture itself (a full-size file, a wiki's file page): the picture is the content.
  if (imageFile.test(url.pathname) || filePage.test(decodeSafely(url.pathname))) {
    return {
      kind: 'describe',
      reasons: [
        {
          source: 'link',
          detail: 'Links to a larger version of the image: the alt text describes the picture',
        },
      ],
    };
  }
  const page = parseUrl(context.pageUrl);
  const sameSite = !page || siteKey(page.hostname) === siteKey(url.hostname);
  const samePage = page && sameSite && url.pathname === page.pathname && url.search === page.search;
  if (samePage) {
    const fragment = readable(decodeSafely(url.hash.slice(1)));
    if (!fragment) return linkByExistingAlt(context);
    return functional(/^top$/i.test(fragment) ? 'Back to top' : fragment, 0.7);
  }
  const site = siteName(url.hostname, sameSite ? context.pageTitle : undefined);
  const segments = url.pathname.split('/').filter(Boolean).map(decodeSafely);
  const meaningful = segments.filter((segment) => !localeSegment.test(segment) && !homeSegment.test(segment));
  if (meaningful.length === 0) {
    if (!site) return linkByExistingAlt(context);
    return functional(sameSite ? `${site} home` : `${site} website`, sameSite ? 0.85 : 0.75);
  }
  const last = readable(segments.at(-1) ?? '');
  if (!last) return linkByExistingAlt(context);
  return sameSite || !site ? functional(last, 0.8) : functional(`${last} on ${site}`, 0.7);
}

/** No readable target: the page's own alt, if it is a name rather than a placeholder, is kept. */
function linkByExistingAlt(context: PageContext): RoleDecision | undefined {
  if (!isDescriptiveAlt(context.existingAlt, context.fileName)) return undefined;
  return {
    kind: 'functional',
    altText: context.existingAlt,
    confidence: 0.55,
    reasons: [
      {
        source: 'role',
        detail: 'The only content of a link whose address says nothing readable: the page’s own alt is kept',
      },
      { source: 'existingAlt', detail: context.existingAlt },
    ],
  };
}

/** An existing alt that already carries every word of the derived name (and maybe more) is the better name. */
function existingNameFor(context: PageContext, derived: string): string | undefined {
  if (!isDescriptiveAlt(context.existingAlt, context.fileName)) return undefined;
  const own = new Set(words(context.existingAlt));
  return words(derived).every((word) => own.has(word)) ? context.existingAlt : undefined;
}

/** The only content of a button: its purpose can come only from the page's own alt. */
function buttonOnly(context: PageContext): RoleDecision {
  if (!isDescriptiveAlt(context.existingAlt, context.fileName)) return unknownPurpose('button');
  return {
    kind: 'functional',
    altText: context.existingAlt,
    confidence: 0.6,
    reasons: [
      {
        source: 'role',
        detail: 'The only content of a button: its alt text is the button’s name, so it says what it does',
      },
      { source: 'existingAlt', detail: context.existingAlt },
    ],
  };
}

/**
 * A link or button the page does not name: the picture is all there is to go on, and a picture
 * rarely says where a link goes, so a person should check.
 */
function unknownPurpose(control: 'link' | 'button'): RoleDecision {
  return {
    kind: 'describe',
    maxConfidence: 0.4,
    reasons: [
      {
        source: 'role',
        detail: `The only content of a ${control} the page does not name: the alt text must say what it ${control === 'link' ? 'links to' : 'does'}`,
      },
    ],
  };
}

/** An existing alt that repeats the caption, link text or adjacent text word for word. */
function repeatedText(context: PageContext): RoleDecision | undefined {
  const alt = context.existingAlt;
  if (!isDescriptiveAlt(alt, context.fileName)) return undefined;
  const fields: Array<[keyof PageContext, string, number]> = [
    ['caption', 'caption', 0.8],
    ['linkText', 'link text', 0.8],
    ['surroundingText', 'text next to it', 0.7],
  ];
  for (const [key, label, confidence] of fields) {
    const text = context[key];
    if (!text || !repeats(alt, text)) continue;
    return {
      kind: 'decorative',
      confidence,
      reasons: [
        {
          source: key === 'linkText' ? 'link' : (key as 'caption' | 'surroundingText'),
          detail: `The existing alt “${alt}” repeats the ${label} word for word`,
        },
        {
          source: 'role',
          detail: 'Its information is already in the text beside it: alt="" avoids saying it twice',
        },
      ],
    };
  }
  return undefined;
}

/**
 * `alt` says nothing beyond `text`: the same words, or a run of them in the same order that is at
 * least half of the text (or five words long; shorter runs in a long paragraph are coincidence).
 */
export function repeats(alt: string, text: string): boolean {
  const a = words(alt);
  const t = words(text);
  if (a.length === 0 || t.length === 0) return false;
  if (a.join(' ') === t.join(' ')) return true;
  if (a.length < 2 || (a.length * 2 < t.length && a.length < 5)) return false;
  for (let start = 0; start + a.length <= t.length; start++) {
    if (a.every((word, i) => t[start + i] === word)) return true;
  }
  return false;
}

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
  if (pageTitle) {
    const squashed = key.replace(/-/g, '');
    const tokens = pageTitle.split(/[\s|–—:·•/]+/).filter(Boolean);
    for (let i = 0; i < tokens.length; i++) {
      for (const span of [1, 2, 3]) {
        const phrase = tokens.slice(i, i + span).join(' ');
        const bare = phrase.replace(/[^\p{L}\p{N}]/gu, '');
        if (bare.toLowerCase() === squashed) return phrase.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      }
    }
  }
  return key
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');
}

/** The registrable label of a host: "www.shop.example.co.uk" → "example". */
function siteKey(hostname: string): string {
  const labels = hostname.toLowerCase().replace(/\.$/, '').split('.').filter(Boolean);
  if (labels.length === 0) return '';
  if (labels.length === 1 || /^\d+$/.test(labels.at(-1) ?? '')) return labels.join('.');
  labels.pop();
  if (labels.length > 1 && secondLevel.has(labels.at(-1) ?? '')) labels.pop();
  return labels.at(-1) ?? '';
}

function parseUrl(address: string | undefined): URL | undefined {
  if (!address) return undefined;
  try {
    return new URL(address);
  } catch {
    return undefined;
  }
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
