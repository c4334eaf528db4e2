import { siteNameInTitle } from '../../rules/site-words.ts';
import { detectionCalibration } from '../calibration.ts';
import type { PixelStats } from '../image-stats.ts';
import {
  asThePageSays,
  asWritten,
  fileNameWords,
  isDescriptiveAlt,
  leadingPersonName,
  mentionsAny,
} from '../page-context.ts';
import { removeFileNames } from '../quality-rules.ts';
import type { AltTextReason, DetectedFace, DetectedObject, ImageKind, PageContext } from '../types.ts';
import { pictogramConcept } from './icons.ts';
import { countPhrase, type Family, familyNoun, nounFor, wordsFor } from './vocabulary.ts';

/**
 * Turns what the page says and what the offline models saw into alt text. Pure and synchronous, so
 * every rule here is unit-tested without loading a model (ADR 018). The order of evidence: the
 * page's caption (or existing alt), always used, with the page title when it names a subject the
 * caption lacks > text legible in the image > what the detectors are sure of > the pixels' look.
 * Nothing is named that neither the pixels nor the page support; saying less beats saying wrong.
 */

export interface TextReading {
  text: string;
  confidence: number;
  words: number;
  numbers: number;
  /** Share of the image's area inside the text's boxes, 0..1, when the OCR reports it. */
  coverage?: number;
  /** The lines read, top to bottom, when the OCR reports them; with their words when it reads them. */
  lines?: ReadonlyArray<{ text: string; regions?: ReadonlyArray<ReadWord> }>;
}

/** One word as the OCR read it (ocr.ts `OcrRegion`). */
export interface ReadWord {
  text: string;
  /** Mean character confidence, 0..100. */
  confidence?: number;
  /** Its letters spell words of the known-word list; absent when not looked up. */
  known?: boolean;
}

export interface ComposeInput {
  stats: PixelStats;
  objects: DetectedObject[];
  faces: DetectedFace[];
  ocr: TextReading;
  /** Size of the original image, before downscaling. */
  width: number;
  height: number;
  transparentShare: number;
  context: PageContext;
  minDetectionScore: number;
  /** Dominant colour of the area below the single person's face, when one colour clearly dominates. */
  clothingColour?: string;
  /** The length the text must fit; optional parts (kind prefix, detections, text read) join only if they fit. */
  maxLength?: number;
  /** A brand or pictogram the picture matched strongly (marks.ts, ADR 063). */
  mark?: { set: 'brand' | 'pictogram'; name: string; score: number; colourAgrees?: boolean };
}

export interface Composition {
  altText: string;
  decorative: boolean;
  kind: ImageKind;
  textInImage?: string;
  contextUsed: Array<keyof PageContext>;
  objects: DetectedObject[];
  faces: DetectedFace[];
  /** How sure the composer is that the text names the main subject right, 0..1 (see ADR 018). */
  confidence: number;
  /** The evidence the text rests on, most important first. */
  reasons: AltTextReason[];
}

/**
 * Detection bars: the calibration table (engines/calibration.ts, ADR 067). Below `specificScore` the
 * model's own odds are against the specific class: an animal or vehicle is then named by its family
 * only, any other thing not at all. A person counts from `personScore`; confusable labels need
 * `confusableScore`.
 */
const {
  specificScore,
  personScore,
  confusableScore,
  familyScore,
  faceInPersonScore,
  faceAloneScore,
  photoWordConfidence,
  graphicKnownWordShare,
} = detectionCalibration;
/** Labels the detector gives to round windows, rooftops, stamps and paintings: named only when it is very sure. */
const confusable = new Set([
  'clock',
  'kite',
  'frisbee',
  'sports ball',
  'baseball glove',
  'baseball bat',
  'tie',
  'cell phone',
  'remote',
  'mouse',
  'vase',
  'fire hydrant',
  'traffic light',
  'parking meter',
  'stop sign',
  'potted plant',
  'umbrella',
  'handbag',
  'suitcase',
  'laptop',
  'tv',
  'cake',
  'orange',
  'apple',
  'donut',
  'toothbrush',
  'scissors',
  'teddy bear',
  'hair drier',
  'knife',
  'spoon',
  'fork',
  'wine glass',
  'skis',
  'snowboard',
  'surfboard',
  'skateboard',
  'tennis racket',
]);

export function composeAltText(input: ComposeInput): Composition {
  const { stats, context } = input;
  const maxLength = input.maxLength ?? 125;
  const graphic = looksFlat(input);
  // COCO detectors are trained on photographs; on drawings and scientific images they see shapes.
  const minScore = Math.max(input.minDetectionScore, graphic ? specificScore : 0);
  const objects = input.objects
    .filter((o) => o.score >= minScore && o.area >= 0.004 && !ambiguousFill(o) && nameable(o))
    .sort((a, b) => b.area * b.score - a.area * a.score);
  const people = objects.filter((o) => o.label === 'person');
  const faces = acceptFaces(input.faces, objects, input.objects);
  const legible = legibleText(input.ocr);
  const firstLine = legible ? (input.ocr.text.split('\n')[0]?.trim() ?? '') : '';
  const kind = classifyKind(input, legible);
  // A graphic's text is its content and is read as written; a photograph's (a sign, a shirt, a
  // poster) is read badly and only quoted when every word of it is sure and real.
  const text =
    kind === 'photo' && legible
      ? quotableInPhoto(input.ocr)
      : legible && graphicTextIsWords(input.ocr, pageWordsOf(context))
        ? legible
        : '';
  const evidence = pixelReasons(input, kind, objects, faces, text, legible);
  const base = { kind, objects, faces, contextUsed: [] as Array<keyof PageContext> };

  if (isDecorative(input, text, objects)) {
    return { ...base, altText: '', decorative: true, confidence: 0.9, reasons: evidence };
  }
  const besideText = besideItsName(input, text, objects, faces) ?? saidBeside(input, text, objects, faces);
  if (besideText) {
    return {
      ...base,
      altText: '',
      decorative: true,
      confidence: besideText.confidence,
      reasons: [besideText.reason, ...evidence],
    };
  }

  const personCount = Math.max(people.length, faces.length);
  const things = describeThings(objects.filter((o) => o.label !== 'person'));
  const pixelSubject = describePixels(personCount, things);
  const caption = withFullName(pageCaption(context), context);
  // A page title or heading is never pasted in front of the description (ADR 067): it names the page,
  // and a reader hears it already.

  if (caption) {
    return {
      ...base,
      decorative: false,
      ...(text ? { textInImage: text } : {}),
      ...withCaption(input, { kind, caption, text, personCount, objects, faces, things, maxLength }),
      reasons: [{ source: caption.source, detail: caption.text }, ...evidence],
    };
  }

  // No caption (nor a descriptive existing alt): the pixels, and a page title that names a subject.
  // No name is ever given here: only a caption or existing alt may say who is pictured.
  if (
    text &&
    (kind === 'text' || kind === 'logo') &&
    objects.length === 0 &&
    faces.length === 0 &&
    textIsTheContent(input)
  ) {
    // An image of text says what it says: the text as written, never "logo", "graphic" or colours.
    return {
      ...base,
      altText: asThePageSays(asWritten(linesAsWritten(input.ocr.text)), context),
      decorative: false,
      confidence: input.ocr.confidence >= 85 ? 0.7 : 0.55,
      reasons: evidence,
      textInImage: text,
    };
  }
  const siteLogo = siteLogoName(context, text);
  if (siteLogo && objects.length === 0 && faces.length === 0) {
    // The site's own logo without legible words: the site's name, never its colours (point 4).
    return {
      ...base,
      kind: 'logo',
      altText: siteLogo.name,
      decorative: false,
      confidence: siteLogo.fromTitle ? 0.5 : 0.6,
      reasons: [
        {
          source: siteLogo.fromTitle ? 'pageTitle' : 'role',
          detail: `The site’s own logo (in the page’s banner, called a logo): its alt text is the site’s name, “${siteLogo.name}”${siteLogo.fromTitle ? ', as the page title spells it' : ' (og:site_name)'}`,
        },
        ...evidence,
      ],
    };
  }
  const markName = nameOfMark(input.mark);
  if (
    input.mark &&
    markName &&
    objects.length === 0 &&
    faces.length === 0 &&
    (!text || sameWords(text, markName))
  ) {
    // A known mark says what it is: a brand's name (no "logo"), a pictogram's meaning ("Telephone").
    const brand = input.mark.set === 'brand';
    return {
      ...base,
      kind: brand ? 'logo' : kind,
      altText: markName,
      decorative: false,
      confidence: brand ? (input.mark.colourAgrees ? 0.7 : 0.6) : 0.6,
      reasons: [markReason(input.mark), ...evidence],
      ...(text ? { textInImage: text } : {}),
    };
  }
  if (!text && !pixelSubject) {
    // Nothing read, nothing recognised: colours and a file name are not what a picture shows, and
    // do not say where a link goes. A person's words are needed (the engine's last stage says so).
    return { ...base, altText: '', decorative: false, confidence: 0, reasons: evidence };
  }
  const smiling = personCount === 1 && faces[0]?.expression === 'happy';
  let altText: string;
  if (kind === 'text' || kind === 'screenshot' || kind === 'chart' || kind === 'logo') {
    altText = describeGraphic(kind, text, firstLine, pixelSubject, input.ocr);
  } else {
    const who = smiling ? pixelSubject.replace(/^a person/, 'a smiling person') : pixelSubject;
    const quoted = readsAsWords(text) ? text : '';
    const portrait = personCount === 1 && isPortrait(people[0], faces[0]);
    let core: string;
    if (who && portrait && kind === 'photo')
      core = `${stats.greyscale ? 'Black-and-white portrait' : 'Portrait'} of ${who}`;
    else if (who && closeUp(objects) && kind === 'photo')
      core = `${stats.greyscale ? 'Black-and-white close-up' : 'Close-up'} of ${who}`;
    else if (who) core = withKindPrefix(kind, stats, who);
    else if (quoted) core = `${stats.greyscale ? 'Black-and-white photograph' : 'Photograph'} of text`;
    else core = '';
    // Only when the person is the whole subject, so the colour cannot attach to "a motorcycle".
    if (
      core &&
      personCount === 1 &&
      faces.length === 1 &&
      input.clothingColour &&
      !stats.greyscale &&
      !things
    )
      core += ` wearing ${input.clothingColour}`;
    if (quoted) core += who ? ` with the text ${quote(quoted)}` : ` reading ${quote(quoted)}`;
    altText = core;
  }
  return {
    ...base,
    altText: altText ? finish(altText) : '',
    decorative: false,
    confidence: altText ? pixelConfidence({ kind, personCount, objects, faces, text, input }) : 0,
    reasons: evidence,
    ...(text ? { textInImage: text } : {}),
  };
}

interface CaptionParts {
  kind: ImageKind;
  caption: { text: string; source: 'caption' | 'existingAlt' };
  text: string;
  personCount: number;
  objects: DetectedObject[];
  faces: DetectedFace[];
  things: string;
  maxLength: number;
}

/**
 * A caption is the page's own description of its figure: always used, whatever the detector says.
 * No page title or heading leads it (ADR 067); a portrait of the person the
 * caption names is called one; what the detector adds or the image's text joins only when it fits.
 */
function withCaption(
  input: ComposeInput,
  parts: CaptionParts,
): Pick<Composition, 'altText' | 'contextUsed' | 'confidence'> {
  const { stats } = input;
  const { kind, caption, text, personCount, objects, faces, maxLength } = parts;
  const contextUsed: Array<keyof PageContext> = [caption.source];
  let core = caption.text;
  const name = leadingPersonName(core);
  const portrait =
    kind === 'photo' &&
    personCount === 1 &&
    isPortrait(
      objects.find((o) => o.label === 'person'),
      faces[0],
    );
  // "Portrait of Peter Taylor in 1975", but not "Portrait of Peter Taylor was the first…".
  if (name && portrait && nameIsThePhrase(core, name))
    core = `${stats.greyscale ? 'Black-and-white portrait' : 'Portrait'} of ${core}`;
  core = finish(core);
  const optional: string[] = [];
  const kindLabel =
    kind === 'illustration'
      ? 'Illustration'
      : kind === 'chart'
        ? 'Chart'
        : stats.greyscale && kind === 'photo' && !/Black-and-white/.test(core)
          ? 'Black-and-white photograph'
          : undefined;
  // What the detector adds: only what the caption does not already say, only when it is sure.
  const sure = describeSure(objects, personCount, caption.text);
  if (sure && kind === 'photo') optional.push(`${capitalise(sure)} in view.`);
  if (text && !mentionsAny(caption.text, [text])) optional.push(`Text: ${quote(text)}.`);
  let altText = core;
  for (const extra of optional)
    if (`${altText} ${extra}`.length <= maxLength) altText = `${altText} ${extra}`;
  // A prefix is worth its characters only when nothing of the caption has to go for it.
  if (kindLabel && `${kindLabel}: ${altText}`.length <= maxLength) altText = `${kindLabel}: ${altText}`;
  const agrees = objects.some((o) => mentionsAny(caption.text, wordsFor(o.label)));
  const descriptive = caption.text.length <= 90 && !narrative.test(caption.text);
  const confidence =
    (caption.source === 'existingAlt' ? 0.8 : 0.6) + (descriptive ? 0.15 : 0) + (agrees ? 0.1 : 0);
  return { altText, contextUsed: [...new Set(contextUsed)], confidence: Math.min(0.95, confidence) };
}

/** A caption telling a story (who did what, when) rather than describing the figure. */
const narrative =
  /\b(was|were|had|has|have|became|won|directed|compared|described|served|issued|celebrated|promoted|inspired|set up|published|wrote|written|founded|built|released)\b/i;

/** Things and people the detector is sure of that the caption does not already mention. */
function describeSure(objects: DetectedObject[], personCount: number, caption: string): string {
  const sureThings = objects.filter(
    (o) => o.label !== 'person' && o.score >= 0.7 && !mentionsAny(caption, wordsFor(o.label)),
  );
  const sayPeople =
    personCount > 0 &&
    !mentionsAny(caption, wordsFor('person')) &&
    !leadingPersonName(caption) &&
    objects.some((o) => o.label === 'person' && o.score >= 0.7);
  return describePixels(sayPeople ? personCount : 0, describeThings(sureThings));
}

/** True when the caption is the name plus where or when ("Peter Taylor in 1975"), not a sentence about the person. */
function nameIsThePhrase(caption: string, name: string): boolean {
  const rest = caption.slice(name.length).trim();
  return (
    rest === '' || /^(?:[,(]|in|at|during|on|with|playing|performing|speaking|after|before|as)\b/i.test(rest)
  );
}

/** The caption, or failing that a descriptive existing alt, cleaned of credits, bracketed dates and file names. */
export function pageCaption(
  context: PageContext,
): { text: string; source: 'caption' | 'existingAlt' } | undefined {
  for (const source of ['caption', 'existingAlt'] as const) {
    const value = context[source];
    if (!value || (source === 'existingAlt' && !isDescriptiveAlt(value, context.fileName))) continue;
    const text = cleanCaption(value, context.fileName);
    if (text.length >= 3 && /\p{L}{2}/u.test(text)) return { text, source };
  }
  return undefined;
}

const month = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\\.?';
const dateInBrackets = new RegExp(
  `\\s*[([](?:(?:c\\.|ca\\.|circa|about|before|after)\\s*)?(?:\\d{1,2}\\s+)?(?:${month}\\s+)?(?:\\d{1,2},?\\s+)?\\d{3,4}s?(?:\\s*[–-]\\s*\\d{2,4}s?)?[)\\]]`,
  'gi',
);

/** "Photo: X", "© X", "(Credit: X)", "(1883)", "IMG_2041.jpg", "(va025931)": not what the picture shows. */
export function cleanCaption(text: string, fileName?: string): string {
  let t = removeFileNames(text.replace(/\s+/g, ' ').trim(), fileName)
    // "Image: The cathedral at night" is a label; "Photo: J. Smith" (a few words) is a credit.
    .replace(/^(?:image|picture)\s*:\s*/i, '')
    .replace(/^photo(?:graph)?\s*:\s*(?=(?:\S+\s+){4,}\S)/i, '');
  t = t
    .replace(/\s*[([](?:photo(?:graph)?|image|picture)?\s*(?:credit|courtesy|source|by|©)[^)\]]*[)\]]/gi, '')
    .replace(/\s*©.*$/, '')
    .replace(
      /(?:^|[\s.;,|–—-]+)(?:(?:photo(?:graph)?|image|picture)\s*(?:by|credit|courtesy(?: of)?)?|credit|courtesy of|source)\s*:\s*.*$/i,
      '',
    )
    .replace(/(?:^|[\s.;,|–—-]+)(?:photo(?:graph)?|image|picture)\s+(?:by|courtesy of)\s+.*$/i, '')
    .replace(dateInBrackets, '')
    // An archive's catalogue number ("(va025931)", "(LC-USZ62-12345)") says nothing about the picture.
    .replace(/\s*\((?=[^)\s]*\d{4})[\w./-]{5,}\)/g, '')
    .replace(/\s*\((?:pictured|shown|above|below|pictured (?:above|below|here))\)/gi, '')
    .replace(/\s+([.,;:])/g, '$1')
    .replace(/[\s,;:–—-]+$/, '')
    .trim();
  return t;
}

/** The title or heading without the site's name ("Peter Taylor – Wikipedia") or a namespace ("Draft:"). */
function pageTitleText(raw: string): string {
  return (raw.split(/\s[|–—-]\s|\s[|]/)[0] ?? '').replace(/^(?:draft|wikipedia|user|file):\s*/i, '').trim();
}

/**
 * "Heisman at Auburn" on the page "John Heisman": the caption says Heisman is pictured, the title
 * gives the full name. Only a caption that starts with the surname of the name the title starts with.
 */
function withFullName<T extends { text: string }>(
  caption: T | undefined,
  context: PageContext,
): T | undefined {
  if (!caption) return caption;
  for (const source of ['heading', 'pageTitle'] as const) {
    const full = leadingPersonName(pageTitleText(context[source] ?? ''));
    const surname = full?.split(/\s+/).pop();
    if (!full || !surname || full === surname || caption.text.startsWith(full)) continue;
    const rest = caption.text.slice(surname.length);
    if (caption.text.startsWith(surname) && !/^[\p{L}-]/u.test(rest))
      return { ...caption, text: `${full}${rest}` };
  }
  return caption;
}

function nameable(o: DetectedObject): boolean {
  if (o.label === 'person') return o.score >= personScore;
  if (confusable.has(o.label)) return o.score >= confusableScore;
  const family = nounFor(o.label).family;
  // An unsure animal or vehicle is named by its family, and only when it is a noticeable part of the picture.
  return (
    o.score >= specificScore ||
    ((family === 'animal' || family === 'vehicle') && o.score >= familyScore && o.area >= 0.03)
  );
}

/**
 * Without word-level readings: the words of three letters or more are mostly shaped like words (one
 * case pattern, a vowel, no run of four consonants); a text with no such word (a number) passes.
 */
function shapedLikeWords(text: string): boolean {
  // Acronyms ("PDF", "HTML" of "HTML5") are names, not misreads: they do not count.
  const tokens = (text.match(/\p{L}{3,}/gu) ?? []).filter((token) => !/^\p{Lu}{2,4}$/u.test(token));
  if (tokens.length === 0) return true;
  return tokens.filter(wordShaped).length >= tokens.length * graphicKnownWordShare;
}

function wordShaped(token: string): boolean {
  return (
    /^(?:\p{Lu}+|\p{Ll}+|\p{Lu}\p{Ll}+)$/u.test(token) &&
    /[aeiouyäöüéèàáíóú]/iu.test(token) &&
    // "Monthly" and "strengths" have four consonants in a row; five is a misread.
    !/[b-df-hj-np-tv-xz]{5,}/iu.test(token)
  );
}

/**
 * Text read in a photograph is quoted only when it reads as words: signs, shirts and posters are
 * read badly, and garbled letters ("Tthnny entz", "HoNES") would be a claim the picture does not
 * support. At least two words of three letters or more, four in five of them shaped like words
 * (one case pattern, a vowel, no run of four consonants).
 */
export function readsAsWords(text: string): boolean {
  const tokens = text.match(/\p{L}{3,}/gu) ?? [];
  if (tokens.length < 2) return false;
  const wordLike = tokens.filter(
    (token) =>
      /^(?:\p{Lu}+|\p{Ll}+|\p{Lu}\p{Ll}+)$/u.test(token) &&
      /[aeiouyäöüéèàáíóú]/iu.test(token) &&
      !/[b-df-hj-np-tv-xz]{4,}/iu.test(token),
  );
  return wordLike.length * 5 >= tokens.length * 4;
}

/**
 * The part of a photograph's text that may be quoted (ADR 044, amendment): the lines whose every
 * word was read with confidence ≥ 90 and is a number or a word of the known-word list, in one case
 * pattern ("HoNES" is not), with nothing but closing punctuation attached ("&de", "15SOUTH"),
 * and only when those lines hold two thirds of the words read. What is left must still read as
 * words (`readsAsWords`). An OCR that reports no words with
 * their confidence gives only text read at ≥ 90 overall that reads as words.
 */
export function quotableInPhoto(ocr: TextReading): string {
  const lines = ocr.lines ?? [];
  if (!lines.some((line) => line.regions?.length)) {
    const text = tidyText(ocr.text);
    return ocr.confidence >= photoWordConfidence && readsAsWords(text) ? text : '';
  }
  const sure = lines.filter((line) => line.regions?.length && line.regions.every(wordReadSurely));
  // Lines picked out of a text mostly misread would make a sentence the picture does not say.
  const wordsIn = (some: typeof lines) => some.reduce((n, line) => n + (line.regions?.length ?? 0), 0);
  if (wordsIn(sure) * 3 < wordsIn(lines) * 2) return '';
  const text = tidyText(sure.map((line) => line.text).join('\n'));
  return readsAsWords(text) ? text : '';
}

function wordReadSurely(word: ReadWord): boolean {
  if ((word.confidence ?? 0) < photoWordConfidence) return false;
  const bare = word.text.replace(/[.,:;!?]$/, '');
  if (/^[$€£]?\d{1,3}(?:[.,:]\d+)*%?$|^\d{4}$/.test(bare)) return true;
  if (!/^\p{L}+(?:['’-]\p{L}+)*$/u.test(bare)) return false;
  const oneCase = bare.split(/['’-]/).every((part) => /^(?:\p{Lu}+|\p{Ll}+|\p{Lu}\p{Ll}+)$/u.test(part));
  return oneCase && word.known === true;
}

function legibleText(ocr: TextReading): string {
  if (ocr.words === 0 || ocr.confidence < 75) return '';
  const text = tidyText(ocr.text);
  if (/\p{L}{3}/u.test(text)) return text;
  // Figures alone (a price, a phone number, a decimal) are text when read surely and filling the
  // picture: texture read as digits is neither.
  const digits = text.replace(/\D/g, '').length;
  return ocr.confidence >= 90 && digits >= 3 && (ocr.coverage ?? 0) >= 0.15 ? text : '';
}

/**
 * The evidence, most important first: what is grounds (text read as words, detections and faces above
 * their calibrated scores, ADR 067), then what was seen but is not grounds, as `pixels`, so a person
 * still sees it: text that is not words, detections below their score, the kind and colours.
 */
function pixelReasons(
  input: ComposeInput,
  kind: ImageKind,
  objects: DetectedObject[],
  faces: DetectedFace[],
  text: string,
  read: string,
): AltTextReason[] {
  const reasons: AltTextReason[] = [];
  const confidence = round(input.ocr.confidence / 100);
  if (text) reasons.push({ source: 'ocr', detail: text, score: confidence });
  for (const o of objects) reasons.push({ source: 'detection', detail: o.label, score: round(o.score) });
  for (const f of faces) reasons.push({ source: 'face', detail: 'face', score: round(f.score) });
  if (read && !text)
    reasons.push({ source: 'pixels', detail: `text read but not words: ${quote(read)}`, score: confidence });
  for (const o of input.objects)
    if (!objects.includes(o) && o.score >= input.minDetectionScore)
      reasons.push({
        source: 'pixels',
        detail: `${o.label}? below its calibrated score`,
        score: round(o.score),
      });
  for (const f of input.faces)
    if (!faces.includes(f))
      reasons.push({ source: 'pixels', detail: 'face? below its calibrated score', score: round(f.score) });
  const look = [
    kind,
    input.stats.greyscale ? 'black-and-white' : '',
    input.stats.colours.length ? `${joinList(input.stats.colours)} tones` : '',
  ].filter(Boolean);
  reasons.push({ source: 'pixels', detail: look.join(', ') });
  return reasons;
}

function pixelConfidence(p: {
  kind: ImageKind;
  personCount: number;
  objects: DetectedObject[];
  faces: DetectedFace[];
  text: string;
  input: ComposeInput;
}): number {
  const top = p.objects[0];
  if (p.text && p.input.ocr.confidence >= 85 && p.kind !== 'photo') return 0.7;
  if (p.personCount === 1 && (p.faces[0]?.score ?? 0) >= 0.85 && (p.faces[0]?.area ?? 0) >= 0.05) return 0.6;
  if (top && top.score >= 0.7) return 0.5;
  if (top || p.personCount > 0) return 0.35;
  return 0.15;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * A face counts as a person only with a person box around it, or alone at the calibrated score with
 * no animal there (calibration.ts). Any animal box the detector drew, however unsure, vetoes a face
 * inside it: face detectors fire on pandas, cats and dogs, and "Portrait of a person" for an animal
 * is the claim this must never make.
 */
function acceptFaces(
  faces: DetectedFace[],
  objects: DetectedObject[],
  seen: DetectedObject[],
): DetectedFace[] {
  const people = objects.filter((o) => o.label === 'person');
  const animals = seen.filter((o) => o.label !== 'person' && nounFor(o.label).family === 'animal');
  return faces.filter((face) => {
    const centre: [number, number] = [face.box[0] + face.box[2] / 2, face.box[1] + face.box[3] / 2];
    if (animals.some((o) => contains(o.box, centre) && !people.some((p) => p.score > o.score))) return false;
    if (people.some((p) => contains(p.box, centre))) return face.score >= faceInPersonScore;
    return face.score >= faceAloneScore;
  });
}

function contains(box: [number, number, number, number], [x, y]: [number, number]): boolean {
  return x >= box[0] && x <= box[0] + box[2] && y >= box[1] && y <= box[1] + box[3];
}

function isPortrait(person: DetectedObject | undefined, face: DetectedFace | undefined): boolean {
  return (face?.area ?? 0) >= 0.05 || ((person?.area ?? 0) >= 0.6 && (face?.area ?? 0) >= 0.03);
}

/**
 * A box filling most of the frame is matched on outline alone (a fundus photograph reads as an
 * umbrella). Unless the detector is sure, keep such a thing only where its family word is still
 * informative (people, animals, vehicles).
 */
function ambiguousFill(o: DetectedObject): boolean {
  const family = nounFor(o.label).family;
  return o.area >= 0.6 && o.score < 0.6 && family !== 'person' && family !== 'animal' && family !== 'vehicle';
}

/** One non-person thing filling most of the frame. */
function closeUp(objects: DetectedObject[]): boolean {
  return objects.length === 1 && objects[0]?.label !== 'person' && (objects[0]?.area ?? 0) >= 0.6;
}

/** "a motorcycle", "two cups and a bowl", "an animal" for an unsure detection. */
function describeThings(objects: DetectedObject[]): string {
  const groups = new Map<string, { singular: string; plural: string; count: number; weight: number }>();
  for (const o of objects) {
    const n = nounFor(o.label);
    // Confusable families (a cat read as a dog, a van as a truck) fall back to the family word;
    // for the rest a family word ("an object") would say nothing, so the class name stays.
    const specific = o.score >= specificScore || (n.family !== 'animal' && n.family !== 'vehicle');
    const key = specific ? o.label : `family:${n.family}`;
    const words = specific ? n : familyNoun(n.family as Family);
    const group = groups.get(key) ?? { singular: words.singular, plural: words.plural, count: 0, weight: 0 };
    group.count++;
    group.weight += o.area * o.score;
    groups.set(key, group);
  }
  // A family word next to a specific member of that family says nothing new.
  const phrases = [...groups.entries()]
    .filter(([key]) => !(key === 'family:object' && groups.size > 1))
    .sort((a, b) => b[1].weight - a[1].weight)
    .slice(0, 3)
    .map(([, g]) => countPhrase(g.count, g.singular, g.plural));
  return joinList(phrases);
}

function describePixels(personCount: number, things: string): string {
  const people = personCount > 0 ? countPhrase(personCount, 'person', 'people') : '';
  if (people && things) return `${people} with ${things}`;
  return people || things;
}

function withKindPrefix(kind: ImageKind, stats: PixelStats, body: string): string {
  if (kind === 'illustration')
    return `${stats.greyscale ? 'Black-and-white illustration' : 'Illustration'} of ${lower(body)}`;
  if (stats.greyscale) return `Black-and-white photograph of ${lower(body)}`;
  return capitalise(body);
}

function describeGraphic(
  kind: ImageKind,
  text: string,
  firstLine: string,
  subject: string,
  ocr: TextReading,
): string {
  if (!text) return '';
  switch (kind) {
    case 'logo':
      return asWritten(firstLine);
    case 'chart': {
      // A title whose words run together ("fApparFerCapitato") or are not words is a misread of
      // small print: without a title, "Chart" alone says nothing a person could use.
      const runTogether = /\p{Ll}\p{Lu}/u.test(firstLine);
      const titled =
        !runTogether && !/^\W*[\d.,%$€£\s]+$/.test(firstLine) && lineIsWords(ocr.lines?.[0], firstLine);
      return titled ? `Chart titled ${quote(firstLine)}` : '';
    }
    case 'screenshot':
      return `Screenshot of ${subject ? `${lower(subject)} with ` : ''}text reading ${quote(text)}`;
    default:
      // Text is there but is not the picture's content (labels scattered over a diagram).
      return `Graphic labelled ${quote(text)}`;
  }
}

/**
 * Whether a line the OCR read in a graphic is words (ADR 067): its words of three letters or more
 * are mostly in the known-word list (`graphicKnownWordShare`, calibration.ts). Without word-level
 * readings, the shape test of `readsAsWords` decides.
 */
function lineIsWords(
  line: { regions?: ReadonlyArray<ReadWord> } | undefined,
  text: string,
  pageWords: ReadonlySet<string> = new Set(),
): boolean {
  // Acronyms ("PDF", "HTML5") and words with digits are names, not misreads: they do not count.
  const regions = (line?.regions ?? []).filter(
    (word) => /\p{L}{3}/u.test(word.text) && !/\d/.test(word.text) && !/^\p{Lu}{2,4}\W*$/u.test(word.text),
  );
  if (regions.length === 0) return line?.regions ? true : shapedLikeWords(text);
  // A name the page itself spells ("Auslan", "CITYLIGHTS" on a page about City Lights) is a word here.
  const onPage = (word: ReadWord) => {
    const bare = word.text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
    return bare.length >= 3 && pageWords.has(bare);
  };
  const known = regions.filter((word) => word.known === true || onPage(word)).length;
  return known >= regions.length * graphicKnownWordShare;
}

/**
 * The page's words around an image, lower-case, each alone and each run of two or three squashed
 * together ("City Lights" gives "citylights"), to recognise a name an image spells as one word.
 */
export function pageWordsOf(context: PageContext): Set<string> {
  const text = [
    context.pageTitle,
    context.heading,
    context.caption,
    context.surroundingText,
    context.linkText,
    context.siteName,
    context.linkTarget,
  ]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  const found = new Set<string>();
  for (let i = 0; i < words.length; i++)
    for (const span of [1, 2, 3]) if (i + span <= words.length) found.add(words.slice(i, i + span).join(''));
  return found;
}

/**
 * The text of a graphic, when it is words (ADR 067): "CITYLIGHTS your aceesto the" read from a logo
 * is not grounds for anything. Words of three letters or more across all lines, mostly known.
 */
export function graphicTextIsWords(ocr: TextReading, pageWords?: ReadonlySet<string>): boolean {
  const lines = ocr.lines ?? [];
  if (!lines.some((line) => line.regions?.length)) return shapedLikeWords(ocr.text);
  return lineIsWords({ regions: lines.flatMap((line) => line.regions ?? []) }, ocr.text, pageWords);
}

/**
 * Text is the picture's content (a button, a banner, a heading drawn as an image) rather than labels
 * on a diagram. Only the OCR's boxes can tell. Tight line boxes cover 15–25 % of a banner or a
 * button with padding, 6–15 % of a chart or diagram, so: a sixth of the picture or more, or a tenth
 * in at most three lines of words (a chart has more lines, mostly numbers). Without a reported
 * coverage, a picture the kind rules call text or a logo counts as text.
 */
function textIsTheContent(input: ComposeInput): boolean {
  const { coverage, lines } = input.ocr;
  if (coverage === undefined) return true;
  if (coverage >= 0.15) return true;
  if (coverage < 0.1 || !lines || lines.length === 0 || lines.length > 3) return false;
  const numeric = lines.filter((line) => /^[\d\s.,%$€£+-]+$/.test(line.text)).length;
  return numeric * 2 < lines.length;
}

/** Joining words that say nothing about what a file name names. */
const nameStopWords = new Set(['and', 'the', 'with', 'for', 'from', 'into', 'all', 'one', 'two']);
/** Words that name a web graphic's part, not what it shows. */
const graphicPartWords = new Set([
  'button',
  'btn',
  'icon',
  'logo',
  'image',
  'img',
  'banner',
  'badge',
  'thumb',
]);

/** File names of page furniture: backgrounds, borders, spacers, dividers, shadows, textures. */
const furnitureWord =
  /(?:^|\s)(?:bg|background|backdrop|border|spacer|divider|separator|shadow|texture|pattern|gradient|corner|bullet|stripe|filler|blank|transparent)(?:\s|$)/;

/**
 * Decorative by what the page says around it: page furniture by its file name, or a picture whose
 * file name is spelled out in the text right beside it (W3C: an image with an adjacent text
 * alternative, "sleeping-dog.jpg" next to "The sleeping dog: …").
 */
function besideItsName(
  input: ComposeInput,
  text: string,
  objects: DetectedObject[],
  faces: DetectedFace[],
): { reason: AltTextReason; confidence: number } | undefined {
  const { context } = input;
  const said = fileNameWords(context.fileName);
  if (!said) return undefined;
  if (furnitureWord.test(said) && said.split(' ').length <= 2 && !text && objects.length === 0)
    return {
      confidence: 0.6,
      reason: {
        source: 'fileName',
        detail: `${context.fileName}: page furniture, alt="" keeps it out of the way`,
      },
    };
  // A person's picture beside text about them shows what the text cannot; a caption describes it.
  if (context.caption || objects.some((o) => o.label === 'person') || faces.length > 0) return undefined;
  const squashed = said.replace(/\s+/g, '');
  const beside = `${context.surroundingText ?? ''} ${context.linkText ?? ''}`
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
  if (squashed.length >= 6 && beside.includes(squashed))
    return {
      confidence: 0.6,
      reason: {
        source: 'fileName',
        detail: `The text beside it already names what ${context.fileName} shows: alt="" avoids saying it twice`,
      },
    };
  // A drawn thumbnail illustrating the paragraph beside it ("page-structure-navigation.png" next to
  // a paragraph on navigation under the heading "Navigation"): most of its name is in that text, so
  // the text is its alternative. Not for a control's image, which must carry a name, nor a photograph.
  if (context.role === 'link' || context.role === 'button' || text || objects.length > 0) return undefined;
  const nameWords = said
    .split(' ')
    .filter((word) => word.length > 2 && !nameStopWords.has(word) && !graphicPartWords.has(word));
  if (nameWords.length < 2) return undefined;
  const nearby = new Set(
    `${context.surroundingText ?? ''} ${context.heading ?? ''}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [],
  );
  const found = nameWords.filter((word) => nearby.has(word) || nearby.has(`${word}s`)).length;
  if (found * 3 < nameWords.length * 2) return undefined;
  return {
    confidence: 0.45,
    reason: {
      source: 'fileName',
      detail: `The text beside it says what ${context.fileName} illustrates: alt="" avoids saying it twice`,
    },
  };
}

/**
 * The name an unlinked site logo stands for, when the scraper says the image is the site's own logo
 * (PageContext.siteLogo) and the OCR read no words: the page's og:site_name, else the part of the
 * page title that is the site's host name. A linked logo is named by its link (engines/role.ts); a
 * logo whose words were read says them (an image of text).
 */
function siteLogoName(context: PageContext, text: string): { name: string; fromTitle: boolean } | undefined {
  if (!context.siteLogo || context.role === 'link' || context.role === 'button' || text) return undefined;
  if (context.siteName) return { name: context.siteName, fromTitle: false };
  let host: string | undefined;
  try {
    host = context.pageUrl ? new URL(context.pageUrl).hostname : undefined;
  } catch {
    host = undefined;
  }
  const fromTitle = host && context.pageTitle ? siteNameInTitle(host, context.pageTitle) : null;
  return fromTitle ? { name: fromTitle, fromTitle: true } : undefined;
}

/** What a recognised mark is called: a brand's title, a pictogram concept's name. */
function nameOfMark(mark: ComposeInput['mark']): string | undefined {
  if (!mark) return undefined;
  return mark.set === 'brand' ? mark.name : pictogramConcept(mark.name)?.name;
}

function markReason(mark: NonNullable<ComposeInput['mark']>): AltTextReason {
  const set = mark.set === 'brand' ? 'simple-icons brand' : 'Lucide/Material Symbols pictogram';
  // A mark above the index's match score is a detection of that mark: grounds (ADR 063, ADR 067).
  return {
    source: 'detection',
    detail: `matches the ${set} “${nameOfMark(mark) ?? mark.name}” (shape overlap ${mark.score.toFixed(2)}${mark.colourAgrees ? ', in its colour' : ''})`,
    score: mark.score,
  };
}

function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}[\p{L}\p{N}]*/gu) ?? []).filter((word) => word.length >= 3);
}

/** The same words, whatever the case and punctuation ("HTML5" and "html5"). */
function sameWords(a: string, b: string): boolean {
  return contentWords(a).join(' ') === contentWords(b).join(' ');
}

/** A word found among the words beside a picture: as written, without a plural s, or as the start of a longer word ("nav" → "navigation"). */
function foundBeside(word: string, beside: Set<string>): boolean {
  if (beside.has(word) || beside.has(`${word}s`)) return true;
  if (word.endsWith('s') && beside.has(word.slice(0, -1))) return true;
  if (word.length >= 3)
    for (const other of beside) if (other.length > word.length && other.startsWith(word)) return true;
  return false;
}

/**
 * Decorative because the text right beside it already says what it shows (W3C decorative images:
 * "image with adjacent text alternative"): the labels of a diagram or a thumbnail (text that is not
 * the picture's content) all found in the paragraph and heading next to it ("PAGE HEADER" on a
 * wireframe under the heading "Header"; a cycle diagram whose steps the list below spells out), or a
 * known pictogram or brand whose name a short label beside it gives ("Captions" next to a CC icon).
 * Never a control's image, a captioned figure, a picture of people or things, or an image of text.
 */
function saidBeside(
  input: ComposeInput,
  text: string,
  objects: DetectedObject[],
  faces: DetectedFace[],
): { reason: AltTextReason; confidence: number } | undefined {
  const { context } = input;
  if (context.role === 'link' || context.role === 'button' || context.caption) return undefined;
  if (objects.length > 0 || faces.length > 0 || !context.surroundingText) return undefined;
  const beside = new Set(contentWords(`${context.surroundingText} ${context.heading ?? ''}`));
  const markName = nameOfMark(input.mark);
  if (!text && markName && context.surroundingText.length <= 150) {
    const named = contentWords(markName);
    if (named.length > 0 && named.every((word) => foundBeside(word, beside)))
      return {
        confidence: 0.55,
        reason: {
          source: 'surroundingText',
          detail: `The text beside it already says “${markName}”: alt="" avoids saying it twice`,
        },
      };
  }
  if (!text || textIsTheContent(input)) return undefined;
  const labels = contentWords(text);
  if (labels.length === 0) return undefined;
  const found = labels.filter((word) => foundBeside(word, beside)).length;
  if (found < labels.length && (labels.length < 5 || found * 10 < labels.length * 9)) return undefined;
  return {
    confidence: 0.45,
    reason: {
      source: 'surroundingText',
      detail: `Its labels (“${text.length > 60 ? `${text.slice(0, 57)}…` : text}”) are all in the text beside it: alt="" avoids saying them twice`,
    },
  };
}

/**
 * The kind from pixel statistics and what OCR read. Flat colour areas mean a graphic; among
 * graphics, text volume, numbers and transparency separate text, screenshots, charts and logos.
 */
export function classifyKind(
  input: Pick<ComposeInput, 'stats' | 'ocr' | 'width' | 'height' | 'transparentShare'>,
  text: string,
): ImageKind {
  const { stats, ocr } = input;
  if (stats.uniform) return 'blank';
  if (!looksFlat(input)) return 'photo';
  const words = text ? ocr.words : 0;
  const longSide = Math.max(input.width, input.height);
  const aspect = input.width / input.height;
  const screenShaped =
    input.width >= 600 && ((aspect >= 1.2 && aspect <= 2.4) || (aspect >= 0.4 && aspect <= 0.65));
  // A chart's numbers stand on several lines (axis labels, values); one line of digit groups is a
  // phone number or a price, not data. A labelled chart easily reads fifteen words (a title, six
  // months, six values), so numbers are weighed before the amount of text.
  const numberLines = ocr.text.split('\n').filter((line) => /\d/.test(line)).length;
  const numeric = ocr.numbers >= 3 && ocr.numbers / Math.max(words, 1) >= 0.3 && numberLines >= 2;
  if (words >= 4 && numeric && !screenShaped) return 'chart';
  if (words >= 15) return screenShaped ? 'screenshot' : 'text';
  if (words >= 4 && numeric) return 'chart';
  if (words >= 1 && words <= 3 && (input.transparentShare > 0.1 || longSide <= 400)) return 'logo';
  if (words >= 1) return 'text';
  if (input.transparentShare > 0.1 && longSide <= 512) return 'logo';
  return 'illustration';
}

/** Large flat colour areas: a drawing, a chart, a screenshot or a logo rather than a photograph. */
function looksFlat(input: Pick<ComposeInput, 'stats' | 'transparentShare'>): boolean {
  return input.stats.flatShare >= (input.stats.greyscale ? 0.85 : 0.6) || input.transparentShare > 0.1;
}

function isDecorative(input: ComposeInput, text: string, objects: DetectedObject[]): boolean {
  const { width, height, stats } = input;
  if (Math.min(width, height) <= 4) return true;
  // A control's only content must carry its name, however small or plain the picture.
  if (input.context.role === 'link' || input.context.role === 'button') return false;
  if (width * height <= 400) return true;
  if (text || objects.length > 0) return false;
  if (stats.uniform) return true;
  // A rule, border or ornamental divider: a thin strip (8:1 or longer, at most 32 px across) with
  // nothing read in it. Banners and wordmarks are wider across or carry text.
  const across = Math.min(width, height);
  if (across <= 32 && Math.max(width, height) >= across * 8 && !input.context.caption) return true;
  // A near-flat background: almost no edges and almost no contrast. Low-contrast pictures
  // (a dim X-ray, a foggy photo) have contrast even without hard edges, and are described.
  return stats.edgeShare < 0.002 && stats.lumaStd < 10;
}

/**
 * The lines of an image of text as one phrase a person would write: a line that ends a sentence or
 * continues in lower case joins with a space, as do lines of capitals (one banner phrase broken by
 * layout, "SUMMER / SALE"); a new line starting with a capital or a digit is a new label ("Rate your
 * response, Hated it", "Call us, 0123 456 7890").
 */
export function linesAsWritten(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const allCaps = (line: string) => /\p{Lu}/u.test(line) && !/\p{Ll}/u.test(line);
  let out = '';
  for (const [index, line] of lines.entries()) {
    const previous = lines[index - 1] ?? '';
    if (!out) out = line;
    else if (
      /[.!?:;,]$/.test(out) ||
      !/^[\p{Lu}\p{N}$€£]/u.test(line) ||
      (allCaps(previous) && allCaps(line))
    )
      out += ` ${line}`;
    else out += `, ${line}`;
  }
  return out;
}

/** OCR lines joined into one readable phrase. */
export function tidyText(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  let out = '';
  for (const line of lines) {
    if (!out) out = line;
    else if (/[.!?:;,]$/.test(out)) out += ` ${line}`;
    else if (/^[\p{Lu}\d]/u.test(line)) out += `. ${line}`;
    else out += ` ${line}`;
  }
  return out;
}

function quote(text: string): string {
  return `“${text.replace(/["“”]/g, '')}”`;
}

export function joinList(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lower-case a leading article or common word, but keep names as they are. */
function lower(text: string): string {
  return /^(A|An|The|Some|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Many)\b/.test(text)
    ? text.charAt(0).toLowerCase() + text.slice(1)
    : text;
}

function finish(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return /[.!?”"]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
