/**
 * The figures of the public /accuracy page (ADR 078): runs the evals on the development sets and the
 * OCR bench, and writes the report the page reads, validated by the schema the page parses it with.
 *   npm run eval:publish -- --quality <quality-dev folder> --graphics <web-graphics-dev folder> [--out file]
 * Runs, one after another (each loads the offline engine's models):
 *   eval-quality.ts on the photo set and on the web-graphics set (per-image rows as JSON lines),
 *   audit-checks-experts.ts on both (the audit on the experts' alts and on faults planted in them),
 *   ocr.ts on its synthetic graphics and the web-graphics set's images of text (its --json line).
 * Default output: apps/web/src/features/accuracy/accuracy.json, committed with the page.
 * `--limit N` (with `--out`) runs only the first N entries of each set and 7 OCR graphics: a quick
 * check of the pipeline, never a report to publish.
 */

import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type AccuracyInputs,
  type AuditRun,
  buildAccuracyReport,
  type GraphicRow,
  type OcrRun,
  type PhotoRow,
} from './lib/accuracy-report.ts';
import { resolveSet } from './lib/sets.ts';
import { isGraphicSet } from './web-graphics.ts';

const repo = resolve(import.meta.dirname, '../../..');
const bench = (file: string) => join(repo, 'apps/api/bench', file);
const usage =
  'usage: npm run eval:publish -- --quality <quality-dev folder> --graphics <web-graphics-dev folder> [--out file.json]\n';

const { values } = parseArgs({
  options: {
    quality: { type: 'string' },
    graphics: { type: 'string' },
    out: { type: 'string' },
    limit: { type: 'string' },
  },
});
const publishedReport = 'apps/web/src/features/accuracy/accuracy.json';

/** A set folder from its option, or the reason it cannot be used. */
async function setFrom(option: 'quality' | 'graphics', graphicSet: boolean): Promise<string> {
  const given = values[option];
  if (!given) throw new Error(`--${option} is missing.`);
  const dir = resolveSet(given);
  const refs = JSON.parse(await readFile(join(dir, 'refs.json'), 'utf8')) as unknown[];
  if (!Array.isArray(refs) || refs.length === 0) throw new Error(`${dir}/refs.json lists no entries.`);
  if (isGraphicSet(refs) !== graphicSet)
    throw new Error(
      `${dir} is ${graphicSet ? 'not a web-graphics set (entries with kind and context.html)' : 'a web-graphics set, not a photo set'}: check --quality and --graphics.`,
    );
  if (!existsSync(join(dir, 'images')) && !graphicSet) throw new Error(`${dir} has no images/ folder.`);
  return dir;
}

let qualityDir: string;
let graphicsDir: string;
try {
  qualityDir = await setFrom('quality', false);
  graphicsDir = await setFrom('graphics', true);
  if (values.limit && !values.out)
    throw new Error(`--limit needs --out: a partial run never replaces ${publishedReport}.`);
} catch (error) {
  process.stderr.write(`eval:publish: ${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const outFile = values.out
  ? resolve(process.env.INIT_CWD ?? process.cwd(), values.out)
  : join(repo, publishedReport);
const limit = values.limit ? ['--limit', values.limit] : [];

/** Runs one bench with this Node, its progress on our stderr; resolves to what it printed. */
function run(script: string, args: string[]): Promise<string> {
  process.stderr.write(`\n$ node ${script} ${args.join(' ')}\n`);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bench(script), ...args], {
      cwd: repo,
      env: { ...process.env, INIT_CWD: repo, ALT_TEXT_ENGINE: 'offline' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      process.stderr.write(chunk);
    });
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done(stdout) : fail(new Error(`${script} ended with exit code ${code}`)),
    );
  });
}

const readLines = async <T>(file: string): Promise<T[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

const work = await mkdtemp(join(tmpdir(), 'altwise-eval-publish-'));
try {
  const photoRows = join(work, 'quality.jsonl');
  const graphicRows = join(work, 'graphics.jsonl');
  const auditOut = join(work, 'audit.json');
  const photoText = await run('eval-quality.ts', ['--set', qualityDir, '--out', photoRows, ...limit]);
  await run('eval-quality.ts', ['--set', graphicsDir, '--out', graphicRows, ...limit]);
  await run('audit-checks-experts.ts', [
    '--graphics',
    graphicsDir,
    '--photos',
    qualityDir,
    '--out',
    auditOut,
    ...limit,
  ]);
  const ocrText = await run('ocr.ts', [
    '--set',
    graphicsDir,
    '--json',
    ...(values.limit ? ['--count', '7'] : []),
  ]);

  const engine = /engine (\S+) \((.+?)\), review threshold/.exec(photoText);
  if (!engine?.[1] || !engine[2])
    throw new Error('eval-quality.ts no longer names its engine on its first line.');
  const ocrLine = ocrText.trim().split('\n').at(-1) ?? '';
  const report = buildAccuracyReport({
    generatedAt: new Date().toISOString(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim(),
    engine: { name: engine[1], model: engine[2] },
    photoSet: basename(qualityDir),
    photoRefs: JSON.parse(
      await readFile(join(qualityDir, 'refs.json'), 'utf8'),
    ) as AccuracyInputs['photoRefs'],
    photos: await readLines<PhotoRow>(photoRows),
    graphicSet: basename(graphicsDir),
    graphics: await readLines<GraphicRow>(graphicRows),
    audit: JSON.parse(await readFile(auditOut, 'utf8')) as AuditRun,
    ocr: JSON.parse(ocrLine) as OcrRun,
  });
  await mkdir(dirname(outFile), { recursive: true });
  await writeFile(outFile, `${JSON.stringify(report, null, 2)}\n`);
  // In the repository's own format, so the committed file passes `npm run lint` as written.
  const biome = join(repo, 'node_modules/.bin/biome');
  if (existsSync(biome))
    execFileSync(biome, ['format', '--write', '--no-errors-on-unmatched', outFile], { stdio: 'ignore' });
  process.stderr.write(`\nwrote ${outFile}\n`);
} finally {
  await rm(work, { recursive: true, force: true });
}
