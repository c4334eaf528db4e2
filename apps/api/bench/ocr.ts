import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { printBenchJson, round } from '../../../scripts/lib/bench-json.ts';
import { engineOptionsFromEnv } from '../src/engines/engine-options.ts';
import { closeOcr, loadOcr, ocrModelName, readText, tidyLineText } from '../src/engines/offline/ocr.ts';
import { encodePng, prepareImage } from '../src/engines/prepare-image.ts';
import { optionalSet, resolveSet } from './lib/sets.ts';
import * as tesseract from './lib/tesseract-ocr.ts';
import { type GraphicKind, syntheticSet } from './synthetic-graphics.ts';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '210' },
    seed: { type: 'string', default: '19' },
    set: { type: 'string' },
    tesseract: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

const options = engineOptionsFromEnv({ ...process.env, ALT_TEXT_ENGINE: 'offline' });
const ocrOptions = { minConfidence: options.offline.ocrMinConfidence, timeoutMs: 60_000 };
const reader = args.tesseract
  ? {
      name: 'tesseract-5/eng-lstm',
      load: tesseract.loadOcr,
      read: tesseract.readText,
      close: tesseract.closeOcr,
    }
  : { name: ocrModelName, load: loadOcr, read: readText, close: closeOcr };

/** Levenshtein distance over code points. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[y.length] ?? 0;
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

async function readImage(bytes: Buffer): Promise<{ text: string; ms: number }> {
  const prepared = await prepareImage(bytes, options.limits);
  const png = await encodePng(prepared);
  const t0 = performance.now();
  const result = await reader.read(png, ocrOptions);
  return { text: result.text, ms: performance.now() - t0 };
}

const loadStarted = performance.now();
await reader.load();
const loadMs = performance.now() - loadStarted;

// Synthetic web graphics.
const set = await syntheticSet(Number(args.count), Number(args.seed));
const byKind = new Map<
  GraphicKind,
  { errors: number; chars: number; words: number; wordsRight: number; n: number }
>();
let errors = 0;
let chars = 0;
let words = 0;
let wordsRight = 0;
const times: number[] = [];
for (const graphic of set) {
  const reference = flat(graphic.lines.join(' '));
  const { text, ms } = await readImage(graphic.image);
  times.push(ms);
  const hypothesis = flat(text);
  const distance = editDistance(hypothesis, reference);
  // Exact words: each reference word matched at most once by an identical read word.
  const pool = hypothesis.split(' ');
  let right = 0;
  for (const word of reference.split(' ')) {
    const at = pool.indexOf(word);
    if (at >= 0) {
      right++;
      pool.splice(at, 1);
    }
  }
  const count = reference.split(' ').length;
  errors += distance;
  chars += reference.length;
  words += count;
  wordsRight += right;
  const kind = byKind.get(graphic.kind) ?? { errors: 0, chars: 0, words: 0, wordsRight: 0, n: 0 };
  kind.errors += distance;
  kind.chars += reference.length;
  kind.words += count;
  kind.wordsRight += right;
  kind.n++;
  byKind.set(graphic.kind, kind);
  if (args.verbose && distance > 0)
    console.log(`  ${graphic.id}${graphic.jpeg ? ' (jpeg)' : ''}: "${reference}" read "${hypothesis}"`);
}

const percent = (a: number, b: number) => (b === 0 ? 0 : (100 * a) / b);
console.log(`OCR ${reader.name}: models loaded in ${Math.round(loadMs)} ms`);
console.log(`Synthetic web graphics: ${set.length} images (seed ${args.seed})`);
console.log('kind      images   CER     exact words');
for (const [kind, k] of byKind) {
  console.log(
    `${kind.padEnd(9)} ${String(k.n).padStart(6)} ${percent(k.errors, k.chars).toFixed(1).padStart(5)} % ${percent(k.wordsRight, k.words).toFixed(1).padStart(7)} %`,
  );
}
const cer = percent(errors, chars);
const wordAccuracy = percent(wordsRight, words);
console.log(
  `all       ${String(set.length).padStart(6)} ${cer.toFixed(1).padStart(5)} % ${wordAccuracy.toFixed(1).padStart(7)} %`,
);
times.sort((a, b) => a - b);
const p50 = times[Math.floor(times.length / 2)] ?? 0;
console.log(`OCR time per image: p50 ${Math.round(p50)} ms, max ${Math.round(times.at(-1) ?? 0)} ms`);

// web-graphics-dev: the `text` entries, read exactly.
interface Ref {
  id: string;
  file: string;
  kind: string;
  alt: string;
}
/**
 * What each image visibly says (the expert alt adds an explanation or expands an abbreviation,
 * which no OCR can read): transcribed by looking at the images. Entries not listed here are
 * compared with their alt.
 */
const visibleText: Record<string, string> = {
  'textual-recurring-decimal': '0.3333',
  'media-guide-sign-button': 'Auslan',
  'courses-video-tagline': 'Accessibility: Essential for some, useful for all',
  'wcag-G211-call-me': 'CALL me when balance exceeds $ 10,000 Yes No',
  'wcag-G211-rate-response': 'Rate your response Hated it Loved it',
};
const setDir = args.set ? resolveSet(args.set) : optionalSet('web-graphics-dev');
let textEntries = 0;
let textExact = 0;
let textExactSpacing = 0;
if (setDir) {
  const refs = (JSON.parse(await readFile(join(setDir, 'refs.json'), 'utf8')) as Ref[]).filter(
    (r) => r.kind === 'text',
  );
  console.log(`\nweb-graphics-dev text entries (${setDir}), case-insensitive, whitespace collapsed:`);
  for (const ref of refs) {
    const expected = flat(visibleText[ref.id] ?? ref.alt);
    const { text } = await readImage(await readFile(join(setDir, ref.file)));
    // "As written": both sides in the product's writing convention (tidyLineText: a currency sign
    // joined to its amount, "$ 10,000" → "$10,000", as expert alts write amounts); "spacing": the
    // image's own spacing, letter for letter.
    const asWritten = (t: string) => flat(tidyLineText(t)).toLowerCase();
    const exact = asWritten(text) === asWritten(expected);
    const exactSpacing = flat(text).toLowerCase() === expected.toLowerCase();
    textEntries++;
    if (exact) textExact++;
    if (exactSpacing) textExactSpacing++;
    const note = exact
      ? exactSpacing
        ? ''
        : ` (the image's spacing: "${expected}")`
      : ` (expected "${expected}")`;
    console.log(`  ${exact ? 'exact' : 'WRONG'}  ${ref.id}: "${flat(text)}"${note}`);
  }
  console.log(
    `read exactly: ${textExact} of ${textEntries} as written; ${textExactSpacing} of ${textEntries} with the image's own spacing`,
  );
} else {
  console.log(`\nweb-graphics-dev not found at ${setDir}: pass --set`);
}
await reader.close();

printBenchJson('ocr', {
  model: reader.name,
  images: set.length,
  seed: Number(args.seed),
  cerPercent: round(cer, 2),
  exactWordPercent: round(wordAccuracy, 1),
  p50Ms: Math.round(p50),
  textEntries,
  textExact,
  textExactSpacing,
  loadMs: Math.round(loadMs),
  byKind: [...byKind].map(([kind, k]) => ({
    kind,
    images: k.n,
    cerPercent: round(percent(k.errors, k.chars), 2),
    exactWordPercent: round(percent(k.wordsRight, k.words), 1),
  })),
});
