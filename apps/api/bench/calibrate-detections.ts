/**
 * Detector calibration (ADR 067): runs the offline engine's detector on a photo set with editors'
 * alt text and reports, per score band, how often a detection agrees with the reference, that is
 * the reference alt (or its caption) names the detected thing. The thresholds in
 * src/engines/calibration.ts are read off this table.
 *   node apps/api/bench/calibrate-detections.ts --set quality-dev
 */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { engineOptionsFromEnv } from '../src/engines/engine-options.ts';
import { measurePixels } from '../src/engines/image-stats.ts';
import { nounFor, wordsFor } from '../src/engines/offline/vocabulary.ts';
import { WorkerPool } from '../src/engines/offline/worker-pool.ts';
import { encodePng, prepareImage } from '../src/engines/prepare-image.ts';
import { resolveSet } from './lib/sets.ts';

const { values } = parseArgs({ options: { set: { type: 'string' } } });
if (!values.set) {
  process.stderr.write('usage: node apps/api/bench/calibrate-detections.ts --set <folder>\n');
  process.exit(2);
}
const setDir = resolveSet(values.set);
const refs = JSON.parse(await readFile(join(setDir, 'refs.json'), 'utf8')) as Array<{
  file: string;
  alt: string;
}>;
const options = engineOptionsFromEnv({ ...process.env, ALT_TEXT_ENGINE: 'offline' });
const pool = new WorkerPool({ size: options.offline.workers, maxQueue: 1000 });
await pool.start();

/** Words of the reference, lower-case. */
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/\p{L}+/gu) ?? []);
const personWords = [...wordsFor('person'), 'portrait', 'he', 'she', 'his', 'her', 'player', 'actor'];

interface Sample {
  kind: 'person' | 'face in person' | 'face alone' | 'animal' | 'vehicle' | 'other';
  score: number;
  agrees: boolean;
}
const samples: Sample[] = [];
for (const ref of refs) {
  const prepared = await prepareImage(await readFile(join(setDir, 'images', ref.file)), options.limits);
  await measurePixels(prepared);
  const models = await pool.run({
    rgb: new Uint8Array(prepared.rgb).buffer as ArrayBuffer,
    width: prepared.width,
    height: prepared.height,
    png: new Uint8Array(await encodePng(prepared)).buffer as ArrayBuffer,
    ocr: { minConfidence: options.offline.ocrMinConfidence, timeoutMs: options.offline.ocrTimeoutMs },
  });
  const said = wordsOf(ref.alt);
  const mentions = (words: string[]) => words.some((word) => said.has(word.toLowerCase()));
  const people = mentions(personWords) || /\b\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+/u.test(ref.alt);
  for (const o of models.objects) {
    if (o.area < 0.004) continue;
    const family = nounFor(o.label).family;
    const kind =
      o.label === 'person' ? 'person' : family === 'animal' || family === 'vehicle' ? family : 'other';
    samples.push({
      kind,
      score: o.score,
      agrees: o.label === 'person' ? people : mentions(wordsFor(o.label)),
    });
  }
  const personBoxes = models.objects.filter((o) => o.label === 'person' && o.score >= 0.5);
  for (const f of models.faces) {
    const [x, y, w, h] = f.box;
    const inside = personBoxes.some(
      ({ box: [bx, by, bw, bh] }) =>
        x + w / 2 >= bx && x + w / 2 <= bx + bw && y + h / 2 >= by && y + h / 2 <= by + bh,
    );
    samples.push({ kind: inside ? 'face in person' : 'face alone', score: f.score, agrees: people });
  }
}
await pool.close();

const bands = [0.25, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const lines = [`detector agreement with editors' alt text: ${refs.length} images from ${setDir}`];
lines.push(`kind           ${bands.map((b) => `>=${b.toFixed(2)}`.padStart(13)).join('')}`);
for (const kind of ['person', 'face in person', 'face alone', 'animal', 'vehicle', 'other'] as const) {
  const cells = bands.map((band) => {
    const at = samples.filter((s) => s.kind === kind && s.score >= band);
    const agree = at.filter((s) => s.agrees).length;
    return `${agree}/${at.length} ${at.length ? Math.round((100 * agree) / at.length) : 0}%`.padStart(13);
  });
  lines.push(`${kind.padEnd(15)}${cells.join('')}`);
}
process.stdout.write(`${lines.join('\n')}\n`);
