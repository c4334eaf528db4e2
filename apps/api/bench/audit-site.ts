/**
 * Audit benchmark (ADR 026 and 037): the time to audit a 100-page local site, scope `site`,
 * and its verdict counts. Every page has 8 images: an `alt=""` photo and an `alt=""` text banner
 * (the pixel check reads both with OCR), a one-colour image with a text alt, a photo with a good
 * alt, one with no alt, one whose alt is its file name, the site's logo (the same address on every
 * page) and an image link to the next page. About 500 distinct addresses to look at, so the pixel
 * check's cap (200 per audit) applies: the `alt=""` images go first.
 *   node apps/api/bench/audit-site.ts            (embedded PGlite, as the tests)
 *   BENCH_PAGE_DELAY_MS=100 node apps/api/bench/audit-site.ts   (100 ms of server latency per answer)
 * With `--json` the last line is one JSON object; `pagesPerSecond` times the HTML step alone.
 *   node apps/api/bench/audit-site.ts --render   (ADR 061: every page rendered in headless
 *   Chromium, `render: "always"`, 2 pages at once; adds the render time per page and the browser's
 *   peak resident memory, every process of it)
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { browserMemory } from '../src/modules/audit/render/processes.ts';
import { createUser } from '../test/billing-helpers.ts';
import { buildTestApp } from '../test/helper.ts';

const pages = 100;
const render = process.argv.includes('--render');
const delayMs = Number(process.env.BENCH_PAGE_DELAY_MS ?? 0);
const svgText = (text: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="160"><rect width="100%" height="100%" fill="#fff"/><text x="240" y="95" font-family="DejaVu Sans, sans-serif" font-size="40" font-weight="bold" text-anchor="middle">${text}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();
const photo = await readFile(new URL('../test/fixtures/images/coffee.jpg', import.meta.url));
const other = await readFile(new URL('../test/fixtures/images/chelsea.jpg', import.meta.url));
const logo = await readFile(new URL('../test/fixtures/images/logo.png', import.meta.url));
const plain = await sharp({ create: { width: 320, height: 120, channels: 3, background: '#eef2f5' } })
  .png()
  .toBuffer();
const banners = new Map<number, Buffer>();

function pageHtml(i: number): string {
  const next = (i % pages) + 1;
  const links = [1, 2, 3].map((k) => `<a href="/p/${((i + k * 7) % pages) + 1}">Page ${k}</a>`).join(' ');
  return `<!doctype html><html><head><title>Page ${i}</title></head><body><h1>Harbour page ${i}</h1>
    <img src="/img/logo.png" alt="Harbour Lights">
    <p>Fresh coffee on the quay. <img src="/img/${i}-photo.jpg" alt=""></p>
    <img src="/img/${i}-banner.png" alt="">
    <img src="/img/${i}-plain.png" alt="Sea pattern">
    <img src="/img/${i}-cat.jpg" alt="A tabby cat asleep on a coil of rope number ${i}">
    <img src="/img/${i}-none.jpg">
    <img src="/img/IMG_${2000 + i}.jpg" alt="IMG_${2000 + i}.jpg">
    <a href="/p/${next}"><img src="/img/next.png" alt="Next page"></a>
    <nav>${links}</nav></body></html>`;
}

const server = createServer((req, res) => {
  void (async () => {
    if (delayMs) await sleep(delayMs);
    const url = req.url ?? '/';
    const page = /^\/p\/(\d+)$/.exec(url);
    if (url === '/' || page) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(pageHtml(page ? Number(page[1]) : 1));
    }
    const image = /^\/img\/(?:(\d+)-(photo|banner|plain|cat|none)|IMG_\d+|logo|next)\.(?:jpg|png)$/.exec(url);
    if (!image) return res.writeHead(404).end();
    const [, n, kind] = image;
    let body: Buffer = other;
    if (url === '/img/logo.png' || url === '/img/next.png') body = logo;
    else if (kind === 'photo') body = photo;
    else if (kind === 'plain') body = plain;
    else if (kind === 'banner') {
      const key = Number(n);
      body = banners.get(key) ?? (await svgText(`HARBOUR SALE ${key}% OFF`));
      banners.set(key, body);
    }
    res.writeHead(200, { 'content-type': url.endsWith('.png') ? 'image/png' : 'image/jpeg' }).end(body);
  })();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const loadBefore = loadavg()[0]?.toFixed(2);
const t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true' } });
/** Each page's render, start to end (waiting for a slot included), and the browser's peak memory. */
const renderMs: number[] = [];
/** Each rendered page's steps (browser-pool.ts RenderSteps), and how many reused their audit's tab. */
const stepMs: Record<string, number[]> = {};
let reusedTabs = 0;
let peakBrowser = { pss: 0, rss: 0 };
let sampling = true;
const renderer = t.app.deps.renderer;
if (render && !renderer) throw new Error('--render needs a browser: set CHROMIUM_PATH or install chromium');
if (render && renderer) {
  const original = renderer.render.bind(renderer);
  renderer.render = async (address, options) => {
    const began = performance.now();
    const result = await original(address, options);
    renderMs.push(performance.now() - began);
    if (result.ok) {
      for (const [name, ms] of Object.entries(result.steps)) stepMs[name] = [...(stepMs[name] ?? []), ms];
      if (result.reusedTab) reusedTabs++;
    }
    return result;
  };
  void (async () => {
    while (sampling) {
      const now = await browserMemory(await renderer.processIds());
      peakBrowser = { pss: Math.max(peakBrowser.pss, now.pss), rss: Math.max(peakBrowser.rss, now.rss) };
      await sleep(250);
    }
  })();
}
try {
  const user = await createUser(t);
  const started = performance.now();
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/audits',
    headers: user.auth,
    payload: { url: `${base}/`, scope: 'site', maxPages: pages, render: render ? 'always' : 'never' },
  });
  if (created.statusCode !== 202) throw new Error(`POST /audits answered ${created.statusCode}`);
  const { id } = created.json() as { id: string };
  let audit: Record<string, unknown> = {};
  /** When every page was scanned: the HTML step's end, before the pixel step. */
  let scannedSeconds: number | null = null;
  for (;;) {
    audit = (await t.app.inject({ method: 'GET', url: `/api/v1/audits/${id}`, headers: user.auth })).json();
    if (scannedSeconds === null && audit.pagesScanned === pages)
      scannedSeconds = (performance.now() - started) / 1000;
    if (audit.status === 'completed' || audit.status === 'failed') break;
    await sleep(50);
  }
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  const sorted = [...renderMs].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  const result = {
    mode: render ? 'rendered' : 'raw',
    status: audit.status,
    seconds: Number(seconds.toFixed(2)),
    /** Pages read and checked per second, HTML step only (reading moved to worker threads). */
    pagesPerSecond: scannedSeconds ? Number((pages / scannedSeconds).toFixed(1)) : null,
    pagesScanned: audit.pagesScanned,
    imagesFound: audit.imagesFound,
    counts: audit.counts,
    problems: audit.problems,
    score: audit.score,
    notices: audit.notices,
    ...(render
      ? {
          pagesRendered: audit.pagesRendered,
          /** HTML step's wall time per page, 2 pages at once. */
          secondsPerPage: scannedSeconds ? Number((scannedSeconds / pages).toFixed(2)) : null,
          /** One page's render (load, network quiet, HTML, screenshots), median and 95th percentile. */
          renderMs: { median: at(0.5), p95: at(0.95), max: Math.round(sorted.at(-1) ?? 0) },
          /** Median of each step of a render: opening or reusing the tab, load, quiet, marks, HTML. */
          stepMedianMs: Object.fromEntries(
            Object.entries(stepMs).map(([name, list]) => [
              name,
              [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0,
            ]),
          ),
          reusedTabs,
          /** Every process of the browser: proportional (shared pages split) and summed resident sizes. */
          peakBrowserMb: {
            pss: Math.round(peakBrowser.pss / (1024 * 1024)),
            rss: Math.round(peakBrowser.rss / (1024 * 1024)),
          },
        }
      : {}),
    delayMs,
    load: { before: loadBefore, after: loadavg()[0]?.toFixed(2) },
  };
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
  else console.log(result);
} finally {
  await t.cleanup();
  server.closeAllConnections();
  server.close();
}
