/**
 * The audit's checks on alt text experts wrote (ADR 060): the false-fail measure. Every problem the
 * checks find on an expert's alt is a candidate false alarm, so the new codes must stay near zero.
 *   node apps/api/bench/audit-checks-experts.ts [--graphics web-graphics-dev]
 *     [--photos quality-dev] [--limit N]
 * Web graphics: each entry's HTML snippet, with the expert's alt kept, read by the audit's own
 * readPage; photos: the human alt with the caption. Each image's pixels are read by the offline
 * engine's OCR exactly as the audit's pixel check reads them (evidenceOf), then checkPageImages runs.
 * Prints the problems per code and each image that got one.
 * With --out, also writes JSON (`eval:publish` reads it): each alt's problems with the entry's kind,
 * and the seeded faults: each web graphic's snippet with its expert alt removed, replaced by its
 * file name or by "image", or emptied, and whether the checks name the fault.
 */

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { AuditFault } from '@altwise/contracts/accuracy';
import type { AuditProblemCode } from '@altwise/contracts/audit-problems';
import { defaultEngineOptions } from '../src/engines/engine-options.ts';
import { createOfflineEngine } from '../src/engines/offline/offline-engine.ts';
import { evidenceOf } from '../src/modules/audit/pixel-check.ts';
import { readPage } from '../src/pages/extract-page.ts';
import { type AuditImageFacts, checkPageImages } from '../src/rules/checks.ts';
import { resolveSet } from './lib/sets.ts';
import { type GraphicRef, pageForGraphic } from './web-graphics.ts';

const { values } = parseArgs({
  options: {
    graphics: { type: 'string', default: 'web-graphics-dev' },
    photos: { type: 'string', default: 'quality-dev' },
    limit: { type: 'string' },
    out: { type: 'string' },
  },
});
const limit = values.limit ? Number(values.limit) : undefined;
const engine = createOfflineEngine(defaultEngineOptions());
await engine.warmUp();
const readText = engine.readImageText?.bind(engine);
if (!readText) throw new Error('the offline engine reads pixels');
const read = readText;

const evidence = new Map<string, ReturnType<typeof evidenceOf>>();
async function withPixels(facts: AuditImageFacts, file: string): Promise<AuditImageFacts> {
  const pixels = evidence.get(file) ?? evidenceOf(await read(await readFile(file)));
  evidence.set(file, pixels);
  return {
    ...facts,
    ...(pixels.informative !== undefined ? { informative: pixels.informative } : {}),
    ...(pixels.text ? { imageText: pixels.text } : {}),
    ...(pixels.confidence !== undefined ? { imageTextConfidence: pixels.confidence } : {}),
  };
}

const byCode = new Map<string, number>();
const flagged: string[] = [];
/** Each expert alt and the problems the checks found on it: every one a false alarm. */
const judged: Array<{ id: string; kind: string; problems: AuditProblemCode[]; failed: boolean }> = [];
function count(id: string, kind: string, alt: string | null, facts: AuditImageFacts[], index: number) {
  const verdict = checkPageImages(facts)[index];
  judged.push({
    id,
    kind,
    problems: (verdict?.problems ?? []).map((problem) => problem.code),
    failed: verdict?.verdict === 'fail',
  });
  for (const problem of verdict?.problems ?? []) {
    byCode.set(problem.code, (byCode.get(problem.code) ?? 0) + 1);
    flagged.push(
      `${id}\t${problem.code}\t${JSON.stringify(alt)}\t${problem.message}\t${facts[index]?.imageTextConfidence ?? ''}`,
    );
  }
}

/** The checks that name each planted fault: any of them counts as caught. */
const faultCodes: Record<AuditFault, AuditProblemCode[]> = {
  'alt-removed': ['missing'],
  'file-name-alt': ['file-name'],
  'placeholder-alt': ['placeholder', 'vague'],
  'empty-alt-in-link': ['link-without-purpose'],
  'empty-alt-on-meaningful': ['empty-but-informative'],
};
const seeded: Array<{
  id: string;
  kind: string;
  fault: AuditFault;
  caught: boolean;
  codes: AuditProblemCode[];
}> = [];
// pageForGraphic drops the expert's alt and marks the image's address with this query.
const targetMark = '?altwise-eval-target"';

/**
 * The entry's page with a fault planted on its image (its alt removed, set to the file's name or to
 * "image", or emptied: an empty alt is a fault where the expert gave words), read and judged as the
 * audit reads a page, with the pixel check's evidence for the image.
 */
async function seedFaults(ref: GraphicRef) {
  let page: string;
  try {
    page = pageForGraphic(ref);
  } catch {
    return [];
  }
  if (!page.includes(targetMark)) return [];
  const pageUrl = new URL(ref.context.pageUrl ?? 'https://example.org/page');
  const judge = async (alt: string | null) => {
    const html = alt === null ? page : page.replace(targetMark, `${targetMark} alt="${alt}"`);
    const images = [...readPage(html, pageUrl).images];
    const index = images.findIndex((facts) => facts.src.endsWith(targetMark.slice(0, -1)));
    const target = images[index];
    if (!target) return undefined;
    images[index] = await withPixels(target, join(graphicsDir, ref.file));
    return { facts: target, codes: (checkPageImages(images)[index]?.problems ?? []).map((p) => p.code) };
  };
  const removed = await judge(null);
  if (!removed) return [];
  const onlyContent =
    (removed.facts.role === 'link' || removed.facts.role === 'button') && !removed.facts.linkText?.trim();
  const faults: Array<[AuditFault, string | null]> = [
    ['alt-removed', null],
    ['file-name-alt', basename(ref.file)],
    ['placeholder-alt', 'image'],
  ];
  if (ref.kind !== 'decorative')
    faults.push([onlyContent ? 'empty-alt-in-link' : 'empty-alt-on-meaningful', '']);
  const rows = [];
  for (const [fault, alt] of faults) {
    const codes = fault === 'alt-removed' ? removed.codes : ((await judge(alt))?.codes ?? []);
    rows.push({
      id: ref.id,
      kind: ref.kind,
      fault,
      caught: faultCodes[fault].some((code) => codes.includes(code)),
      codes,
    });
  }
  return rows;
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
  count(ref.id, ref.kind, target.facts.alt, images, target.index);
  seeded.push(...(await seedFaults(ref)));
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
  count(ref.file, 'photo', ref.alt, [await withPixels(facts, join(photosDir, 'images', ref.file))], 0);
}
await engine.close();

process.stdout.write(`audit checks on experts' alts: ${graphics} web graphics, ${photos} photos\n`);
for (const [code, n] of [...byCode].sort()) process.stdout.write(`${code.padEnd(24)} ${n}\n`);
process.stdout.write(`${flagged.join('\n')}\n`);
const caught = seeded.filter((row) => row.caught).length;
process.stdout.write(`seeded faults caught: ${caught} of ${seeded.length}\n`);
for (const row of seeded.filter((r) => !r.caught))
  process.stdout.write(`  missed\t${row.id}\t${row.kind}\t${row.fault}\t${row.codes.join(',')}\n`);
if (values.out) {
  const outFile = resolve(process.env.INIT_CWD ?? process.cwd(), values.out);
  await mkdir(dirname(outFile), { recursive: true });
  await writeFile(outFile, `${JSON.stringify({ judged, faultCodes, seeded }, null, 2)}\n`);
}
