import { createRequire } from 'node:module';
import { createWorker, OEM, type Worker as TesseractWorker } from 'tesseract.js';

/**
 * The engine's OCR before ADR 042, kept unchanged as the bench's baseline (`npm run bench:ocr --
 * --tesseract`): tesseract.js with the English traineddata shipped in @tesseract.js-data/eng,
 * low-confidence words dropped, a slow recognition abandoned after a time limit.
 */

const require = createRequire(import.meta.url);

export interface OcrWord {
  text: string;
  confidence: number;
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
}

let worker: Promise<TesseractWorker> | undefined;

export function loadOcr(): Promise<TesseractWorker> {
  worker ??= createOcrWorker();
  return worker;
}

async function createOcrWorker(): Promise<TesseractWorker> {
  const eng = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };
  const created = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: eng.langPath,
    gzip: eng.gzip,
    cacheMethod: 'none',
    logger: () => {},
    errorHandler: () => {},
  });
  // Web images carry no usable DPI; without one tesseract guesses and warns on every image.
  await created.setParameters({ user_defined_dpi: '96' });
  return created;
}

export async function readText(
  png: Buffer,
  options: { minConfidence: number; timeoutMs: number },
): Promise<OcrResult> {
  const ocr = await loadOcr();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
  });
  const recognition = ocr.recognize(png, {}, { text: false, blocks: true });
  const outcome = await Promise.race([recognition, timeout]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    // Tesseract cannot be interrupted: replace the busy worker so the next image does not queue behind it.
    worker = undefined;
    void ocr.terminate().catch(() => {});
    recognition.catch(() => {});
    return { text: '', confidence: 0, words: 0, numbers: 0, timedOut: true };
  }
  const lines: OcrWord[][] = [];
  for (const block of outcome.data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        lines.push(line.words.map((w) => ({ text: w.text, confidence: w.confidence })));
      }
    }
  }
  return acceptWords(lines, options.minConfidence);
}

const wordPattern = /^[\p{L}\p{N}][\p{L}\p{N}'’&.,:;!?%$€£/+-]*$/u;
const numberPattern = /^[$€£]?\d[\d.,]*%?$/;

/**
 * Keeps words that look like words and are read confidently; a line survives when most of its
 * words do. Pure so it can be unit-tested without tesseract.
 */
export function acceptWords(lines: OcrWord[][], minConfidence: number): OcrResult {
  const kept: string[] = [];
  let confidenceSum = 0;
  let words = 0;
  let numbers = 0;
  for (const line of lines) {
    const good = line.filter((w) => {
      const text = w.text.trim();
      if (w.confidence < minConfidence || !wordPattern.test(text)) return false;
      const letters = text.replace(/[^\p{L}]/gu, '').length;
      return letters >= 2 || numberPattern.test(text) || /^[AI]$/i.test(text);
    });
    // Most of a line must read as words; stray marks beside a word ("( Acme") do not sink it.
    if (good.length === 0 || good.length < Math.ceil(line.length * 0.5)) continue;
    kept.push(good.map((w) => w.text.trim()).join(' '));
    for (const w of good) {
      confidenceSum += w.confidence;
      words++;
      if (numberPattern.test(w.text.trim())) numbers++;
    }
  }
  // A single short word read from a photograph is more often texture than text.
  const onlyNoise = words === 1 && (kept[0]?.length ?? 0) < 3;
  if (words === 0 || onlyNoise) return { text: '', confidence: 0, words: 0, numbers: 0, timedOut: false };
  return {
    text: kept.join('\n'),
    confidence: Math.round(confidenceSum / words),
    words,
    numbers,
    timedOut: false,
  };
}

export async function closeOcr(): Promise<void> {
  const current = worker;
  worker = undefined;
  if (current) await (await current).terminate();
}
