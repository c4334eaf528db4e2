import type { PixelStats } from '../image-stats.ts';
import { findNamedPerson, firstSentence, isDescriptiveAlt, mentionsAny } from '../page-context.ts';
import type { DetectedFace, DetectedObject, ImageKind, PageContext } from '../types.ts';
import { countPhrase, type Family, familyNoun, familyWords, nounFor, wordsFor } from './vocabulary.ts';

/**
 * Turns what the offline models saw into one natural sentence. Pure and synchronous, so every
 * rule here is unit-tested without loading a model. The order of evidence:
 * a name the page gives to a person we see > a caption or existing alt the pixels agree with >
 * what the pixels alone show. Nothing is said that neither the pixels nor the page support.
 */

export interface TextReading {
  text: string;
  confidence: number;
  words: number;
  numbers: number;
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
}

export interface Composition {
  altText: string;
  decorative: boolean;
  kind: ImageKind;
  textInImage?: string;
  contextUsed: Array<keyof PageContext>;
  objects: DetectedObject[];
  faces: DetectedFace[];
}

/** Below this the model's own odds are against the specific class: say only its family. */
const specificScore = 0.5;

export function composeAltText(input: ComposeInput): Composition {
  const { stats, context } = input;
  const graphic = looksFlat(input);
  // COCO detectors are trained on photographs; on drawings and scientific images they see shapes.
  const minScore = graphic ? Math.max(input.minDetectionScore, specificScore) : input.minDetectionScore;
  const objects = input.objects
    .filter((o) => o.score >= minScore && o.area >= 0.004 && !ambiguousFill(o))
    .sort((a, b) => b.area * b.score - a.area * a.score);
  const people = objects.filter((o) => o.label === 'person');
  const faces = acceptFaces(input.faces, objects);
  const text = input.ocr.words > 0 ? tidyText(input.ocr.text) : '';
  const firstLine = input.ocr.words > 0 ? (input.ocr.text.split('\n')[0]?.trim() ?? '') : '';
  const kind = classifyKind(input, text);
  const base = { kind, objects, faces, contextUsed: [] as Array<keyof PageContext> };

  if (isDecorative(input, text, objects)) {
    return { ...base, altText: '', decorative: true };
  }

  const personCount = Math.max(people.length, faces.length);
  const things = describeThings(objects.filter((o) => o.label !== 'person'));
  const contextUsed: Array<keyof PageContext> = [];

  // 1. A person we can see, named by the page.
  const named = personCount > 0 ? findNamedPerson(context) : undefined;
  let subject: string | undefined;
  let fromCaption = false;
  if (named) {
    contextUsed.push(...named.sources);
    subject =
      personCount === 1
        ? named.name
        : `${named.name} and ${countPhrase(personCount - 1, 'other person', 'other people')}`;
  }

  // 2. A caption or existing alt that agrees with the pixels (or that the pixels cannot contradict).
  if (!subject) {
    const described = describedByPage(context, objects, personCount);
    if (described) {
      subject = described.text;
      contextUsed.push(described.source);
      fromCaption = true;
    }
  }

  // 3. The pixels alone.
  const pixelSubject = describePixels(personCount, things);
  const smiling = personCount === 1 && faces[0]?.expression === 'happy';

  let altText: string;
  if (kind === 'text' || kind === 'screenshot' || kind === 'chart' || kind === 'logo') {
    altText = describeGraphic(kind, text, firstLine, stats, subject ?? pixelSubject);
  } else if (fromCaption && subject) {
    // A caption is a sentence of its own: the kind goes in front of it, not into it.
    const kindLabel =
      kind === 'illustration' ? 'Illustration' : stats.greyscale ? 'Black-and-white photograph' : undefined;
    altText = kindLabel ? `${kindLabel}: ${subject}` : capitalise(subject);
  } else {
    // "a smiling person", but "Peter Taylor, smiling": names are not adjectives' hosts.
    const who = subject ?? (smiling ? pixelSubject.replace(/^a person/, 'a smiling person') : pixelSubject);
    const portrait = personCount === 1 && isPortrait(people[0], faces[0]);
    let core: string;
    if (who && portrait && kind === 'photo')
      core = `${stats.greyscale ? 'Black-and-white portrait' : 'Portrait'} of ${who}`;
    else if (who && closeUp(objects) && kind === 'photo' && !subject)
      core = `${stats.greyscale ? 'Black-and-white close-up' : 'Close-up'} of ${who}`;
    else if (who) core = withKindPrefix(kind, stats, who);
    else if (text) core = `${stats.greyscale ? 'Black-and-white photograph' : 'Photograph'} of text`;
    else core = describeScene(kind, stats);
    // Only when the person is the whole subject, so the colour cannot attach to "a motorcycle".
    const wearing =
      personCount === 1 && faces.length === 1 && input.clothingColour && !stats.greyscale && !things
        ? ` wearing ${input.clothingColour}`
        : '';
    core += wearing;
    if (smiling && subject) core += ', smiling';
    if (who && subject && things) core += `${smiling ? ',' : ''} with ${things}`;
    if (text) core += who ? ` with the text ${quote(text)}` : ` reading ${quote(text)}`;
    else if (who && !portrait && kind === 'photo' && !subject) core += toneClause(stats);
    altText = core;
  }
  return {
    ...base,
    contextUsed: [...new Set(contextUsed)],
    altText: finish(altText),
    decorative: false,
    ...(text ? { textInImage: text } : {}),
  };
}

/** A face counts as a person only with a person box around it or a strong score and no animal there. */
function acceptFaces(faces: DetectedFace[], objects: DetectedObject[]): DetectedFace[] {
  const people = objects.filter((o) => o.label === 'person');
  const others = objects.filter((o) => o.label !== 'person' && nounFor(o.label).family === 'animal');
  return faces.filter((face) => {
    const centre: [number, number] = [face.box[0] + face.box[2] / 2, face.box[1] + face.box[3] / 2];
    if (people.some((p) => contains(p.box, centre))) return face.score >= 0.5;
    if (others.some((o) => contains(o.box, centre))) return false;
    return face.score >= 0.8;
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

function describedByPage(
  context: PageContext,
  objects: DetectedObject[],
  personCount: number,
): { text: string; source: keyof PageContext } | undefined {
  const seen = objects.map((o) =>
    o.score >= specificScore ? wordsFor(o.label) : familyWords(nounFor(o.label).family),
  );
  if (personCount > 0 && !objects.some((o) => o.label === 'person')) seen.push(wordsFor('person'));
  for (const source of ['caption', 'existingAlt'] as const) {
    const value = context[source];
    if (!value || (source === 'existingAlt' && !isDescriptiveAlt(value, context.fileName))) continue;
    const sentence = firstSentence(value);
    if (sentence.length < 8) continue;
    // With nothing recognised we cannot contradict the page; otherwise it must mention what we see.
    const agrees = seen.length === 0 || seen.some((words) => mentionsAny(sentence, words));
    if (agrees) return { text: sentence, source };
  }
  return undefined;
}

function withKindPrefix(kind: ImageKind, stats: PixelStats, body: string): string {
  if (kind === 'illustration')
    return `${stats.greyscale ? 'Black-and-white illustration' : 'Illustration'} of ${lower(body)}`;
  if (stats.greyscale) return `Black-and-white photograph of ${lower(body)}`;
  return capitalise(body);
}

function describeScene(kind: ImageKind, stats: PixelStats): string {
  const tones = stats.colours.length ? ` in ${joinList(stats.colours)} tones` : '';
  if (kind === 'blank') return 'Plain background';
  if (kind === 'illustration')
    return stats.greyscale
      ? 'Black-and-white graphic with no clearly recognisable subject'
      : `Graphic${tones}`;
  if (stats.greyscale)
    return `${stats.brightness === 'dark' ? 'Dark black-and-white' : 'Black-and-white'} photograph with no clearly recognisable subject`;
  const light =
    stats.brightness === 'dark'
      ? 'Dark photograph'
      : stats.brightness === 'bright'
        ? 'Bright photograph'
        : 'Photograph';
  return `${light}${tones}`;
}

function toneClause(stats: PixelStats): string {
  if (stats.greyscale || stats.colours.length === 0) return '';
  return `, in ${joinList(stats.colours.slice(0, 2))} tones`;
}

function describeGraphic(
  kind: ImageKind,
  text: string,
  firstLine: string,
  stats: PixelStats,
  subject: string,
): string {
  const background =
    stats.topColourShare >= 0.4 && stats.colours[0] ? ` on a ${stats.colours[0]} background` : '';
  const chartColours = stats.colours.filter((c) => c !== 'white' && c !== 'black' && c !== 'grey');
  switch (kind) {
    case 'logo':
      return text
        ? `${quote(firstLine)} logo`
        : `Logo in ${joinList(stats.colours.slice(0, 2)) || 'plain colours'}`;
    case 'chart': {
      const title = text && !/^\W*[\d.,%$€£\s]+$/.test(firstLine) ? ` titled ${quote(firstLine)}` : '';
      return `Chart${title}${chartColours.length ? ` in ${joinList(chartColours)}` : ''}`;
    }
    case 'screenshot':
      return `Screenshot of ${subject ? `${lower(subject)} with ` : ''}text reading ${quote(text)}`;
    default:
      return `Text${background}: ${quote(text)}`;
  }
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
  if (words >= 15) return screenShaped ? 'screenshot' : 'text';
  if (words >= 4 && ocr.numbers >= 3 && ocr.numbers / words >= 0.3) return 'chart';
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
  if (width * height <= 400 || Math.min(width, height) <= 4) return true;
  if (text || objects.length > 0) return false;
  if (stats.uniform) return true;
  // A near-flat background: almost no edges and almost no contrast. Low-contrast pictures
  // (a dim X-ray, a foggy photo) have contrast even without hard edges, and are described.
  return stats.edgeShare < 0.002 && stats.lumaStd < 10;
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
