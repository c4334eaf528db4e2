import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { rgbToHsl } from '../image-stats.ts';
import {
  blurMask,
  coarseMask,
  markSize,
  overlap,
  type QueryShape,
  queryShapes,
  toBytes,
  unpackMask,
} from './mark-shape.ts';

/**
 * Recognising well-known marks offline (ADR 063): brands from simple-icons (CC0) and common
 * pictograms from Lucide (ISC) and Material Symbols (Apache-2.0), rendered once into
 * `mark-index.bin` by `scripts/build-mark-index.ts`. The index loads once per engine worker (about
 * 4.5 MB of blurred masks in bytes); one match compares an image's shapes with every mark of a similar
 * aspect, a few milliseconds. A match is claimed only when it is strong and clearly ahead of the
 * next different mark; a brand's colour (its `hex`) adds to a match, the wrong colour takes away.
 */

export interface MarkIndexEntry {
  set: 'brand' | 'pictogram';
  /** A brand's title ("HTML5"), or a pictogram concept's id (icons.ts). */
  name: string;
  /** A brand's colour, six hex digits. */
  hex?: string;
  /** `mark`: the drawn shape; `inner`: the holes inside it (a tile with the mark cut out). */
  variant: 'mark' | 'inner';
  aspect: number;
}

export interface MarkIndexHeader {
  format: 1;
  /** The versions of the sets the index was rendered from. */
  sources: Record<string, string>;
  entries: MarkIndexEntry[];
}

export interface MarkIndex {
  header: MarkIndexHeader;
  /** Blurred 32×32 masks, one per entry, as bytes (0..255). */
  masks: Uint8Array[];
  /** The same masks at 16×16, for a first cheap pass. */
  coarse: Uint8Array[];
  /** Each mask's total coverage (sum of its bytes): bounds the overlap before it is computed. */
  sums: Float64Array;
}

/** How many brands the cheap 16×16 pass hands to the full comparison, per shape (and 16 pictograms). */
const shortlist = 48;

export interface MarkCandidate {
  set: 'brand' | 'pictogram';
  name: string;
  score: number;
  /** For a brand: the image's colour agrees with the brand's (true), contradicts it (false), or says nothing. */
  colourAgrees?: boolean;
}

export interface RecognisedMark extends MarkCandidate {
  /** How far ahead of the best different mark. */
  margin: number;
}

/**
 * When a match is strong enough to name the picture (measured on renders of the sets at 24–96 px in
 * their own colours, inverted and on tiles, and on web-graphics-dev; ADR 063). A pictogram is one
 * of ~40 concepts and needs to beat the next concept clearly; a brand is one of 3,300 and needs a
 * closer match, and its own colour or an even closer one. A mark drawn under 20 px has too few
 * pixels to tell marks apart.
 */
export const pictogramScore = 0.72;
export const brandScore = 0.85;
export const brandScoreWithoutColour = 0.88;
export const minMargin = 0.06;
export const minMarkSide = 20;

const indexUrl = new URL('./mark-index.bin', import.meta.url);

export function loadMarkIndex(bytes: Uint8Array = readFileSync(indexUrl)): MarkIndex {
  const raw = brotliDecompressSync(bytes);
  const headerLength = raw.readUInt32LE(0);
  const header = JSON.parse(raw.subarray(4, 4 + headerLength).toString('utf8')) as MarkIndexHeader;
  const body = raw.subarray(4 + headerLength);
  const stride = (markSize * markSize) / 8;
  // Two scratch arrays for all 4,400 marks: loading leaves no garbage to raise the worker's peak.
  const bits = new Float32Array(markSize * markSize);
  const blurred = new Float32Array(markSize * markSize);
  const masks = header.entries.map((_, i) =>
    toBytes(blurMask(unpackMask(body, i * stride, bits), 1, blurred)),
  );
  return { header, masks, coarse: masks.map(coarseMask), sums: Float64Array.from(masks, sumOf) };
}

let shared: MarkIndex | undefined;
/** The index, loaded on first use and kept for the life of the thread. */
export function markIndex(): MarkIndex {
  shared ??= loadMarkIndex();
  return shared;
}

/** The marks an image's shapes resemble most, best first, one per name. */
export function rankMarks(
  rgb: Uint8Array,
  width: number,
  height: number,
  index: MarkIndex = markIndex(),
  limit = 5,
): MarkCandidate[] {
  const shapes = queryShapes(rgb, width, height).filter((shape) => shape.side >= minMarkSide);
  const best = new Map<string, MarkCandidate>();
  for (const shape of shapes) {
    const query = toBytes(blurMask(shape.mask.map((v) => (v >= 0.5 ? 1 : 0))));
    const covered = sumOf(query);
    const sketch = coarseMask(query);
    const tone = colourOf(shape);
    // First pass: every mark of a similar aspect and coverage, at 16×16; then the best at 32×32.
    const rough: Array<[number, number]> = [];
    for (const [i, entry] of index.header.entries.entries()) {
      if (Math.abs(Math.log(shape.aspect / entry.aspect)) > 0.3) continue;
      // The overlap can be no higher than the two coverages allow: most marks are skipped unread.
      if (overlapBound(covered, index.sums[i] ?? 0) < 0.5) continue;
      rough.push([overlap(sketch, index.coarse[i] as Uint8Array, 255), i]);
    }
    rough.sort((a, b) => b[0] - a[0]);
    // Both sets keep their best few: a pictogram's margin is measured against the next pictogram.
    const brands = rough.filter(([, i]) => index.header.entries[i]?.set === 'brand').slice(0, shortlist);
    const pictograms = rough.filter(([, i]) => index.header.entries[i]?.set === 'pictogram').slice(0, 16);
    for (const [, i] of [...brands, ...pictograms]) {
      const entry = index.header.entries[i] as MarkIndexEntry;
      let score = overlap(query, index.masks[i] as Uint8Array, 255);
      if (score < 0.5) continue;
      let colourAgrees: boolean | undefined;
      if (entry.set === 'brand' && entry.hex) {
        colourAgrees = agrees(tone, entry.hex);
        if (colourAgrees === true) score = Math.min(1, score + 0.04);
        else if (colourAgrees === false) score -= 0.04;
      }
      const key = `${entry.set}:${entry.name}`;
      const previous = best.get(key);
      if (!previous || previous.score < score)
        best.set(key, {
          set: entry.set,
          name: entry.name,
          score,
          ...(colourAgrees === undefined ? {} : { colourAgrees }),
        });
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}

/** The mark an image is, when the match is strong and clearly ahead of any other. */
export function recogniseMark(
  rgb: Uint8Array,
  width: number,
  height: number,
  index: MarkIndex = markIndex(),
): RecognisedMark | undefined {
  const ranked = rankMarks(rgb, width, height, index, 40);
  const brands = ranked.filter((candidate) => candidate.set === 'brand');
  const pictograms = ranked.filter((candidate) => candidate.set === 'pictogram');
  const claims: RecognisedMark[] = [];
  const [brand, nextBrand] = brands;
  if (brand && brand.colourAgrees !== false) {
    const margin = brand.score - (nextBrand?.score ?? 0.5);
    const bar = brand.colourAgrees ? brandScore : brandScoreWithoutColour;
    if (brand.score >= bar && margin >= minMargin) claims.push({ ...brand, margin });
  }
  // Many brands are pictogram-like shapes (StockX's X, SearXNG's magnifier): a plain X is far more
  // often "close" than that brand, so only a brand strong enough to be claimed competes.
  const [pictogram, nextPictogram] = pictograms;
  if (pictogram) {
    const margin = pictogram.score - Math.max(nextPictogram?.score ?? 0.5, (claims[0]?.score ?? 0) - 0.04);
    if (pictogram.score >= pictogramScore && margin >= minMargin) claims.push({ ...pictogram, margin });
  }
  const best = claims.sort((a, b) => b.score - a.score)[0];
  if (!best) return undefined;
  return { ...best, score: round(best.score), margin: round(best.margin) };
}

function sumOf(mask: Uint8Array): number {
  let sum = 0;
  for (const value of mask) sum += value;
  return sum;
}

/** The most `overlap` can be for masks covering `a` and `b` (in bytes' units) of the grid. */
function overlapBound(a: number, b: number): number {
  const full = 255 * markSize * markSize;
  const marks = Math.min(a, b) / Math.max(a, b, 1);
  const space = Math.min(full - a, full - b) / Math.max(full - a, full - b, 1);
  return Math.sqrt(marks * space);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

type Tone = { hue: number; saturation: number; lightness: number };

function colourOf(shape: QueryShape): Tone {
  const [hue, saturation, lightness] = rgbToHsl(...shape.colour);
  return { hue, saturation, lightness };
}

/** Whether a mark's colour agrees with a brand's: only chromatic colours speak (black and white marks are common). */
function agrees(tone: Tone, hex: string): boolean | undefined {
  const value = Number.parseInt(hex, 16);
  const [hue, saturation, lightness] = rgbToHsl((value >> 16) & 255, (value >> 8) & 255, value & 255);
  const chromatic = (s: number, l: number) => s >= 0.3 && l >= 0.12 && l <= 0.9;
  if (!chromatic(saturation, lightness) || !chromatic(tone.saturation, tone.lightness)) return undefined;
  const difference = Math.abs(hue - tone.hue) % 360;
  return Math.min(difference, 360 - difference) <= 25;
}
