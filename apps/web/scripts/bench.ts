/**
 * `npm run bench:web`: the gzipped size of the JavaScript and CSS each route needs before it can render,
 * from the Vite manifest of the last build (dist/.vite/manifest.json): the entry chunk, the route's lazy
 * page chunk, TanStack Query's chunk for the pages that use it, and every chunk they import statically. Budget (issue 8): the landing page's JS ≤ 120 KB.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { needsQueryClient } from '../src/app/pages-without-queries.ts';
import {
  type Manifest,
  type ManifestChunk,
  queryProviderSource,
  routeSources,
  staticClosure,
} from './route-chunks.ts';

const webDir = path.resolve(import.meta.dirname, '..');
const distDir = path.join(webDir, 'dist');
const LANDING_JS_BUDGET_KB = 120;

const sizeCache = new Map<string, number>();
async function gzippedSize(file: string): Promise<number> {
  const cached = sizeCache.get(file);
  if (cached !== undefined) return cached;
  const size = gzipSync(await readFile(path.join(distDir, file)), { level: 9 }).length;
  sizeCache.set(file, size);
  return size;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  } catch {
    console.error('No build found (apps/web/dist/.vite/manifest.json). Run `npm run build` first.');
    process.exit(1);
  }
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('The manifest has no entry chunk.');
  const routes = routeSources(await readFile(path.join(webDir, 'src/app/router.tsx'), 'utf8'));

  const rows: Array<{ route: string; js: number; css: number }> = [];
  for (const { route, source } of routes) {
    if (!manifest[source]) throw new Error(`${source} (route ${route}) is not in the manifest.`);
    const keys = needsQueryClient(route) ? [entryKey, source, queryProviderSource] : [entryKey, source];
    const chunks = [...staticClosure(manifest, keys)].map((key) => manifest[key] as ManifestChunk);
    const cssFiles = new Set(chunks.flatMap((chunk) => chunk.css ?? []));
    let js = 0;
    for (const chunk of chunks) js += await gzippedSize(chunk.file);
    let css = 0;
    for (const file of cssFiles) css += await gzippedSize(file);
    rows.push({ route, js, css });
  }

  const entryJs = await gzippedSize((manifest[entryKey] as ManifestChunk).file);
  console.log(`Initial JS and CSS per route, gzipped (entry chunk alone: ${kb(entryJs)})\n`);
  console.log(`${'route'.padEnd(24)}${'JS'.padStart(10)}${'CSS'.padStart(10)}`);
  for (const row of rows)
    console.log(`${row.route.padEnd(24)}${kb(row.js).padStart(10)}${kb(row.css).padStart(10)}`);

  const landing = rows.find((row) => row.route === '/');
  if (landing) {
    const ok = landing.js <= LANDING_JS_BUDGET_KB * 1024;
    console.log(
      `\nLanding page JS ${kb(landing.js)} of the ${LANDING_JS_BUDGET_KB} KB budget: ${ok ? 'ok' : 'OVER BUDGET'}`,
    );
    if (!ok) process.exitCode = 1;
  }
}

if (import.meta.main) await main();
