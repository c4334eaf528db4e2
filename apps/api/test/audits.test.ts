import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { auditPages, audits } from '../src/db/tables/audits.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, createPostgresDatabase, type TestApp, waitFor } from './helper.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const html =
  (body: string, title = 'Harbour'): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`);
  };
const xml =
  (body: string): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
  };

let base = '';
let otherBase = '';
/** Pages of the resume test that answer only once released. */
const held: { release: () => void; waiting: Promise<void> } = (() => {
  let release = () => {};
  const waiting = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { release, waiting };
})();

const site: Record<string, Handler> = {
  '/robots.txt': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('# test site\nUser-agent: *\nDisallow: /private/\n');
  },
  '/': html(`<h1>Our harbour</h1>
    <p>Boats at dawn. <img src="/img/boat.jpg" alt="A red fishing boat moored at the pier at dawn"></p>
    <img src="/img/dsc.jpg" alt="IMG_2041.jpg">
    <img src="/img/none.jpg">
    <img src="/img/pixel.gif" alt="" width="1" height="1">
    <nav><a href="/about">About us</a> <a href="/products#top">Products</a> <a href="/private/secret">Secret</a>
    <a href="/files/price-list.pdf">Prices</a> <a href="/report">Report</a> <a href="/away">Partner</a>
    <a href="https://example.org/elsewhere">Elsewhere</a></nav>`),
  '/about': html(
    '<h1>About</h1><p><img src="/img/team.jpg" alt="The harbour team standing on the quay"></p><a href="/">Home</a>',
  ),
  '/products': html(`<h1>Products</h1>
    <figure><img src="/img/net.jpg" alt="Fishing nets drying in the sun"><figcaption>Our nets</figcaption></figure>
    <form><input type="image" src="/img/go.png" alt="Search"></form>
    <div role="img" aria-label="Rated five stars out of five"></div>
    <a href="/about"><img src="/img/about.png"></a>`),
  '/private/secret': html('<img src="/img/secret.jpg">'),
  '/report': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  },
  '/away': (_req, res) => res.writeHead(302, { location: `${otherBase}/` }).end(),
  '/sitemap.xml': xml(
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/sitemaps/pages.xml</loc></sitemap></sitemapindex>',
  ),
  '/sitemaps/pages.xml': (req, res) =>
    xml(
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/', '/about', '/products']
        .map((p) => `<url><loc>${base}${p}</loc></url>`)
        .join('')}<url><loc>https://example.org/x</loc></url></urlset>`,
    )(req, res),
  '/not-a-sitemap.xml': html('<p>Hello</p>'),
  '/big/': html(Array.from({ length: 60 }, (_, i) => `<a href="/big/${i + 1}">${i + 1}</a>`).join(' ')),
  '/resume/': html(
    ['a', 'b', 'c', 'd', 'e'].map((p) => `<a href="/resume/${p}">${p}</a>`).join(' ') +
      '<img src="/img/resume.jpg" alt="The harbour at night">',
  ),
};
/** The pixel check's page (ADR 037): its images are drawn in beforeAll. */
site['/sale'] = html(`<h1>Sale</h1>
  <img src="/img/sale.png" alt="">
  <p>Again below: <img src="/img/sale.png" alt=""></p>
  <img src="/img/coffee.jpg" alt="">
  <img src="/img/plain.png" alt="Our new shop front">
  <img src="/img/plain.png" alt="">
  <a href="/img/missing.png"><img src="/img/sale.png" alt="Sale: half price"></a>`);
/** ADR 060: the checks the best checkers make, on one page; call.png is drawn in beforeAll. */
site['/checks'] =
  html(`<header><a href="/"><img src="/img/mark.png" alt="A navy blue circle with a white anchor in the middle, ringed by gold rope, above the words Harbour Boats in bold capital letters"></a></header>
  <ul><li><img src="/img/b.gif" alt="bullet"> Fresh fish daily</li></ul>
  <img src="/img/call.png" alt="Call the harbour office on 555-0199">
  <img src="/img/catch-chart.png" alt="">
  <img src="/img/quay.jpg" alt=" ">
  <img src="/img/hours.jpg" alt="" title="Open 9 to 5">
  <img src="/img/market.jpg" title="The fish market at noon">
  <img src="/img/boats.jpg" alt="Boats in the harbour" aria-label="Weather forecast">
  <div><a href="/boats"><img src="/img/blue-boat.jpg" alt="Blue boat"></a> <a href="/boats">Blue boat</a></div>
  <img src="/img/nets.jpg" alt="Image of nets on the quay">
  <img src="/img/fish.jpg" alt="Fish market, fresh fish, cheap fish and fish recipes">`);
const image =
  (type: string, bytes: () => Buffer): Handler =>
  (_req, res) =>
    res.writeHead(200, { 'content-type': type }).end(bytes());
const drawn: { sale?: Buffer; plain?: Buffer; coffee?: Buffer; call?: Buffer } = {};
site['/img/sale.png'] = image('image/png', () => drawn.sale as Buffer);
site['/img/plain.png'] = image('image/png', () => drawn.plain as Buffer);
site['/img/coffee.jpg'] = image('image/jpeg', () => drawn.coffee as Buffer);
site['/img/call.png'] = image('image/png', () => drawn.call as Buffer);
/**
 * The pixel step interrupted by a restart: the images live on another host (a CDN, with its own 2
 * fetches at a time), and pr-2 and pr-3 answer only once released.
 */
let cdnBase = '';
site['/pixels-resume'] = (req, res) =>
  html([1, 2, 3, 4].map((n) => `<img src="${cdnBase}/img/pr-${n}.png" alt="">`).join(''))(req, res);
const cdn: Record<string, Handler> = {};
for (const n of [1, 2, 3, 4]) {
  const answer = image('image/png', () => drawn.sale as Buffer);
  cdn[`/img/pr-${n}.png`] =
    n === 2 || n === 3 ? (req, res) => void held.waiting.then(() => answer(req, res)) : answer;
}
for (let i = 1; i <= 60; i++)
  site[`/big/${i}`] = html(`<img src="/img/big-${i}.jpg" alt="Boat number ${i} in the harbour">`);
for (const p of ['a', 'b', 'c', 'd', 'e']) {
  const page = html(`<img src="/img/${p}-1.jpg" alt="Crate ${p} on the quay"><img src="/img/${p}-2.jpg">`);
  site[`/resume/${p}`] =
    p === 'b' || p === 'c' ? (req, res) => void held.waiting.then(() => page(req, res)) : page;
}

/** Another origin: robots.txt disallows everything. */
const other: Record<string, Handler> = {
  '/robots.txt': (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /\n'),
  '/': html('<img src="/x.jpg">'),
};

const hits = new Map<string, number>();
const serve = (routes: Record<string, Handler>, count: boolean) =>
  createServer((req, res) => {
    const url = req.url ?? '';
    if (count) hits.set(url, (hits.get(url) ?? 0) + 1);
    const route = routes[url];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

let servers: Server[] = [];
let dataDir: string;
let sharedPostgres: { url: string; drop: () => Promise<void> } | undefined;
let t: TestApp;
let user: TestUser;
let resumeAuditId: string;
let pixelResumeAuditId: string;
/** What the first process had fetched when it stopped. */
let fetchedBeforeRestart: string[] = [];

type AuditAnswer = {
  id: string;
  status: string;
  error?: string;
  notices: string[];
  pagesScanned: number;
  imagesFound: number;
  score: number | null;
  counts: { pass: number; fail: number; warning: number; decorative: number };
  problems: Record<string, number>;
};

const start = (body: unknown, who: TestUser = user, app: TestApp = t) =>
  app.app.inject({ method: 'POST', url: '/api/v1/audits', payload: body as object, headers: who.auth });
const getAudit = async (id: string, who: TestUser = user, app: TestApp = t) =>
  (
    await app.app.inject({ method: 'GET', url: `/api/v1/audits/${id}`, headers: who.auth })
  ).json() as AuditAnswer;
async function runAudit(body: unknown): Promise<AuditAnswer> {
  const response = await start(body);
  expect(response.statusCode).toBe(202);
  const { id } = response.json();
  return waitFor(async () => {
    const audit = await getAudit(id);
    return audit.status === 'completed' || audit.status === 'failed' ? audit : null;
  }, 20_000);
}

beforeAll(async () => {
  drawn.sale = await sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="160"><rect width="100%" height="100%" fill="#fff"/><text x="240" y="95" font-family="DejaVu Sans, sans-serif" font-size="44" font-weight="bold" text-anchor="middle">SPRING SALE</text></svg>',
    ),
  )
    .png()
    .toBuffer();
  drawn.call = await sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="160"><rect width="100%" height="100%" fill="#fff"/><text x="240" y="65" font-family="DejaVu Sans, sans-serif" font-size="40" font-weight="bold" text-anchor="middle">CALL US</text><text x="240" y="130" font-family="DejaVu Sans, sans-serif" font-size="44" text-anchor="middle">555-0142</text></svg>',
    ),
  )
    .png()
    .toBuffer();
  drawn.plain = await sharp({ create: { width: 320, height: 120, channels: 3, background: '#eef2f5' } })
    .png()
    .toBuffer();
  drawn.coffee = await readFile(new URL('./fixtures/images/coffee.jpg', import.meta.url));
  const a = serve(site, true);
  const b = serve(other, false);
  const c = serve(cdn, true);
  servers = [a, b, c];
  base = await listen(a);
  otherBase = await listen(b);
  cdnBase = await listen(c);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-audit-'));
  if (process.env.TEST_DATABASE_URL)
    sharedPostgres = await createPostgresDatabase(process.env.TEST_DATABASE_URL);
  const env = {
    FETCH_ALLOW_PRIVATE: 'true',
    ...(sharedPostgres ? { DATABASE_URL: sharedPostgres.url } : {}),
  };

  // A first process starts a site audit and stops while two pages are being fetched.
  const first = await buildTestApp({ env, dataDir, persistent: true });
  user = await createUser(first);
  const started = await start({ url: `${base}/resume/`, scope: 'site' }, user, first);
  resumeAuditId = started.json().id;
  pixelResumeAuditId = (await start({ url: `${base}/pixels-resume`, scope: 'page' }, user, first)).json().id;
  await waitFor(async () =>
    ['/resume/b', '/resume/c', '/img/pr-2.png', '/img/pr-3.png'].every((url) => hits.get(url)) ? true : null,
  );
  const closing = first.cleanup();
  held.release();
  await closing;
  fetchedBeforeRestart = [...hits.keys()];

  // The next process (the one every test below uses) resumes it.
  t = await buildTestApp({ env, dataDir, persistent: true });
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await sharedPostgres?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('an audit interrupted by a restart', () => {
  it('resumes in the next process: no page fetched twice, no page or image stored twice', async () => {
    const audit = await waitFor(async () => {
      const answer = await getAudit(resumeAuditId);
      return answer.status === 'completed' ? answer : null;
    }, 20_000);
    expect(fetchedBeforeRestart).toEqual(
      expect.arrayContaining(['/resume/', '/resume/a', '/resume/b', '/resume/c']),
    );
    expect(fetchedBeforeRestart).not.toContain('/resume/d');
    expect(audit).toMatchObject({ pagesScanned: 6, imagesFound: 11 });
    for (const page of ['/resume/', '/resume/a', '/resume/b', '/resume/c', '/resume/d', '/resume/e'])
      expect(hits.get(page), page).toBe(1);
    const db = t.app.deps.database.db;
    const pages = await db.select().from(auditPages).where(eq(auditPages.auditId, resumeAuditId));
    expect(pages).toHaveLength(6);
    expect(new Set(pages.map((page) => page.url)).size).toBe(6);
    const [images] = await queryRows<{ n: number | string; distinct: number | string }>(
      db,
      sql`select count(*) as n, count(distinct (page_url, src)) as distinct from audit_images where audit_id = ${resumeAuditId}`,
    );
    expect(Number(images?.n)).toBe(11);
    expect(Number(images?.distinct)).toBe(11);
  });
  it('resumes the pixel step: the images in hand land, the rest are read in the next process, none twice', async () => {
    const audit = await waitFor(async () => {
      const answer = await getAudit(pixelResumeAuditId);
      return answer.status === 'completed' ? answer : null;
    }, 20_000);
    expect(fetchedBeforeRestart).not.toContain('/img/pr-4.png');
    for (const n of [1, 2, 3, 4]) expect(hits.get(`/img/pr-${n}.png`), `pr-${n}`).toBe(1);
    expect(audit).toMatchObject({
      imagesFound: 4,
      counts: { fail: 4 },
      problems: { 'empty-but-informative': 4 },
    });
  });
});

describe('POST /audits', () => {
  it('audits one page: every image with its verdict, counts and score', async () => {
    const audit = await runAudit({ url: `${base}/`, scope: 'page' });
    expect(audit).toMatchObject({ status: 'completed', pagesScanned: 1, imagesFound: 4 });
    expect(audit.counts.pass + audit.counts.fail + audit.counts.warning + audit.counts.decorative).toBe(4);
    expect(audit.problems).toMatchObject({ missing: 1, 'file-name': 1 });
    expect(audit.counts.fail).toBeGreaterThanOrEqual(2);
    expect(audit.score).toBeGreaterThanOrEqual(0);
    expect(audit.score).toBeLessThanOrEqual(1);

    const all = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audits/${audit.id}/images`,
      headers: user.auth,
    });
    expect(all.statusCode).toBe(200);
    const { items, total } = all.json();
    expect(total).toBe(4);
    expect(items.map((image: { src: string; alt: string | null }) => [image.src, image.alt])).toEqual([
      [`${base}/img/boat.jpg`, 'A red fishing boat moored at the pier at dawn'],
      [`${base}/img/dsc.jpg`, 'IMG_2041.jpg'],
      [`${base}/img/none.jpg`, null],
      [`${base}/img/pixel.gif`, ''],
    ]);
    expect(items[2]).toMatchObject({
      pageUrl: `${base}/`,
      role: 'content',
      verdict: 'fail',
      suggestion: null,
      reviewState: null,
      problems: [{ code: 'missing', severity: 'fail', wcag: ['1.1.1'], message: expect.any(String) }],
    });

    const missing = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audits/${audit.id}/images?problem=missing&pageSize=10`,
      headers: user.auth,
    });
    expect(missing.json()).toMatchObject({ total: 1, items: [{ src: `${base}/img/none.jpg` }] });
    const failing = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audits/${audit.id}/images?verdict=fail&review=none&page=1&pageSize=1`,
      headers: user.auth,
    });
    expect(failing.json().total).toBe(audit.counts.fail);
    expect(failing.json().items).toHaveLength(1);
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audits/${audit.id}/images?verdict=great&pageSize=1000`,
      headers: user.auth,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it('looks at pixels: text under alt="" fails with the text quoted, a blank with text alt is decorative', async () => {
    const audit = await runAudit({ url: `${base}/sale`, scope: 'page' });
    expect(audit).toMatchObject({ status: 'completed', imagesFound: 6 });
    const { items } = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/audits/${audit.id}/images?pageSize=10`,
        headers: user.auth,
      })
    ).json() as {
      items: Array<{
        src: string;
        alt: string | null;
        verdict: string;
        problems: Array<{ code: string; message: string }>;
      }>;
    };
    const seen = items.map((item) => [
      item.src.replace(base, ''),
      item.alt,
      item.verdict,
      item.problems.map((problem) => problem.code),
    ]);
    expect(seen).toEqual([
      ['/img/sale.png', '', 'fail', ['empty-but-informative']],
      ['/img/sale.png', '', 'fail', ['empty-but-informative']],
      // A photo without text keeps its alt="": decorative photos are legitimate (W3C).
      ['/img/coffee.jpg', '', 'decorative', []],
      ['/img/plain.png', 'Our new shop front', 'warning', ['decorative-with-alt']],
      ['/img/plain.png', '', 'decorative', []],
      // The only content of a link: judged on the link, never on its pixels.
      ['/img/sale.png', 'Sale: half price', 'pass', []],
    ]);
    expect(items[0]?.problems[0]?.message).toBe(
      'The empty alt="" hides the text “SPRING SALE” that the image shows.',
    );
    expect(items[3]?.problems[0]?.message).toContain('its pixels show no content');
    expect(audit.problems).toMatchObject({ 'empty-but-informative': 2, 'decorative-with-alt': 1 });
    // Each distinct image is fetched once, however often the page shows it.
    expect([hits.get('/img/sale.png'), hits.get('/img/plain.png'), hits.get('/img/coffee.jpg')]).toEqual([
      1, 1, 1,
    ]);
  }, 30_000);

  it('makes the checks the best checkers make: every new code on one page, in the API, the counts and the CSV', async () => {
    const audit = await runAudit({ url: `${base}/checks`, scope: 'page' });
    expect(audit).toMatchObject({ status: 'completed', imagesFound: 11 });
    const { items } = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/audits/${audit.id}/images?pageSize=20`,
        headers: user.auth,
      })
    ).json() as {
      items: Array<{ src: string; verdict: string; problems: Array<{ code: string; message: string }> }>;
    };
    const seen = items.map((item) => [
      item.src.replace(base, ''),
      item.verdict,
      item.problems.map((problem) => problem.code),
    ]);
    expect(seen).toEqual([
      // A 130-character description of the banner's home-link logo: not its name.
      ['/img/mark.png', 'fail', ['link-without-purpose', 'describes-appearance']],
      ['/img/b.gif', 'warning', ['decorative-with-alt']],
      // The real OCR reads 555-0142 in the picture.
      ['/img/call.png', 'fail', ['text-mismatch']],
      ['/img/catch-chart.png', 'fail', ['empty-but-informative']],
      ['/img/quay.jpg', 'fail', ['whitespace-alt']],
      ['/img/hours.jpg', 'fail', ['empty-alt-with-title']],
      ['/img/market.jpg', 'warning', ['title-only']],
      ['/img/boats.jpg', 'warning', ['label-contradicts-alt']],
      // The alt repeats the text beside it too (H2.EG3).
      ['/img/blue-boat.jpg', 'warning', ['redundant', 'redundant-link']],
      ['/img/nets.jpg', 'warning', ['announces-medium']],
      ['/img/fish.jpg', 'warning', ['keyword-stuffing']],
    ]);
    const message = (src: string) =>
      items.find((item) => item.src === `${base}${src}`)?.problems.at(-1)?.message;
    expect(message('/img/call.png')).toBe(
      'The image shows the phone number “555-0142” but the alt text “Call the harbour office on 555-0199” does not state it.',
    );
    expect(message('/img/b.gif')).toContain('it marks a list item');
    expect(message('/img/blue-boat.jpg')).toContain('beside the text link “Blue boat” to the same address');
    expect(audit.problems).toMatchObject({
      'text-mismatch': 1,
      'describes-appearance': 1,
      'keyword-stuffing': 1,
    });
    expect(audit.score).toBe(0);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audits/${audit.id}/report.csv`,
      headers: user.auth,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('text-mismatch');
    expect(csv.body).toContain('1.1.1; 1.4.5');
    expect(csv.body).toContain('redundant-link');
  }, 30_000);

  it('audits a site breadth first on its origin: robots.txt, non-HTML pages and redirects away said in words', async () => {
    hits.delete('/private/secret');
    const audit = await runAudit({ url: `${base}/`, scope: 'site' });
    expect(audit).toMatchObject({ status: 'completed', pagesScanned: 3 });
    // /, /about and /products: 4 + 1 + 4 images; the role=img and input type=image are images too.
    expect(audit.imagesFound).toBe(9);
    expect(hits.get('/private/secret')).toBeUndefined();
    expect(hits.get('/files/price-list.pdf')).toBeUndefined();
    expect(audit.notices).toEqual(
      expect.arrayContaining([
        `robots.txt disallows ${base}/private/secret, so it was not fetched.`,
        `${base}/report is not an HTML page (it answered with application/json).`,
        expect.stringContaining(`${base}/away redirects to ${otherBase}/, which is on another site`),
      ]),
    );
    const { items } = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/audits/${audit.id}/images?pageSize=50`,
        headers: user.auth,
      })
    ).json();
    const byPage = (page: string) =>
      items.filter((image: { pageUrl: string }) => image.pageUrl === `${base}${page}`);
    expect(byPage('/about')).toHaveLength(1);
    expect(
      byPage('/products').map((image: { role: string; alt: string | null }) => [image.role, image.alt]),
    ).toEqual([
      ['figure', 'Fishing nets drying in the sun'],
      ['button', 'Search'],
      ['content', null],
      ['link', null],
    ]);
  });

  it('audits the pages of a sitemap index, leaving other sites out', async () => {
    const audit = await runAudit({ url: `${base}/`, scope: 'sitemap' });
    expect(audit).toMatchObject({ status: 'completed', pagesScanned: 3, imagesFound: 9 });
    expect(audit.notices).toContain(
      `The sitemap lists 1 address on other sites; the audit stays on ${base} and left it out.`,
    );
  });

  it('stops at maxPages on a site with more pages', async () => {
    const audit = await runAudit({ url: `${base}/big/`, scope: 'site', maxPages: 5 });
    expect(audit).toMatchObject({ status: 'completed', pagesScanned: 5, imagesFound: 4 });
    const fetched = [...hits.keys()].filter((url) => url.startsWith('/big/')).length;
    expect(fetched).toBe(5);
  });

  it('fails in words: robots.txt disallowing everything, a page that is not HTML, a sitemap that is not XML', async () => {
    const robots = await runAudit({ url: `${otherBase}/`, scope: 'site' });
    expect(robots).toMatchObject({
      status: 'failed',
      pagesScanned: 0,
      error: `The robots.txt of ${otherBase} disallows every page to crawlers, so the audit fetched none.`,
    });
    const json = await runAudit({ url: `${base}/report`, scope: 'page' });
    expect(json).toMatchObject({
      status: 'failed',
      error: `${base}/report is not an HTML page (it answered with application/json).`,
    });
    const sitemap = await runAudit({ url: `${base}/not-a-sitemap.xml`, scope: 'sitemap' });
    expect(sitemap).toMatchObject({
      status: 'failed',
      error: `${base}/not-a-sitemap.xml is not an XML sitemap (it answered with text/html).`,
    });
  });

  it('refuses bad input with 400 before anything is stored', async () => {
    for (const body of [
      { url: 'not a url', scope: 'page' },
      { url: `${base}/`, scope: 'everything' },
      { url: `${base}/`, scope: 'site', maxPages: 501 },
      { url: `${base}/`, scope: 'site', maxPages: 0 },
      { url: 'ftp://example.org/', scope: 'page' },
    ]) {
      const response = await start(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/audits',
      payload: { url: base, scope: 'page' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a private address (400) when private fetching is off, and queues nothing', async () => {
    const strict = await buildTestApp();
    try {
      const someone = await createUser(strict);
      const response = await start({ url: `${base}/`, scope: 'page' }, someone, strict);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/private or local address/);
      const list = await strict.app.inject({ method: 'GET', url: '/api/v1/audits', headers: someone.auth });
      expect(list.json()).toEqual([]);
    } finally {
      await strict.cleanup();
    }
  });
});

describe('reading audits', () => {
  it('lists the caller’s audits newest first and streams progress until the end', async () => {
    const response = await start({ url: `${base}/about`, scope: 'page' });
    const { id } = response.json();
    const stream = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audits/${id}/events`,
      headers: user.auth,
    });
    expect(stream.headers['content-type']).toMatch(/text\/event-stream/);
    const events = stream.body
      .split('\n\n')
      .filter((block) => block.startsWith('event: progress'))
      .map((block) => JSON.parse(block.split('data: ')[1] ?? '{}'));
    expect(events.at(-1)).toMatchObject({ id, status: 'completed', pagesScanned: 1, imagesFound: 1 });

    const list = await t.app.inject({ method: 'GET', url: '/api/v1/audits', headers: user.auth });
    const rows = list.json() as { id: string; createdAt: string }[];
    expect(rows[0]?.id).toBe(id);
    const times = rows.map((row) => Date.parse(row.createdAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });

  it('answers 404 for another user’s audit, on every call', async () => {
    const stranger = await createUser(t);
    for (const url of [
      `/api/v1/audits/${resumeAuditId}`,
      `/api/v1/audits/${resumeAuditId}/images`,
      `/api/v1/audits/${resumeAuditId}/events`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url, headers: stranger.auth });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: expect.any(String) });
    }
    const malformed = await t.app.inject({ method: 'GET', url: '/api/v1/audits/1', headers: stranger.auth });
    expect(malformed.statusCode).toBe(400);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/audits', headers: stranger.auth });
    expect(list.json()).toEqual([]);
  });
});

describe('limits', () => {
  it('answers 429 with Retry-After beyond 10 audits queued or running at once', async () => {
    const busy = await createUser(t);
    const db = t.app.deps.database.db;
    // Ten audits waiting their turn (stored as the route stores them, without their jobs).
    await db.insert(audits).values(
      Array.from({ length: 10 }, () => ({
        userId: busy.id,
        url: `${base}/`,
        scope: 'page' as const,
        maxPages: 1,
      })),
    );
    const response = await start({ url: `${base}/`, scope: 'page' }, busy);
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('60');
    expect(response.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('10 audits'),
    });
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/audits', headers: busy.auth });
    expect(list.json()).toHaveLength(10);
  });

  it('answers 429 with Retry-After beyond 50 audits in 24 hours', async () => {
    const keen = await createUser(t);
    const db = t.app.deps.database.db;
    const anHourAgo = new Date(Date.now() - 3600_000);
    await db.insert(audits).values(
      Array.from({ length: 50 }, () => ({
        userId: keen.id,
        url: `${base}/`,
        scope: 'page' as const,
        maxPages: 1,
        status: 'completed' as const,
        createdAt: anHourAgo,
        finishedAt: anHourAgo,
      })),
    );
    const response = await start({ url: `${base}/`, scope: 'page' }, keen);
    expect(response.statusCode).toBe(429);
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(22 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(23 * 3600);
    expect(response.json().message).toMatch(/50 audits in the last 24 hours/);
  });

  it('deletes a user’s audits, pages and images with the user (account deletion, ADR 022)', async () => {
    const db = t.app.deps.database.db;
    await db.execute(sql`delete from users where id = ${user.id}`);
    const [left] = await queryRows<{ n: number | string }>(
      db,
      sql`select (select count(*) from audits where user_id = ${user.id})
           + (select count(*) from audit_pages where audit_id = ${resumeAuditId})
           + (select count(*) from audit_images where audit_id = ${resumeAuditId}) as n`,
    );
    expect(Number(left?.n)).toBe(0);
  });
});
