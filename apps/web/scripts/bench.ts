/**
 * `npm run bench:web`: the gzipped size of the JavaScript and CSS each route needs before it can render,
 * from the Vite manifest of the last build (dist/.vite/manifest.json). An app route loads the app's entry
 * (index.html -> src/main.tsx), its lazy page chunk, TanStack Query's chunk for the pages that use it, and
 * every chunk they import statically; a content-only page (landing, blog) loads the public entry
 * (src/public.ts) and its imports instead, plus the app's stylesheet (ADR 027); /login and /register load
 * the sign-in entry (src/sign-in.tsx) and its imports, plus the same stylesheet (ADR 038).
 * Budgets: landing page JS ≤ 60 KB, /login and /register ≤ 100 KB; the command exits with 1 when
 * one is exceeded. `--json` prints one JSON object as the last line.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { printBenchJson, round } from '../../../scripts/lib/bench-json.ts';

import { isContentOnlyPage, isSignInPage, needsQueryClient } from '../src/app/pages-without-queries.ts';
import {
  appEntryKey,
  type Manifest,
  type ManifestChunk,
  publicEntryKey,
  queryProviderSource,
  routeSources,
  signInEntryKey,
  staticClosure,
} from './route-chunks.ts';

const webDir = path.resolve(import.meta.dirname, '..');
const distDir = path.join(webDir, 'dist');

/** Gzipped initial JS per route, in KB. */
export const jsBudgetsKb: Readonly<Record<string, number>> = { '/': 60, '/login': 100, '/register': 100 };

const sizeCache = new Map<string, number>();
async function gzippedSize(file: string): Promise<number> {
  const cached = sizeCache.get(file);
  if (cached !== undefined) return cached;
  const size = gzipSync(await readFile(path.join(distDir, file)), { level: 9 }).length;
  sizeCache.set(file, size);
  return size;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The chunk keys a route loads before it renders (see the header comment). */
export function routeChunkKeys(
  manifest: Manifest,
  route: string,
  source: string,
): { js: string[]; css: string[] } {
  if (isContentOnlyPage(route) || isSignInPage(route)) {
    return {
      js: [...staticClosure(manifest, [isSignInPage(route) ? signInEntryKey : publicEntryKey])],
      css: [...staticClosure(manifest, [appEntryKey])],
    };
  }
  const keys = needsQueryClient(route) ? [appEntryKey, source, queryProviderSource] : [appEntryKey, source];
  const closure = [...staticClosure(manifest, keys)];
  return { js: closure, css: closure };
}

export type RouteSize = { route: string; js: number; css: number };

/** Gzipped initial JS and CSS (bytes) of every route of the route table, from a build's manifest. */
export async function measureRoutes(): Promise<{ rows: RouteSize[]; entries: Record<string, number> }> {
  const manifest = JSON.parse(await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  for (const key of [appEntryKey, publicEntryKey, signInEntryKey]) {
    if (!manifest[key]?.isEntry) throw new Error(`The manifest has no entry ${key}.`);
  }
  const routes = routeSources(await readFile(path.join(webDir, 'src/app/router.tsx'), 'utf8'));
  const rows: RouteSize[] = [];
  for (const { route, source } of routes) {
    // The sign-in pages are part of their entry's chunks, not a chunk of their own (ADR 038).
    if (!manifest[source] && !isSignInPage(route))
      throw new Error(`${source} (route ${route}) is not in the manifest.`);
    const keys = routeChunkKeys(manifest, route, source);
    let js = 0;
    for (const key of keys.js) js += await gzippedSize((manifest[key] as ManifestChunk).file);
    let css = 0;
    for (const file of new Set(keys.css.flatMap((key) => manifest[key]?.css ?? [])))
      css += await gzippedSize(file);
    rows.push({ route, js, css });
  }
  const entries: Record<string, number> = {};
  for (const key of [appEntryKey, publicEntryKey])
    entries[key] = await gzippedSize((manifest[key] as ManifestChunk).file);
  return { rows, entries };
}

/** The routes over their budget, with their size and budget in KB. */
export function overBudget(
  rows: readonly RouteSize[],
): Array<{ route: string; kb: number; budgetKb: number }> {
  return Object.entries(jsBudgetsKb).flatMap(([route, budgetKb]) => {
    const row = rows.find((candidate) => candidate.route === route);
    if (!row) return [{ route, kb: Number.NaN, budgetKb }];
    const kb = row.js / 1024;
    return kb <= budgetKb ? [] : [{ route, kb, budgetKb }];
  });
}

async function main() {
  let measured: Awaited<ReturnType<typeof measureRoutes>>;
  try {
    measured = await measureRoutes();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    console.error(
      missing ? 'No build found (apps/web/dist/.vite/manifest.json). Run `npm run build` first.' : error,
    );
    process.exit(1);
  }
  const { rows, entries } = measured;
  console.log(
    `Initial JS and CSS per route, gzipped (app entry alone: ${kb(entries[appEntryKey] ?? 0)}, public entry alone: ${kb(entries[publicEntryKey] ?? 0)})\n`,
  );
  console.log(`${'route'.padEnd(24)}${'JS'.padStart(10)}${'CSS'.padStart(10)}`);
  for (const row of rows)
    console.log(`${row.route.padEnd(24)}${kb(row.js).padStart(10)}${kb(row.css).padStart(10)}`);

  const over = overBudget(rows);
  console.log('');
  for (const [route, budgetKb] of Object.entries(jsBudgetsKb)) {
    const row = rows.find((candidate) => candidate.route === route);
    const failed = over.some((entry) => entry.route === route);
    console.log(
      `${route.padEnd(10)} JS ${kb(row?.js ?? Number.NaN)} of ${budgetKb} KB: ${failed ? 'OVER BUDGET' : 'ok'}`,
    );
  }
  if (over.length > 0) process.exitCode = 1;
  const jsKb = (route: string) => round((rows.find((row) => row.route === route)?.js ?? Number.NaN) / 1024);
  printBenchJson('web', {
    landingJsKb: jsKb('/'),
    loginJsKb: jsKb('/login'),
    registerJsKb: jsKb('/register'),
  });
}

if (import.meta.main) await main();
