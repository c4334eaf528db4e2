import { pageContextSchema } from '@altwise/contracts/page-context';
import {
  cameraName,
  imageExtension,
  isPlaceholder,
  kindOnly,
  looksLikeFileName,
  normaliseForComparison,
} from '../rules/alt-rules.ts';
import type { PageContext } from './types.ts';

/**
 * Reading the page around an image. Used by the offline engine to name what the pixels show,
 * and by providers to put the context in the prompt. Nothing here invents: it only extracts.
 */

const maxFieldLength = 600;

export function cleanContext(context: PageContext | undefined): PageContext {
  const cleaned: PageContext = {};
  if (!context) return cleaned;
  for (const [key, value] of Object.entries(context) as Array<[keyof PageContext, unknown]>) {
    if (key === 'siteLogo') {
      if (value === true) cleaned.siteLogo = true;
      continue;
    }
    if (key === 'imageRow') {
      const row = pageContextSchema.shape.imageRow.safeParse(value);
      if (row.success && row.data) cleaned.imageRow = row.data;
      continue;
    }
    if (typeof value !== 'string') continue;
    const text = value
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!text) continue;
    if (key === 'role') {
      if (text === 'link' || text === 'button' || text === 'figure') cleaned.role = text;
    } else cleaned[key as PageTextField] = text.slice(0, maxFieldLength);
  }
  return cleaned;
}

/** The page context's fields that hold text (not the role, the image row or the logo flag). */
export type PageTextField = Exclude<
  {
    [K in keyof PageContext]-?: NonNullable<PageContext[K]> extends string ? K : never;
  }[keyof PageContext],
  'role'
>;

/** The rulebook's file-name test (rules/alt-rules.ts, ADR 054), re-exported for the engine's callers. */
export { looksLikeFileName };

/**
 * An existing alt that a person wrote to describe the image: not a file name, a placeholder or a kind
 * word alone ("logo", "hero image"), by the same rules the audit judges alts with (ADR 054).
 */
export function isDescriptiveAlt(alt: string | undefined, fileName?: string): alt is string {
  if (!alt) return false;
  const t = alt.trim();
  if (t.length < 4) return false;
  const key = normaliseForComparison(t);
  if (isPlaceholder(t, key) || kindOnly(key)) return false;
  return !looksLikeFileName(t, fileName);
}

const nameWord = "\\p{Lu}[\\p{Ll}'’.]+(?:-\\p{Lu}?[\\p{Ll}'’.]+)*";
const particle = '(?:de|da|di|van|von|der|den|la|le|du|dos|bin|al|ter|mac)';
const namePattern = new RegExp(`^(${nameWord}(?:\\s+(?:${particle}\\s+){0,2}${nameWord}){1,3})`, 'u');

/** Words that make a capitalised phrase an organisation, place or event rather than a person. */
const notPersonWords =
  /\b(Palace|United|City|Club|FC|Football|Team|Inc|Ltd|LLC|Company|Corporation|University|College|School|Park|Street|Road|Avenue|Museum|Hotel|Party|Festival|Council|Government|Ministry|Church|Cathedral|Station|Airport|Bridge|River|Lake|Mountain|Island|Beach|Stadium|Arena|Hall|Centre|Center|Gallery|Library|Hospital|Bank|Group|Studio|Records|News|Times|Post|Day|Week|Month|Year|January|February|March|July|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|The|A|An|This|Our|Your|My|Photo|Image|Picture|Figure|Fig|One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Top|Best|Great|Greatest|How|Why|What|When|Where|Who|New|Guide|Tips|Review|Goals|History|Story|Life|World|Home|About|Contact|Welcome|Blog|Shop|Sale|Meet|Gallery|Recipe|Recipes|Menu|Services|Products|Events|Team)\b/u;

/** The person's name a text starts with ("Peter Taylor was…" → "Peter Taylor"), never an organisation or place. */
export function leadingPersonName(text: string): string | undefined {
  const match = namePattern.exec(text.trim());
  if (!match?.[1]) return undefined;
  const name = match[1].replace(/[.’']+$/, '');
  if (notPersonWords.test(name)) return undefined;
  return name;
}

/** A title or heading that is nothing but a name: "Peter Taylor", "Peter Taylor – Palace legends". */
function wholeName(text: string): string | undefined {
  const head = text.split(/\s[|–—:-]\s|[|:]/)[0]?.trim() ?? '';
  const name = leadingPersonName(head);
  return name && name.length === head.length ? name : undefined;
}

export interface NamedPerson {
  name: string;
  /** Which context fields support it. */
  sources: Array<keyof PageContext>;
}

/**
 * A person the page says is pictured: the caption or existing alt leading with a name (a caption
 * describes its figure). A title or heading that is a name only supports such a name; on its own it
 * never labels whoever is pictured, because pages are titled after many things.
 */
export function findNamedPerson(context: PageContext): NamedPerson | undefined {
  const candidates = new Map<string, Set<keyof PageContext>>();
  const add = (name: string | undefined, source: keyof PageContext) => {
    if (!name) return;
    const sources = candidates.get(name) ?? new Set();
    sources.add(source);
    candidates.set(name, sources);
  };
  add(context.caption && leadingPersonName(context.caption), 'caption');
  add(
    isDescriptiveAlt(context.existingAlt, context.fileName)
      ? leadingPersonName(context.existingAlt)
      : undefined,
    'existingAlt',
  );
  add(context.heading && wholeName(context.heading), 'heading');
  add(context.pageTitle && wholeName(context.pageTitle), 'pageTitle');
  // Surrounding text counts only in support of a name found elsewhere.
  let best: NamedPerson | undefined;
  for (const [name, sources] of candidates) {
    if (context.surroundingText?.includes(name)) sources.add('surroundingText');
    if (!sources.has('caption') && !sources.has('existingAlt')) continue;
    if (!best || sources.size > best.sources.length) best = { name, sources: [...sources] };
  }
  return best;
}

/** The first sentence of a caption or alt, without a trailing full stop. */
export function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/.exec(text);
  const sentence = (match?.[1] ?? text).trim();
  return sentence.replace(/[.]$/, '');
}

export function mentionsAny(text: string, words: string[]): boolean {
  const lower = text.toLowerCase();
  return words.some((word) => new RegExp(`\\b${escapeRegExp(word.toLowerCase())}s?\\b`, 'u').test(lower));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Short all-capital words that stay capitals when a line of capitals is put in normal case. */
const keptCapitals = new Set([
  'AI',
  'API',
  'CSS',
  'EU',
  'FAQ',
  'FAQS',
  'HTML',
  'ID',
  'OK',
  'PDF',
  'PIN',
  'RSS',
  'SMS',
  'TV',
  'UK',
  'USA',
  'VAT',
  'WCAG',
  'WWW',
]);

/**
 * Text read from an image, as a person would write it: lines joined, a run of capitals ("HOME",
 * "CALL US TODAY") in sentence case, words with digits ("W3C", "HTML5"), known abbreviations,
 * digits and punctuation kept exactly ("0123 456 7890", "$10,000").
 */
export function asWritten(text: string): string {
  const joined = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const letters = joined.replace(/[^\p{L}]/gu, '');
  const capitals = joined.replace(/[^\p{Lu}]/gu, '');
  // Mixed case is already as written; a single capital letter ("A", "I") says nothing.
  if (letters.length < 2 || capitals.length < letters.length) return joined;
  let first = true;
  return joined.replace(/[\p{L}\p{N}][\p{L}\p{N}'’&.-]*/gu, (word) => {
    const bare = word.replace(/[^\p{L}\p{N}]/gu, '');
    const isFirst = first;
    first = false;
    if (/\p{N}/u.test(bare) || keptCapitals.has(bare)) return word;
    const lower = word.toLowerCase();
    return isFirst ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
  });
}

/**
 * Text spelled as the page spells it: "Riverside news" read from a logo is "Riverside News" on a
 * page whose title, heading or text says so. Otherwise the text as given.
 */
export function asThePageSays(text: string, context: PageContext): string {
  const wanted = text.toLowerCase();
  if (wanted.length < 2) return text;
  for (const field of [context.pageTitle, context.heading, context.surroundingText, context.caption]) {
    const at = field?.toLowerCase().indexOf(wanted) ?? -1;
    if (!field || at < 0) continue;
    const before = field.charAt(at - 1);
    const after = field.charAt(at + wanted.length);
    if (/[\p{L}\p{N}]/u.test(before) || /[\p{L}\p{N}]/u.test(after)) continue;
    const spelled = field.slice(at, at + wanted.length);
    // The page's spelling, unless the page shouts too: a heading in capitals is no better.
    return /\p{Ll}/u.test(spelled) ? spelled : text;
  }
  return text;
}

/** Words of a file name that carry no meaning: sizes, versions, camera and export names. */
const fileNoise = new Set([
  'img',
  'image',
  'images',
  'dsc',
  'dscn',
  'dcim',
  'pxl',
  'photo',
  'pic',
  'picture',
  'screenshot',
  'screen',
  'shot',
  'untitled',
  'copy',
  'final',
  'edit',
  'edited',
  'new',
  'old',
  'small',
  'large',
  'medium',
  'thumb',
  'thumbnail',
  'min',
  'web',
  'hd',
  'hq',
  'retina',
  'scaled',
  'cropped',
  'resized',
  'optimized',
  'optimised',
  'wp',
  'whatsapp',
  'file',
  'jpeg',
  'jpg',
  'png',
  'gif',
  'webp',
  'svg',
  'x',
]);

/**
 * The words a file name says about its picture ("red-leather-handbag.jpg" → "red leather handbag"),
 * or undefined when it says nothing: camera numbers ("IMG_2041", "DSC0001"), hashes, sizes
 * ("800x600", "@2x"), or a single short word.
 */
export function fileNameWords(fileName: string | undefined): string | undefined {
  if (!fileName) return undefined;
  const stem = fileName
    .replace(/[?#].*$/, '')
    .replace(/^.*[\\/]/, '')
    .replace(imageExtension, '');
  let decoded = stem;
  try {
    decoded = decodeURIComponent(stem);
  } catch {
    // A malformed escape is read as it is.
  }
  if (cameraName.test(decoded)) return undefined;
  const words = decoded
    .replace(/@\d+x\b/gi, ' ')
    .replace(/([\p{Ll}])(\p{Lu})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .map((word) => word.toLowerCase())
    .filter(
      (word) =>
        word.length > 1 &&
        !fileNoise.has(word) &&
        !/^\d+$/.test(word) &&
        !/^\d+x\d+$/.test(word) &&
        !/^v\d+$/.test(word) &&
        !(/\d/.test(word) && /^[0-9a-f]{6,}$/.test(word)) &&
        !/^[0-9a-z]{16,}$/.test(word) &&
        /\p{L}{2}/u.test(word),
    );
  if (words.length === 0 || words.join('').length < 3) return undefined;
  return words.join(' ');
}

/** The last path segment of an image address ("…/img/red-handbag.jpg?w=800" → "red-handbag.jpg"). */
export function fileNameFromUrl(src: string): string | undefined {
  try {
    const url = new URL(src);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    const last = url.pathname.split('/').filter(Boolean).at(-1);
    return last ? decodeURIComponent(last).slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}
