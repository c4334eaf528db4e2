import {
  type AuditImageElement,
  type AuditImageRole,
  type AuditNameSource,
  type AuditProblem,
  type AuditProblemCode,
  type AuditVerdict,
  auditProblemCodes,
  auditProblemRules,
} from '@altwise/contracts/audit-problems';
import {
  announcingOpener,
  appearancePhrases,
  appearanceWords,
  contentWords,
  decorativeOnly,
  decorativeWords,
  filePage,
  homeSegment,
  imageExtension,
  imageFilePath,
  isPlaceholder,
  keywordStuffing,
  kindOnly,
  localeSegment,
  looksLikeFileName,
  maxAltLength,
  normaliseForComparison,
  pictureOpener,
} from './alt-rules.ts';
import { altStates, statedFacts } from './image-text.ts';
import { readable, siteName, words } from './site-words.ts';

/** The shared rulebook's limit and comparison, re-exported for the audit's callers (ADR 054). */
export { maxAltLength, normaliseForComparison };

/**
 * The audit's checks (ADR 025): what is wrong with the alt text a page already has, as
 * problem codes with the evidence in one sentence each. Pure and deterministic: no clock, no
 * randomness, no network, no model; the same page always gives the same verdicts in the same order.
 * Every rule below is written so that a person can check it by reading the page's HTML.
 */

export interface AuditImageFacts {
  pageUrl: string;
  src: string;
  /** The alt attribute: null when absent, '' when empty. */
  alt: string | null;
  /** The accessible name when it comes from aria-labelledby or aria-label. */
  ariaLabel?: string;
  element: AuditImageElement;
  /** The accessible name as browsers compute it (null: none); absent when it was not computed. */
  name?: string | null;
  nameSource?: AuditNameSource;
  role: AuditImageRole;
  /** Where the enclosing link goes (absolute or relative to pageUrl). */
  linkTarget?: string;
  /** The link's or button's own text without the image; absent or blank when the image is its only content. */
  linkText?: string;
  caption?: string;
  adjacentText?: string;
  heading?: string;
  /** From the width/height attributes when given. */
  width?: number;
  height?: number;
  /**
   * What the pixels showed, when something looked at them (the audit's pixel check, ADR 037): true
   * when they show content (text), false when they show nothing (one colour); absent = unknown.
   */
  informative?: boolean;
  /** The text read in the image when that is why it is informative: the evidence a message quotes. */
  imageText?: string;
  /** The OCR's mean confidence (0..100) in imageText; `text-mismatch` needs TEXT_MISMATCH_CONFIDENCE. */
  imageTextConfidence?: number;
  /** The image's title attribute (ADR 060: a name of last resort, and a fault beside alt=""). */
  title?: string;
  /** The class and id attributes of the image and of its link or button, for naming a logo ("site-logo"). */
  classNames?: string;
  /** The image sits in the page's banner: a `<header>` not inside an article or section, or role=banner. */
  inHeader?: boolean;
  /** The image is the first content of a list item that has text after it: where list bullets go. */
  listMarker?: boolean;
  /** The text of a text link to the same address beside the image's link (the link's block holds both). */
  besideTextLink?: string;
  /** The row of images (rating stars) it stands in: its place and every image's file name. */
  imageRow?: { position: number; files: string[] };
  /** It looks like the site's own logo (in the banner, "logo" in its file name, class or id), and the site's name (og:site_name) when the page gives one. */
  siteLogo?: boolean;
  siteName?: string;
  /** The language of the image's place: its own or nearest ancestor's `lang`, else `<html lang>` (ADR 071). */
  language?: string;
}

/** The OCR confidence (0..100) below which text read in an image never fails an alt (`text-mismatch`). */
export const TEXT_MISMATCH_CONFIDENCE = 85;
/** A logo's or image link's alt longer than this (or of more than one sentence) may describe the picture. */
export const LONG_CONTROL_ALT = 100;
/** An image at most this many pixels on both sides (by its attributes) is the size of a bullet or an arrow. */
export const ORNAMENT_SIZE = 32;

export interface ImageVerdict {
  verdict: AuditVerdict;
  problems: AuditProblem[];
}

/**
 * Checks every image of one page; same order as given. Page-level so that `repeated` can compare
 * images. Linear in the page: images are grouped by their text once, and each image's repeats are
 * answered from its group's summary (SameNameGroup), never by comparing it with every other image.
 */
export function checkPageImages(images: AuditImageFacts[]): ImageVerdict[] {
  const prepared = images.map(prepareImage);
  const byName = new Map<string, PreparedImage[]>();
  for (const image of prepared) {
    if (!image.key || image.decorative) continue;
    const group = byName.get(image.key);
    if (group) group.push(image);
    else byName.set(image.key, [image]);
  }
  const groups = new Map<string, SameNameGroup>();
  for (const [key, group] of byName) groups.set(key, new SameNameGroup(group));
  return prepared.map((image) => {
    const problems = problemsOf(image, image.key ? groups.get(image.key) : undefined);
    return { verdict: verdictOf(image, problems), problems };
  });
}

/**
 * What looking at an image's pixels could change (ADR 037, 060): `empty-alt` for an `alt=""` image
 * that is neither a control's only content nor decorative by its markup (text in it makes it
 * informative; one colour confirms it is decorative), `text-alt` for an image with a text name that
 * its markup does not call decorative (one colour makes it decorative-with-alt; a phone number,
 * price, date or heading its name does not say is a text-mismatch), undefined when nothing can change.
 */
export function pixelCheckNeed(facts: AuditImageFacts): 'empty-alt' | 'text-alt' | undefined {
  if (facts.element !== 'img' || !/^https?:/i.test(facts.src)) return undefined;
  const {
    informative: _informative,
    imageText: _imageText,
    imageTextConfidence: _confidence,
    ...markup
  } = facts;
  const image = prepareImage(markup);
  if (image.control || image.decorative || image.name === null) return undefined;
  return image.name === '' ? 'empty-alt' : 'text-alt';
}

/** Share of non-decorative images that pass (0..1); null when every image is decorative or there are none. */
export function auditScore(verdicts: AuditVerdict[]): number | null {
  const counted = verdicts.filter((verdict) => verdict !== 'decorative');
  if (counted.length === 0) return null;
  return counted.filter((verdict) => verdict === 'pass').length / counted.length;
}

interface PreparedImage {
  facts: AuditImageFacts;
  /**
   * The image's text alternative as assistive technology computes it (accname 1.2): a non-blank
   * aria-label / aria-labelledby text wins over the alt attribute. null when there is none at all;
   * '' for alt="" (or an alt of only whitespace, which screen readers treat the same).
   */
  name: string | null;
  nameKind: 'alt text' | 'ARIA label' | 'SVG title' | 'title attribute';
  /** normaliseForComparison(name). */
  key: string;
  fileName: string;
  /** Set when the image is the only content of a link or button: its name is the control's name. */
  control?: 'link' | 'button';
  /** Why the image is decorative (spacer, tracking pixel, blank), or undefined when it is not. */
  decorative?: string;
  /** The link's target resolved against the page, when the image is the only content of a link. */
  target?: string;
}

function prepareImage(facts: AuditImageFacts): PreparedImage {
  const label = facts.ariaLabel?.trim();
  // An svg, a role=img element, a CSS background or an object has no alt attribute: without ARIA,
  // its name is its <title> or title attribute.
  const altless = !altElements.has(facts.element);
  const title = facts.title?.trim();
  // Facts read before names were computed (no nameSource) fall back to the title attribute.
  const ownName = altless
    ? (facts.nameSource === 'svg-title' || facts.nameSource === 'title'
        ? facts.name?.trim()
        : facts.nameSource === undefined
          ? title
          : undefined) || undefined
    : undefined;
  // accname 1.2: aria-labelledby / aria-label, then alt, then title (only when there is no alt at all).
  const titleOnly = !label && !ownName && !altless && facts.alt === null && title ? title : undefined;
  const name = label
    ? label
    : (ownName ?? titleOnly ?? (altless || facts.alt === null ? null : facts.alt.trim()));
  const nameKind: PreparedImage['nameKind'] = label
    ? 'ARIA label'
    : ownName
      ? facts.nameSource === 'svg-title'
        ? 'SVG title'
        : 'title attribute'
      : titleOnly
        ? 'title attribute'
        : 'alt text';
  const key = name ? normaliseForComparison(name) : '';
  // An element without a file (an svg, an area, a role=img) has a src that only names it on the page.
  const fileName =
    facts.element === 'role-img' || facts.src.startsWith(`${facts.pageUrl}#`) ? '' : fileNameOf(facts.src);
  // An <input type=image> is a submit button whose only content is its image.
  const control =
    facts.element === 'input-image'
      ? 'button'
      : (facts.role === 'link' || facts.role === 'button') && !facts.linkText?.trim()
        ? facts.role
        : undefined;
  return {
    facts,
    name,
    nameKind,
    key,
    fileName,
    ...(control ? { control } : {}),
    ...(control === 'link' && facts.linkTarget ? { target: resolveTarget(facts) } : {}),
    ...(control ? {} : { decorative: decorativeEvidence(facts, fileName, key) }),
  };
}

/** `sameName`: the page's non-decorative images with the same normalised text (the image among them). */
function problemsOf(image: PreparedImage, sameName: SameNameGroup | undefined): AuditProblem[] {
  const found = new Map<AuditProblemCode, string>();
  const { facts, name } = image;
  const what = `The ${image.nameKind} ${quote(name ?? '')}`;

  if (name === null && facts.element === 'css-background' && !image.control) {
    // A CSS picture cannot have an alt: whether it needs a name is a person's call, so a warning.
    found.set(
      'css-image-to-check',
      `The CSS background image ${imageLabel(image)} has no text alternative: check whether it is decorative, and if visitors need what it shows, give its element role="img" and an aria-label.`,
    );
  } else if (name === null) {
    found.set('missing', missingMessage(image));
  } else if (image.nameKind === 'title attribute') {
    found.set(
      'title-only',
      `The image is named only by its title ${quote(name)}, which not every screen reader announces and touch and keyboard users never see as a tooltip.`,
    );
  }
  if (name === '' && facts.alt !== null && facts.alt !== '' && !facts.ariaLabel?.trim()) {
    found.set(
      'whitespace-alt',
      `The alt attribute holds only whitespace, which some screen readers announce as a blank instead of skipping the image.`,
    );
  }
  if (name === '') {
    const title = facts.title?.trim();
    if (title) {
      found.set(
        'empty-alt-with-title',
        `The image has alt="" but the title ${quote(title)}, so it is hidden from screen readers while its tooltip says something.`,
      );
    }
    const chart = image.decorative ? undefined : chartEvidence(image);
    if (image.control) {
      found.set(
        'empty-but-informative',
        `The image has alt="" but it is the only content of ${controlPhrase(image)}, so the ${image.control} has no name.`,
      );
    } else if (facts.informative === true) {
      found.set(
        'empty-but-informative',
        facts.imageText?.trim()
          ? `The empty alt="" hides the text ${quote(facts.imageText)} that the image shows.`
          : `The image has alt="" but its pixels show content, so screen readers skip information.`,
      );
    } else if (chart) {
      found.set(
        'empty-but-informative',
        `The image has alt="" but ${chart} says it is a chart, whose information screen readers then skip.`,
      );
    }
  } else if (name !== null && image.decorative) {
    // A decorative image needs alt="" and nothing else: the wording of its text does not matter.
    found.set(
      'decorative-with-alt',
      `The image looks decorative (${image.decorative}) but has the ${image.nameKind} ${quote(name)}, which screen readers read out.`,
    );
  } else if (name !== null) {
    const wording = wordingProblem(image);
    if (wording) found.set(wording.code, wording.message);
    const repeatedSource = redundantWith(image);
    if (repeatedSource) {
      found.set(
        'redundant',
        `${what} repeats ${repeatedSource} word for word, so screen readers read it twice.`,
      );
    }
    const others = image.key ? sameName?.repeatsOf(image) : undefined;
    if (others) {
      const first = others.first;
      const more =
        others.count > 1 ? ` and ${others.count - 1} other image${others.count > 2 ? 's' : ''}` : '';
      found.set(
        'repeated',
        `${what} is also used for ${imageLabel(first)}${more} on this page, so the images cannot be told apart.`,
      );
    }
    const contradiction = labelContradiction(image);
    if (contradiction) found.set('label-contradicts-alt', contradiction);
    const mismatch = textMismatch(image);
    if (mismatch) found.set('text-mismatch', mismatch);
    const appearance = appearanceProblem(image);
    if (appearance) found.set('describes-appearance', appearance);
    const length = Array.from(name).length;
    if (length > maxAltLength && !appearance) {
      found.set(
        'too-long',
        `The ${image.nameKind} is ${length} characters long (more than ${maxAltLength}): ${quote(name, 60)}.`,
      );
    }
    const opener = wording ? null : announcingOpener.exec(name);
    if (opener) {
      found.set(
        'announces-medium',
        `${what} starts with ${quote(opener[0].trim())}, which screen readers already announce.`,
      );
    }
    const stuffing = wording ? undefined : keywordStuffing(name);
    if (stuffing) {
      found.set(
        'keyword-stuffing',
        `${what} holds ${stuffing}, which reads as search keywords rather than a description.`,
      );
    }
  }

  if (image.control === 'link' && facts.besideTextLink?.trim()) {
    found.set(
      'redundant-link',
      `The image link to ${quote(facts.linkTarget ?? '', 80)} sits beside the text link ${quote(facts.besideTextLink, 60)} to the same address, so screen readers announce two links; put both in one link with alt="" on the image.`,
    );
  }

  const purpose = image.control ? purposeProblem(image) : undefined;
  if (purpose) found.set('link-without-purpose', purpose);

  return auditProblemCodes
    .filter((code) => found.has(code))
    .map((code) => ({ code, ...auditProblemRules[code], message: found.get(code) as string }));
}

/** Elements whose text alternative is an alt attribute. */
const altElements = new Set<AuditImageElement>(['img', 'input-image', 'area']);

/** Why an image without any name fails, naming the kind of element. */
function missingMessage(image: PreparedImage): string {
  const label = imageLabel(image);
  switch (image.facts.element) {
    case 'role-img':
      return `The role="img" element ${label} has no aria-label or aria-labelledby, so screen readers announce nothing.`;
    case 'svg':
      return `The <svg> image ${label} has no <title>, aria-label or aria-labelledby, so screen readers announce nothing.`;
    case 'css-background':
      return `The CSS background image ${label} is the only content of ${controlPhrase(image)} and has no aria-label or title, so screen readers announce nothing for it.`;
    case 'object':
      return `The <object> image ${label} has no aria-label, aria-labelledby or title, so screen readers announce nothing.`;
    case 'area':
      return `The image-map area ${label} has no alt attribute and no aria-label, so screen readers announce its link address or nothing.`;
    default:
      return `The image ${label} has no alt attribute and no aria-label, so screen readers announce its file name or nothing.`;
  }
}

function verdictOf(image: PreparedImage, problems: AuditProblem[]): AuditVerdict {
  if (problems.some((problem) => problem.severity === 'fail')) return 'fail';
  if (problems.length > 0) return 'warning';
  return image.name === '' ? 'decorative' : 'pass';
}

// ---------------------------------------------------------------------------------------------
// Wording: file name, placeholder, vague. One of them at most, in this order, so that an alt is
// named by its most specific fault ("IMG_2041.jpg" is a file name, not also vague).

function wordingProblem(image: PreparedImage): { code: AuditProblemCode; message: string } | undefined {
  const name = image.name ?? '';
  const what = `The ${image.nameKind} ${quote(name)}`;
  if (
    (looksLikeFileName(name) && !isDesignation(name)) ||
    namesTheFile(name, image.fileName) ||
    looksLikePath(name)
  ) {
    return { code: 'file-name', message: `${what} is a file name or path, not a description of the image.` };
  }
  if (isPlaceholder(name, image.key)) {
    return { code: 'placeholder', message: `${what} is a placeholder that says nothing about the image.` };
  }
  const kinds = kindOnly(image.key);
  if (kinds) {
    return {
      code: 'vague',
      message: `${what} says only what kind of image it is (${kinds}), not what it shows.`,
    };
  }
  return undefined;
}

/**
 * "F-16", "COVID-19", "A-380": capitals, one hyphen, a number. looksLikeFileName takes any token with
 * a hyphen and a digit for a slug, but these are names people write; camera prefixes ("IMG-2041",
 * "DSC-0042") stay file names.
 */
function isDesignation(name: string): boolean {
  return /^\p{Lu}[\p{Lu}\d]*-\d+$/u.test(name) && !/^(img|dsc|dscn|dcim|pxl|image|photo|pic|wp)-/i.test(name);
}

/**
 * The alt is the image's own file name, or its stem when the stem is not a plain word
 * ("golden-retriever" for golden-retriever.jpg, "hero2" for hero2.png). A plain word that happens to
 * be the stem ("Go" for go.png, "logo" for logo.svg) is judged by its wording instead: "Go" names a
 * button well, "logo" is vague.
 */
function namesTheFile(name: string, fileName: string): boolean {
  if (!fileName) return false;
  const alt = name.toLowerCase();
  const file = fileName.toLowerCase();
  if (alt === file) return true;
  const stem = file.replace(imageExtension, '');
  return alt === stem && /[-_.\d]/.test(stem);
}

/**
 * Paths and identifiers that looksLikeFileName does not catch: a URL, a path with a leading slash,
 * `./`, `~/`, a drive letter or at least two separators ("uploads/2023/hero"), and a single
 * snake_case token ("hero_banner"): prose never joins words with underscores. One slash between
 * words ("TCP/IP", "and/or") is not a path.
 */
function looksLikePath(name: string): boolean {
  if (/\s/.test(name)) return false;
  if (/^(https?:)?\/\//i.test(name)) return true;
  if (/^[\w.-]+$/.test(name) && name.includes('_') && /\p{L}/u.test(name)) return true;
  if (!/[/\\]/.test(name) || !/\p{L}/u.test(name)) return false;
  return /^(\/|\.{1,2}[/\\]|~\/|[a-z]:\\)/i.test(name) || (name.match(/[/\\]/g)?.length ?? 0) >= 2;
}

// ---------------------------------------------------------------------------------------------
// Decorative images: spacers, tracking pixels, blanks.

/** Name parts of spacer and tracking-pixel files ("spacer.gif", "blank_1x1.png", "tracking-pixel.gif"). */
const spacerWords = new Set([
  'spacer',
  'pixel',
  'blank',
  'transparent',
  'shim',
  'clear',
  'tracking',
  'tracker',
  '1x1',
]);
const spacerFiller = new Set(['gif', 'png', 'img', 'image', 'px', 'x', 'trans', 'dot', 'spc', 'empty']);

/**
 * Why the image is decorative, or undefined. What the pixels say wins when known (`informative`);
 * otherwise a width or height attribute of at most 2 px (1×1 tracking pixels, spacer lines), or a
 * file name made only of spacer words ("spacer.gif", "blank-1x1.png"; not "pixel-art.png"). The
 * only content of a link or button is never decorative: it names the control.
 */
function decorativeEvidence(facts: AuditImageFacts, fileName: string, key: string): string | undefined {
  if (facts.informative === true) return undefined;
  if (facts.informative === false) return 'its pixels show no content';
  const tiny = (side: number | undefined) =>
    side !== undefined && Number.isFinite(side) && side >= 0 && side <= 2;
  if (tiny(facts.width) || tiny(facts.height)) {
    return `${facts.width ?? '?'}×${facts.height ?? '?'} pixels`;
  }
  const parts = fileParts(fileName);
  const spacerName =
    parts.some((part) => spacerWords.has(part)) &&
    parts.every((part) => spacerWords.has(part) || spacerFiller.has(part) || /^\d+$/.test(part));
  if (spacerName) return `file name ${quote(fileName)}`;
  // An alt that names only a decoration ("bullet", "blue arrow", "divider line") on an image that
  // looks like one: named like one, the size of one, or where a list's bullet goes (ADR 060).
  if (!decorativeOnly(key)) return undefined;
  if (parts.some((part) => decorativeWords.has(part))) return `file name ${quote(fileName)}`;
  const small = (side: number | undefined) => side !== undefined && side <= ORNAMENT_SIZE;
  if (small(facts.width) && small(facts.height)) return `${facts.width}×${facts.height} pixels`;
  if (facts.listMarker) return 'it marks a list item';
  return undefined;
}

/** The words of an image's file name without its extension ("arrow-right_2x.png" → arrow, right, 2x). */
function fileParts(fileName: string): string[] {
  return fileName
    .toLowerCase()
    .replace(imageExtension, '')
    .split(/[-_.\s]+/)
    .filter(Boolean);
}

// ---------------------------------------------------------------------------------------------
// ADR 060: what the best checkers add.

/** Words in a file name, class or id that say the image is a chart. */
const chartWords = new Set(['chart', 'charts', 'graph', 'graphs', 'diagram', 'infographic', 'histogram']);

/** Why an alt="" image is a chart by its markup (file name, class or id), or undefined. */
function chartEvidence(image: PreparedImage): string | undefined {
  if (image.facts.informative === false) return undefined;
  if (fileParts(image.fileName).some((part) => chartWords.has(part)))
    return `its file name ${quote(image.fileName)}`;
  const classes = image.facts.classNames ?? '';
  const named = classes
    .toLowerCase()
    .split(/[^a-z]+/)
    .find((part) => chartWords.has(part));
  return named ? `its class or id ${quote(classes, 60)}` : undefined;
}

/** An aria-label or aria-labelledby text and an alt that share no content word (HTML_CodeSniffer: the name differs from the alt). */
function labelContradiction(image: PreparedImage): string | undefined {
  if (image.nameKind !== 'ARIA label') return undefined;
  const alt = image.facts.alt?.trim();
  if (!alt || !image.name) return undefined;
  const labelWords = contentWords(image.name);
  const altWords = contentWords(alt);
  if (labelWords.length === 0 || altWords.length === 0) return undefined;
  if (altWords.some((word) => labelWords.some((other) => wordsMatch(word, other)))) return undefined;
  return `The ARIA label ${quote(image.name)} and the alt text ${quote(alt)} share no word, so screen readers announce the label while the alt says something else.`;
}

/**
 * Text the image shows that its name gets wrong or leaves out (ADR 060): a phone number, price or
 * date the name does not state in any wording with the same digits, or, for the only content of a
 * link or button, a heading (the first line of two words or more) when the name shares no word with
 * anything read. Only for confident readings:
 * an OCR below TEXT_MISMATCH_CONFIDENCE, or no confidence recorded, is never a fail.
 */
function textMismatch(image: PreparedImage): string | undefined {
  const { imageText, imageTextConfidence } = image.facts;
  const name = image.name;
  if (!imageText?.trim() || !name) return undefined;
  if (imageTextConfidence === undefined || imageTextConfidence < TEXT_MISMATCH_CONFIDENCE) return undefined;
  const what = () => `the ${image.nameKind} ${quote(name, 60)}`;
  const facts = statedFacts(imageText);
  const unsaid = facts.find((fact) => !altStates(fact, name));
  if (unsaid)
    return `The image shows the ${unsaid.kind} ${quote(unsaid.text)} but ${what()} does not state it.`;
  // The words of a picture are its label only when the picture is a link's or button's only content
  // (WCAG 2.5.3, label in name): experts describe a diagram or a photo without transcribing the text
  // in it, so a heading there is no evidence (measured, docs/benchmarks.md).
  if (facts.length > 0 || !image.control) return undefined;
  const heading = imageText
    .split('\n')
    .map((line) => line.trim())
    .find((line) => contentWords(line).length >= 2);
  if (!heading) return undefined;
  const read = contentWords(imageText);
  const said = contentWords(name);
  if (said.some((word) => read.some((other) => wordsMatch(word, other)))) return undefined;
  return `The image shows the heading ${quote(heading, 60)} but ${what()} shares no word with its text.`;
}

/** The image is a logo: its file name, class, id or name says so, or it is the banner's link to the site's root. */
function isLogo(image: PreparedImage): boolean {
  const says = (text: string) => /(?:^|[^a-z])logo(?:s|type)?(?:[^a-z]|$)/i.test(text);
  if (says(image.fileName) || says(image.facts.classNames ?? '') || says(image.key)) return true;
  if (!image.facts.inHeader || image.control !== 'link' || !image.target) return false;
  try {
    const target = new URL(image.target);
    const segments = target.pathname
      .split('/')
      .filter((segment) => segment && !localeSegment.test(segment) && !homeSegment.test(segment));
    return segments.length === 0 && target.origin === new URL(image.facts.pageUrl).origin;
  } catch {
    return false;
  }
}

/**
 * The link's address names a destination the name does not mention (targetWords: a fragment, a
 * site's root, one readable segment). A product card's picture linking to
 * /products/red-shoe-123, or to the image file, may be described: that is what the link leads to.
 */
function linkNamesElsewhere(image: PreparedImage, name: string): boolean {
  const target = image.facts.linkTarget;
  const destination = target ? targetWords(target, image.facts.pageUrl) : undefined;
  if (!destination || destination.length === 0) return false;
  const altWords = meaningfulWords(name);
  return !altWords.some((word) => destination.some((other) => wordsMatch(word, other)));
}

/**
 * A logo's or an image link's or button's name that describes how the picture looks instead of naming
 * the site or the purpose (ADR 060): longer than LONG_CONTROL_ALT characters or more than one
 * sentence, with at least two appearance words (colours, shapes, "shows", "picture of"). For a link
 * that is not a logo, only when its address names somewhere the name does not mention.
 */
function appearanceProblem(image: PreparedImage): string | undefined {
  const name = image.name;
  if (!name) return undefined;
  const logo = isLogo(image);
  if (!logo && !image.control) return undefined;
  if (!logo && image.control === 'link' && !linkNamesElsewhere(image, name)) return undefined;
  const sentences = name.split(/(?<=[.!?])\s+(?=\p{Lu})/u).filter((part) => part.trim()).length;
  if (Array.from(name).length <= LONG_CONTROL_ALT && sentences <= 1) return undefined;
  const lower = name.toLowerCase();
  const hits = [
    ...new Set([
      ...(lower.match(appearancePhrases) ?? []),
      ...normaliseForComparison(name)
        .split(' ')
        .filter((word) => appearanceWords.has(word)),
    ]),
  ];
  if (hits.length < 2) return undefined;
  const evidence = hits
    .slice(0, 3)
    .map((hit) => `“${hit}”`)
    .join(', ');
  const instead = logo
    ? 'instead of naming the site'
    : image.control === 'button'
      ? 'instead of saying what the button does'
      : 'instead of saying where the link goes';
  return `The ${image.nameKind} of ${logo ? 'this logo' : controlPhrase(image)} describes how the picture looks (${evidence}) ${instead}.`;
}

// ---------------------------------------------------------------------------------------------
// Redundant and repeated.

/** What the alt repeats word for word: the caption, the link text or the adjacent text, or one of their sentences. */
function redundantWith(image: PreparedImage): string | undefined {
  if (!image.key) return undefined;
  const { caption, linkText, adjacentText } = image.facts;
  const sources: Array<[string | undefined, string, boolean]> = [
    [caption, 'the caption', true],
    [linkText, `the ${image.facts.role === 'button' ? 'button' : 'link'} text`, false],
    [adjacentText, 'the adjacent text', true],
  ];
  for (const [text, label, bySentence] of sources) {
    if (!text?.trim()) continue;
    const pieces = bySentence ? [text, ...text.split(/(?<=[.!?])\s+|\n+/)] : [text];
    const match = pieces.find((piece) => normaliseForComparison(piece) === image.key);
    if (match) return `${label} ${quote(match, 60)}`;
  }
  return undefined;
}

/**
 * Other images of the page with the same (normalised) text and a different src. Decorative images
 * are left out (their problem is that they have text at all), and so are two images that are the
 * only content of links to the same target: the same name for the same destination is right
 * (WCAG 3.2.4).
 *
 * A group answers, for any of its images, how many other sources repeat its text and which image
 * comes first, in constant time: what a message needs, without comparing every pair of images (a
 * page of 1,000 images with one label took seconds that way). `first` is the first image in page
 * order with another src and, when the asking image links somewhere, another target; it is always
 * one of six candidates found in one pass (see the constructor).
 */
class SameNameGroup {
  private readonly sources: number;
  /** Per link target: how many sources have only images linking there. */
  private readonly pureByTarget = new Map<string, number>();
  /** Per source: the one target all its images link to, or null when they differ or do not link. */
  private readonly pureTargetOf = new Map<string, string | null>();
  private readonly candidates: PreparedImage[];

  constructor(images: PreparedImage[]) {
    const targetsOf = new Map<string, string | undefined | null>();
    for (const image of images) {
      const src = image.facts.src;
      if (!targetsOf.has(src)) targetsOf.set(src, image.target);
      else if (targetsOf.get(src) !== image.target) targetsOf.set(src, null);
    }
    this.sources = targetsOf.size;
    for (const [src, target] of targetsOf) {
      const pure = typeof target === 'string' ? target : null;
      this.pureTargetOf.set(src, pure);
      if (pure !== null) this.pureByTarget.set(pure, (this.pureByTarget.get(pure) ?? 0) + 1);
    }
    // The first image that differs from the asking image in src (and in target when it links) is
    // one of these, by cases on whether the asker shares the first image's src or target.
    const firstWhere = (test: (other: PreparedImage) => boolean) => images.find(test);
    const e1 = images[0];
    const found: Array<PreparedImage | undefined> = [e1];
    if (e1) {
      const e2 = firstWhere((o) => o.facts.src !== e1.facts.src);
      const e3 = firstWhere((o) => o.target !== e1.target);
      found.push(
        e2,
        e3,
        firstWhere((o) => o.facts.src !== e1.facts.src && o.target !== e1.target),
      );
      if (e2) found.push(firstWhere((o) => o.facts.src !== e1.facts.src && o.target !== e2.target));
      if (e3) found.push(firstWhere((o) => o.target !== e1.target && o.facts.src !== e3.facts.src));
    }
    const order = new Map(images.map((image, index) => [image, index]));
    this.candidates = [...new Set(found.filter((c): c is PreparedImage => c !== undefined))].sort(
      (a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0),
    );
  }

  /** The other sources with this text (how many, and the first such image); undefined when none. */
  repeatsOf(image: PreparedImage): { first: PreparedImage; count: number } | undefined {
    const { src } = image.facts;
    const target = image.target;
    const counts = (other: PreparedImage) =>
      other.facts.src !== src && (target === undefined || other.target !== target);
    const first = this.candidates.find(counts);
    if (!first) return undefined;
    const sameTargetOnly =
      target === undefined
        ? 0
        : (this.pureByTarget.get(target) ?? 0) - (this.pureTargetOf.get(src) === target ? 1 : 0);
    return { first, count: this.sources - 1 - sameTargetOnly };
  }
}

function resolveTarget(facts: AuditImageFacts): string | undefined {
  if (!facts.linkTarget) return undefined;
  try {
    return new URL(facts.linkTarget, facts.pageUrl).href;
  } catch {
    return facts.linkTarget;
  }
}

// ---------------------------------------------------------------------------------------------
// link-without-purpose.

/**
 * The image is the only content of a link or button, so its text is the control's name (WCAG 2.4.4,
 * 4.1.2). It fails when that name cannot say where the link goes or what the button does:
 * - no text alternative, alt="", or a file name, placeholder or kind-only alt (the wording checks);
 * - for a link only, and conservatively: the alt reads as a description of a picture (it starts with
 *   "a"/"an" or "photo of", "image of"…) AND shares no word with where the link goes, for targets
 *   whose address names the destination (see targetWords: a fragment, a site root, one path segment).
 *   A link to an image file or a wiki file page is left alone: there, describing the picture is right.
 *   mailto:, tel:, script links and deeper paths are left alone too.
 * Words match when equal or when they share a prefix of 5 letters (or the whole shorter word of at
 * least 3), so "Pricing" matches /prices and "home" matches /homepage.
 */
function purposeProblem(image: PreparedImage): string | undefined {
  const control = image.control;
  if (!control) return undefined;
  const doesWhat = control === 'link' ? 'where the link goes' : 'what the button does';
  const where = controlPhrase(image);
  const name = image.name;
  if (name === null) {
    return `The image is the only content of ${where} and has no text alternative, so the ${control} has no name.`;
  }
  if (name === '') {
    return `The image is the only content of ${where} and has alt="", so the ${control} has no name.`;
  }
  if (wordingProblem(image)) {
    return `The image is the only content of ${where}, but its ${image.nameKind} ${quote(name)} does not say ${doesWhat}.`;
  }
  if (control !== 'link' || image.facts.element === 'input-image' || !describesPicture(name))
    return undefined;
  const target = image.facts.linkTarget;
  const destination = target ? targetWords(target, image.facts.pageUrl) : undefined;
  if (!destination || destination.length === 0) return undefined;
  const altWords = meaningfulWords(name);
  if (altWords.some((word) => destination.some((other) => wordsMatch(word, other)))) return undefined;
  return `The image is the only content of ${where}, but its ${image.nameKind} ${quote(name)} describes the picture and shares no word with where the link goes.`;
}

function describesPicture(name: string): boolean {
  return /^an?\s+\p{L}/iu.test(name) || pictureOpener.test(name);
}

const stopWords = new Set([
  'the',
  'and',
  'of',
  'to',
  'in',
  'on',
  'for',
  'at',
  'by',
  'with',
  'us',
  'www',
  'com',
  'html',
  'htm',
  'php',
  'aspx',
  'asp',
  'jsp',
  'cgi',
  'index',
  'default',
  'page',
  'pages',
]);

/**
 * The words a link's target offers as its purpose, or undefined when it cannot be compared: only
 * targets whose address names the destination are used. A same-page link gives its fragment's words
 * ("#opening-hours"); a site's root gives "home" and the site's name; a path of one segment that
 * reads as words (rules/site-words.ts `readable`: "p123" or a hex id reads as nothing) gives those words
 * ("/pricing", "/contact-us", another site's "/shopexample", with that site's name). Deeper paths
 * (/products/blue-vase-123, /blog/2026/…) are left alone: their last segment is often an id or a slug
 * of the very thing the picture shows, so a description is fine there.
 */
function targetWords(target: string, pageUrl: string): string[] | undefined {
  let url: URL;
  let page: URL | undefined;
  try {
    url = new URL(target, pageUrl);
  } catch {
    return undefined;
  }
  try {
    page = new URL(pageUrl);
  } catch {
    page = undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const path = decodeSafely(url.pathname);
  if (imageFilePath.test(path) || filePage.test(path)) return undefined;
  const samePage =
    page && url.origin === page.origin && url.pathname === page.pathname && url.search === page.search;
  if (samePage) {
    const fragment = meaningfulWords(readable(decodeSafely(url.hash.slice(1))) ?? '');
    return fragment.length > 0 ? fragment : undefined;
  }
  const site = meaningfulWords(siteName(url.hostname) ?? '');
  const otherSite = !page || siteName(page.hostname) !== siteName(url.hostname);
  const segments = path
    .split('/')
    .filter((segment) => segment && !localeSegment.test(segment) && !homeSegment.test(segment));
  if (segments.length === 0) return ['home', ...site];
  if (segments.length > 1) return undefined;
  const named = meaningfulWords(readable(segments[0] ?? '') ?? '');
  if (named.length === 0) return undefined;
  return otherSite ? [...named, ...site] : named;
}

/** Lower-case words of two letters or more, without numbers and words that name nothing ("the", "html"). */
function meaningfulWords(text: string): string[] {
  return words(text).filter((word) => word.length >= 2 && !/^\d+$/.test(word) && !stopWords.has(word));
}

function wordsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 3) return false;
  const need = Math.min(5, shorter);
  return a.slice(0, need) === b.slice(0, need);
}

// ---------------------------------------------------------------------------------------------
// Small helpers.

function controlPhrase(image: PreparedImage): string {
  if (image.facts.element === 'input-image') return 'an image button';
  if (image.control === 'button') return 'a button';
  const target = image.facts.linkTarget?.trim();
  return target ? `a link to ${quote(target, 80)}` : 'a link';
}

/** How a message names an image: its file name, else its src (a role=img element's page#id). */
function imageLabel(image: PreparedImage): string {
  return quote(image.fileName || image.facts.src);
}

/** The last path segment of the image's URL ("IMG_2041.jpg"); '' for data: URLs and bare hosts. */
function fileNameOf(src: string): string {
  if (/^data:/i.test(src.trim())) return '';
  let path: string;
  try {
    path = new URL(src, 'https://audit.invalid/').pathname;
  } catch {
    path = src.split(/[?#]/)[0] ?? '';
  }
  return decodeSafely(path.split('/').filter(Boolean).at(-1) ?? '');
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * “text”, whitespace squashed, cut at `max` characters with an ellipsis so that a message stays one
 * readable sentence. Reads only as much of the text as it shows (a label can be long).
 */
function quote(text: string, max = 80): string {
  const shown: string[] = [];
  let space = false;
  let more = false;
  for (const character of text) {
    if (/\s/.test(character)) {
      space = shown.length > 0;
      continue;
    }
    if (shown.length + (space ? 1 : 0) >= max) {
      more = true;
      break;
    }
    if (space) shown.push(' ');
    space = false;
    shown.push(character);
  }
  if (!more) return `“${shown.join('')}”`;
  return `“${shown
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…”`;
}
