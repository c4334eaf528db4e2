import {
  filePage,
  homeSegment,
  imageFilePath,
  localeSegment,
  vagueLinkTexts,
  vaguePurposeTexts,
} from '../rules/alt-rules.ts';
import { readable, siteKey, siteName, words } from '../rules/site-words.ts';
import { pictogramRow, rowMeaning } from './image-row.ts';
import { brandForHost } from './offline/brands.ts';
import { pictogramConcept } from './offline/icons.ts';
import {
  asThePageSays,
  asWritten,
  fileNameWords,
  isDescriptiveAlt,
  type PageTextField,
} from './page-context.ts';
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

/** What the engine read in the image itself, when it looked before deciding. */
export interface ImageEvidence {
  /** Legible text in the image (OCR), as read; a control's own text is its best name. */
  imageText?: string;
  /** A brand or pictogram the image matched strongly (ADR 063): its name, or what a control made of it does. */
  mark?: { set: 'brand' | 'pictogram'; name: string; score: number };
  /** The image's own size in pixels: a row of pictograms is a row of small pictures. */
  size?: { width: number; height: number };
}

/** The longest side of a pictogram in a row (a rating's star, a progress dot). */
export const ROW_PICTOGRAM_MAX_PX = 64;

export function decideRole(context: PageContext, evidence: ImageEvidence = {}): RoleDecision {
  const picture = partOfPicture(context);
  if (picture) return picture;
  const role = context.role;
  if ((role === 'link' || role === 'button') && context.linkText) return besideControlText(context, role);
  if (role === 'link' || role === 'button') {
    const named = byImageText(context, role, evidence.imageText);
    if (named) return named;
  }
  if (role === 'link') return linkOnly(context, evidence.mark) ?? unknownPurpose('link');
  // A button that navigates (its onclick moves to an address) is named like a link.
  if (role === 'button' && context.linkTarget)
    return linkOnly(context, evidence.mark) ?? buttonOnly(context, evidence.mark);
  if (role === 'button') return buttonOnly(context, evidence.mark);
  const row = inPictogramRow(context, evidence.size);
  if (row) return row;
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

/**
 * Part of a picture that has a name of its own (an element with role="img" or a graphics-* role,
 * named by aria-label, aria-labelledby or title): WAI-ARIA makes its children presentational, so a
 * screen reader announces that name and never this image's alt. alt="" says so honestly.
 */
function partOfPicture(context: PageContext): RoleDecision | undefined {
  const name = context.partOfPicture;
  if (!name) return undefined;
  return {
    kind: 'decorative',
    confidence: 0.8,
    reasons: [
      {
        source: 'role',
        detail: `Part of a picture named “${name}” (role="img"): a screen reader announces that name, not this image, so alt="" is right`,
      },
    ],
  };
}

/**
 * One of a row of small pictograms that say one thing together (W3C "Groups of images": a rating's
 * stars): the first image carries the row's meaning ("3.5 out of 5 stars", counted from the file
 * names' full, half and empty states), the others are decorative. Only outside links and buttons,
 * only for a picture at most ROW_PICTOGRAM_MAX_PX on its longest side, and only when every file name
 * names the same pictogram (engines/image-row.ts): three product photos side by side are no group.
 */
function inPictogramRow(context: PageContext, size: ImageEvidence['size']): RoleDecision | undefined {
  if (!context.imageRow || !size || Math.max(size.width, size.height) > ROW_PICTOGRAM_MAX_PX)
    return undefined;
  const row = pictogramRow(context.imageRow);
  if (!row) return undefined;
  const { position } = context.imageRow;
  const names = `a row of ${row.size} “${row.kind}” pictograms (${context.imageRow.files.join(', ')})`;
  if (position > 1)
    return {
      kind: 'decorative',
      confidence: 0.7,
      reasons: [
        {
          source: 'role',
          detail: `Image ${position} of ${names}: the first image says what the row means, so alt="" avoids saying it piece by piece`,
        },
      ],
    };
  const meaning = rowMeaning(row);
  if (!meaning) return undefined;
  return {
    kind: 'functional',
    altText: meaning.text,
    // A count from file names is evidence; a repeated picture's count may hide empty ones drawn alike.
    confidence: meaning.counted ? 0.65 : 0.4,
    reasons: [
      {
        source: 'role',
        detail: `The first of ${names}: its alt text says what the whole row means${meaning.counted ? ', counted from the file names' : ''}`,
      },
      { source: 'fileName', detail: context.imageRow.files.join(', ') },
    ],
  };
}

/** Inside a link or button that has its own text: that text is the name; the image adds nothing. */
function besideControlText(context: PageContext, role: 'link' | 'button'): RoleDecision {
  const text = context.linkText ?? '';
  const control = role === 'link' ? 'link' : 'button';
  if (vagueLinkTexts.has(words(text).join(' ')) || !namesSomething(text)) {
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
  const qualifier = linkQualifier(context);
  if (qualifier) {
    return {
      kind: 'functional',
      altText: qualifier.altText,
      confidence: 0.6,
      reasons: [
        {
          source: 'role',
          detail: `An icon in a ${control} whose own text (“${text}”) does not say what it adds: ${qualifier.detail}`,
        },
        { source: 'fileName', detail: context.fileName ?? context.linkTarget ?? '' },
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

/** File formats a link's icon announces, by the words of its file name or the link's extension. */
const fileFormats: Array<[RegExp, string, RegExp]> = [
  [/^(?:pdf|acrobat)$/, 'PDF', /\bpdf\b/i],
  [/^(?:word|doc|docx|msword)$/, 'Word document', /\b(?:word|docx?)\b/i],
  [/^(?:excel|xls|xlsx)$/, 'Excel spreadsheet', /\b(?:excel|xlsx?|spreadsheet)\b/i],
  [/^(?:powerpoint|ppt|pptx)$/, 'PowerPoint presentation', /\b(?:powerpoint|pptx?|slides)\b/i],
  [/^(?:html5?|htm)$/, 'HTML', /\bhtml5?\b|\bweb page\b/i],
  [/^(?:csv)$/, 'CSV', /\bcsv\b/i],
  [/^(?:zip)$/, 'ZIP archive', /\bzip\b/i],
  [/^(?:epub)$/, 'EPUB', /\bepub\b/i],
  [/^(?:rtf)$/, 'Rich Text Format', /\brtf\b|\brich text\b/i],
  [/^(?:odt)$/, 'OpenDocument text', /\bodt\b|\bopendocument\b/i],
  [/^(?:mp3)$/, 'MP3 audio', /\bmp3\b|\baudio\b/i],
  [/^(?:mp4)$/, 'MP4 video', /\bmp4\b|\bvideo\b/i],
];
/** Icons that say a link opens a new window or leaves the site. */
const newWindowName =
  /(?:^|\s)(?:new\s?(?:window|tab|win)|newwin|external(?:\s?link)?|open\s?in\s?new|popup|pop\s?up)(?:\s|$)/;

/**
 * An icon inside a link's text that adds what the text does not say (W3C functional images,
 * example 3; informative images, example 5): that the link opens a new window, or the format of the
 * file it leads to. Its alt is that fact ("New window", "PDF"); the text already names the rest.
 */
function linkQualifier(context: PageContext): { altText: string; detail: string } | undefined {
  // Every word of the name: the file-name reader drops "new", which is the point here.
  const said = context.fileName
    ?.replace(/[?#].*$/, '')
    .replace(/^.*[\\/]/, '')
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/([\p{Ll}])(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/(?<=\p{L}{2}|\d)(logo|icon|document|doc|file|img)(?=\s|$)/gu, ' $1')
    .trim();
  const text = context.linkText ?? '';
  if (said && newWindowName.test(said) && !/\bnew (?:window|tab)\b/i.test(text))
    return { altText: 'New window', detail: 'it opens a new window' };
  // By the icon's own name only: a thumbnail of a report inside a link to its PDF is not a format icon.
  for (const [word, name, mentioned] of fileFormats) {
    if (said?.split(/\s+/).some((token) => word.test(token)) && !mentioned.test(text))
      return { altText: name, detail: `the file is in ${name} format` };
  }
  return undefined;
}

/** Text with at least one word that is not a size, a count or a file format: "(254KB)" names nothing. */
function namesSomething(text: string): boolean {
  return words(text).some(
    (word) =>
      /\p{L}{2}/u.test(word) && !/^\d+(?:[.,]\d+)?(?:k|m|g)?i?b$|^\d*(?:kb|mb|gb|bytes?|px)$/i.test(word),
  );
}

/** Image text that says only "more", "go" or "click here": the link's context must say what. */
function isVagueName(text: string): boolean {
  const said = words(text).join(' ');
  return !said || vaguePurposeTexts.has(said);
}

/**
 * The image's own text names the control ("HOME" → "Home", "Search"): the first evidence, before
 * anything the page or the address says. A linked logo whose text is the site's name and that
 * leads to the site's home page is "<name> home". Vague text ("more", "»") is left to the context.
 */
function byImageText(
  context: PageContext,
  role: 'link' | 'button',
  imageText: string | undefined,
): RoleDecision | undefined {
  if (!imageText) return undefined;
  const text = asThePageSays(asWritten(imageText), context);
  const count = words(text).length;
  if (count === 0 || count > 8 || text.length > 80 || isVagueName(text)) return undefined;
  const home = role === 'link' && isHomeOf(context);
  // A name (a logo's, a few words without digits) leading home is "<name> home"; "Call 0123…" is not.
  const isName = count <= 4 && !/\d{2}/.test(text);
  const name = home && isName && !/\bhome\b/i.test(text) ? `${text} home` : text;
  return {
    kind: 'functional',
    altText: name,
    confidence: 0.8,
    reasons: [
      {
        source: 'role',
        detail: `The only content of a ${role}: the text in the image is the ${role}’s name`,
      },
      { source: 'ocr', detail: imageText },
      ...(home && context.linkTarget ? [{ source: 'link' as const, detail: context.linkTarget }] : []),
    ],
  };
}

/** The link leads to the home page of the site it is on. */
function isHomeOf(context: PageContext): boolean {
  const url = parseUrl(context.linkTarget ? absolute(context.linkTarget, context.pageUrl) : undefined);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  const page = parseUrl(context.pageUrl);
  if (page && siteKey(page.hostname) !== siteKey(url.hostname)) return false;
  return url.pathname
    .split('/')
    .filter(Boolean)
    .every((segment) => localeSegment.test(segment) || homeSegment.test(segment));
}

function absolute(target: string, base: string | undefined): string | undefined {
  try {
    return new URL(target, base).href;
  } catch {
    return undefined;
  }
}

/**
 * `javascript:` links that say what they do: printing, going back, or moving to an address
 * (`location.href = '/news/'`, `window.open('…')`), which is then the target.
 */
function scriptTarget(source: string): { action: string } | { address: string } | undefined {
  const code = decodeSafely(source.replace(/^javascript:/i, ''));
  if (/\b(?:window\.)?print\s*\(/.test(code)) return { action: 'Print this page' };
  if (/\bhistory\.(?:back\s*\(|go\s*\(\s*-1)/.test(code)) return { action: 'Go back' };
  if (/\bwindow\.close\s*\(/.test(code)) return { action: 'Close window' };
  const moved =
    /\b(?:(?:window|document|self|top)\.)?location(?:\.href)?\s*=\s*["']([^"']+)["']/.exec(code) ??
    /\blocation\.(?:assign|replace)\s*\(\s*["']([^"']+)["']/.exec(code) ??
    /\bwindow\.open\s*\(\s*["']([^"']+)["']/.exec(code);
  return moved?.[1] ? { address: moved[1] } : undefined;
}

/** The only content of a link: name where it goes. Undefined when the target says nothing readable. */
function linkOnly(context: PageContext, mark?: ImageEvidence['mark']): RoleDecision | undefined {
  const fallback = () => linkByMark(context, mark) ?? linkByFileName(context) ?? linkByExistingAlt(context);
  const script =
    context.linkTarget && /^\s*javascript:/i.test(context.linkTarget)
      ? scriptTarget(context.linkTarget.trim())
      : undefined;
  if (script && 'action' in script) {
    return {
      kind: 'functional',
      altText: script.action,
      confidence: 0.75,
      reasons: [
        {
          source: 'role',
          detail: 'The only content of a link: its alt text is the link’s name, so it says what it does',
        },
        { source: 'link', detail: context.linkTarget ?? '' },
      ],
    };
  }
  const target = script && 'address' in script ? script.address : context.linkTarget;
  if (!target) return fallback();
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
    return fallback();
  }
  if (url.protocol === 'mailto:') {
    const address = decodeURIComponent(url.pathname);
    return address ? functional(`Email ${address}`, 0.8) : linkByExistingAlt(context);
  }
  if (url.protocol === 'tel:') {
    const number = decodeURIComponent(url.pathname);
    return number ? functional(`Call ${number}`, 0.8) : linkByExistingAlt(context);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fallback();
  // A link to the picture itself (a full-size file, a wiki's file page): the picture is the content.
  if (imageFilePath.test(url.pathname) || filePage.test(decodeSafely(url.pathname))) {
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
    if (!fragment) return fallback();
    return functional(/^top$/i.test(fragment) ? 'Back to top' : fragment, 0.7);
  }
  // A brand's own spelling ("LinkedIn", "YouTube") beats the host's.
  const brand = sameSite ? undefined : brandForHost(url.hostname);
  // The site's own name for its home page: og:site_name first, then the title's or host's spelling.
  const site =
    brand ??
    (sameSite ? context.siteName : undefined) ??
    siteName(url.hostname, sameSite ? context.pageTitle : undefined);
  const segments = url.pathname.split('/').filter(Boolean).map(decodeSafely);
  const meaningful = segments.filter((segment) => !localeSegment.test(segment) && !homeSegment.test(segment));
  if (meaningful.length === 0) {
    if (!site) return linkByExistingAlt(context);
    if (brand) return functional(brand, 0.8);
    return functional(sameSite ? `${site} home` : `${site} website`, sameSite ? 0.85 : 0.75);
  }
  const teaser = teaserHeading(context, segments);
  if (teaser) {
    const decision = functional(teaser, 0.65);
    return { ...decision, reasons: [...decision.reasons, { source: 'heading', detail: teaser }] };
  }
  const last = readable(segments.at(-1) ?? '');
  if (!last) return fallback();
  return sameSite || !site ? functional(last, 0.8) : functional(`${last} on ${site}`, 0.7);
}

/** Pictures that only say "go on": a "more" button, an arrow, a chevron. */
const moreImage = /(?:^|\s)(?:more|read ?more|arrow|chevron|caret|go|next|details)(?:\s|$)/;

/**
 * The story or product a "more" arrow or teaser picture opens: the heading it belongs to, when the
 * picture says only "more" (by its file name) or the address repeats the heading's words.
 */
function teaserHeading(context: PageContext, segments: string[]): string | undefined {
  const heading = context.heading?.trim();
  if (!heading || heading.length > 100) return undefined;
  const headingWords = words(heading).filter((word) => word.length > 2);
  if (headingWords.length === 0) return undefined;
  const pathWords = new Set(segments.flatMap((segment) => words(segment.replace(/[-_+.]/g, ' '))));
  const shared = headingWords.filter((word) => pathWords.has(word)).length;
  const saysMore = moreImage.test(fileNameWords(context.fileName) ?? '');
  if (!saysMore && shared * 2 < headingWords.length) return undefined;
  return saysMore ? `More about ${heading.replace(/[.:]$/, '')}` : heading.replace(/[.:]$/, '');
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

/**
 * Pictograms whose file name says what the control does ("searchbutton.png", "chevron-left.svg",
 * "icon-print.gif"): the action, as a person would name the button. Matched at the start of a word,
 * so "research.png" is not a search.
 */
const controlActions: Array<[RegExp, string]> = [
  [/(?:^|\s)(?:search|magnif)/, 'Search'],
  [/(?:^|\s)print/, 'Print'],
  [/(?:^|\s)(?:close|dismiss)/, 'Close'],
  [/(?:^|\s)(?:menu|hamburger)/, 'Menu'],
  [/(?:^|\s)(?:cart|basket)/, 'Shopping cart'],
  [/(?:^|\s)download/, 'Download'],
  [/(?:^|\s)play(?:\s|$|button)/, 'Play'],
  [/(?:^|\s)pause/, 'Pause'],
  [
    /(?:^|\s)(?:prev|previous|back)(?:\s|$)|(?:arrow|chevron|caret|angle)\s?left|left\s(?:arrow|chevron|caret)/,
    'Previous',
  ],
  [
    /(?:^|\s)(?:next|forward)(?:\s|$)|(?:arrow|chevron|caret|angle)\s?right|right\s(?:arrow|chevron|caret)/,
    'Next',
  ],
  [/(?:^|\s)(?:share)/, 'Share'],
  [/(?:^|\s)(?:login|signin)|sign\sin|log\sin/, 'Sign in'],
  [/(?:^|\s)(?:e?mail|envelope)/, 'Email'],
  [/(?:^|\s)(?:rss|feed)(?:\s|$)/, 'RSS feed'],
];

/** The action a control's pictogram file name says, if any. */
export function controlAction(fileName: string | undefined): string | undefined {
  const said = fileNameWords(fileName);
  if (!said) return undefined;
  return controlActions.find(([pattern]) => pattern.test(said))?.[1];
}

/**
 * A link or button with nothing else to go on whose picture matched a known mark: a pictogram's
 * purpose ("Open menu", "Search", "Home"), not its picture; a brand's name.
 */
function linkByMark(context: PageContext, mark: ImageEvidence['mark']): RoleDecision | undefined {
  if (!mark) return undefined;
  const name = mark.set === 'pictogram' ? pictogramConcept(mark.name)?.purpose : mark.name;
  if (!name) return undefined;
  const control = context.role === 'button' ? 'button' : 'link';
  return {
    kind: 'functional',
    altText: name,
    confidence: mark.set === 'brand' ? 0.65 : 0.6,
    reasons: [
      {
        source: 'role',
        detail: `The only content of a ${control}: its picture is the ${mark.set === 'brand' ? `${mark.name} mark` : `“${pictogramConcept(mark.name)?.name ?? mark.name}” pictogram`}, so it names what the ${control} does`,
      },
      {
        source: 'pixels',
        detail: `matched ${mark.set === 'brand' ? 'simple-icons' : 'Lucide/Material Symbols'} “${mark.name}”, overlap ${mark.score.toFixed(2)}`,
      },
    ],
  };
}

/** A link or button with nothing else to go on: its pictogram's file name, when it names an action. */
function linkByFileName(context: PageContext): RoleDecision | undefined {
  const action = controlAction(context.fileName);
  if (!action) return undefined;
  return {
    kind: 'functional',
    altText: action,
    confidence: 0.55,
    reasons: [
      {
        source: 'role',
        detail: `The only content of a ${context.role === 'button' ? 'button' : 'link'}: its file name says what it does`,
      },
      { source: 'fileName', detail: context.fileName ?? '' },
    ],
  };
}

/** The only content of a button: its purpose can come only from the page's own alt or its pictogram's name. */
function buttonOnly(context: PageContext, mark?: ImageEvidence['mark']): RoleDecision {
  if (!isDescriptiveAlt(context.existingAlt, context.fileName))
    return linkByMark(context, mark) ?? linkByFileName(context) ?? unknownPurpose('button');
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
  const fields: Array<[PageTextField, string, number]> = [
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
