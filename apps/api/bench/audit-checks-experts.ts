/**
 * The audit's checks on alt text experts wrote (ADR 060): the false-fail measure. Every problem the
 * checks find on an expert's alt is a candidate false alarm, so the new codes must stay near zero.
 *   node apps/api/bench/audit-checks-experts.ts [--graphics web-graphics-dev]
 *     [--photos quality-dev] [--limit N]
 * Web graphics: each entry's HTML snippet, with the expert's alt kept, read by the audit's own
 * readPage; photos: the human alt with the caption. Each image's pixels are read by the offline
 * engine's OCR exactly as the audit's pixel check reads them (evidenceOf), then checkPageImages runs.
 * Prints the problems per code and each image that got one.
 */

import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultEngineOptions } from '../src/engines/engine-options.ts';
import { createOfflineEngine } from '../src/engines/offline/offline-engine.ts';
import { evidenceOf } from '../src/modules/audit/pixel-check.ts';
import { readPage } from '../src/pages/extract-page.ts';
import { type AuditImageFacts, checkPageImages } from '../src/rules/checks.ts';
import { resolveSet } from './lib/sets.ts';
import type { GraphicRef } from './web-graphics.ts';

const { values } = parseArgs({
  options: {
    graphics: { type: 'string', default: 'web-graphics-dev' },
    photos: { type: 'string', default: 'quality-dev' },
    limit: { type: 'string' },
  },
});
const limit = values.limit ? Number(values.limit) : undefined;
const engine = createOfflineEngine(defaultEngineOptions());
await engine.warmUp();
const readText = engine.readImageText?.bind(engine);
if (!readText) throw new Error('the offline engine reads pixels');
const read = readText;

async function withPixels(facts: AuditImageFacts, file: string): Promise<AuditImageFacts> {
  const pixels = evidenceOf(await read(await readFile(file)));
  return {
    ...facts,
    ...(pixels.informative !== undefined ? { informative: pixels.informative } : {}),
    ...(pixels.text ? { imageText: pixels.text } : {}),
    ...(pixels.confidence !== undefined ? { imageTextConfidence: pixels.confidence } : {}),
  };
}

const byCode = new Map<string, number>();
const flagged: string[] = [];
function count(id: string, alt: string | null, facts: AuditImageFacts[], index: number) {
  const verdict = checkPageImages(facts)[index];
  for (const problem of verdict?.problems ?? []) {
    byCode.set(problem.code, (byCode.get(problem.code) ?? 0) + 1);
    flagged.push(
      `${id}\t${problem.code}\t${JSON.stringify(alt)}\t${problem.message}\t${facts[index]?.imageTextConfidence ?? ''}`,
    );
  }
}

let graphics = 0;
const graphicsDir = resolveSet(values.graphics);
const refs = (JSON.parse(await readFile(join(graphicsDir, 'refs.json'), 'utf8')) as GraphicRef[]).slice(
  0,
  limit,
);
for (const ref of refs) {
  const pageUrl = new URL(ref.context.pageUrl ?? 'https://example.org/page');
  const page = readPage(`<div>${ref.context.html}</div>`, pageUrl);
  const file = basename(ref.file);
  const candidates = page.images
    .map((facts, index) => ({ facts, index }))
    .filter(({ facts }) => basename(new URL(facts.src, pageUrl).pathname) === file);
  const position = Number(/^(\d+) of \d+$/.exec(ref.context.positionInGroup ?? '')?.[1] ?? 0);
  const target =
    candidates.find(({ facts }) => (facts.alt ?? '').trim() === ref.alt.trim()) ??
    candidates[position > 0 ? position - 1 : 0];
  if (!target) continue;
  graphics++;
  const images = [...page.images];
  images[target.index] = await withPixels(target.facts, join(graphicsDir, ref.file));
  count(ref.id, target.facts.alt, images, target.index);
}

let photos = 0;
const photosDir = resolveSet(values.photos);
const photoRefs = (
  JSON.parse(await readFile(join(photosDir, 'refs.json'), 'utf8')) as Array<{
    file: string;
    alt: string;
    caption: string;
  }>
).slice(0, limit);
for (const ref of photoRefs) {
  photos++;
  const facts: AuditImageFacts = {
    pageUrl: 'https://en.wikipedia.org/wiki/Example',
    src: `https://upload.wikimedia.org/${ref.file}`,
    alt: ref.alt,
    element: 'img',
    role: ref.caption ? 'figure' : 'content',
    ...(ref.caption ? { caption: ref.caption } : {}),
  };
  count(ref.file, ref.alt, [await withPixels(facts, join(photosDir, 'images', ref.file))], 0);
}
await engine.close();

process.stdout.write(`audit checks on experts' alts: ${graphics} web graphics, ${photos} photos\n`);
for (const [code, n] of [...byCode].sort()) process.stdout.write(`${code.padEnd(24)} ${n}\n`);
process.stdout.write(`${flagged.join('\n')}\n`);
