import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

/**
 * What the audit crawler does with robots.txt and sitemaps (ADR 045): every redirect hop
 * checked against robots.txt, an unreachable robots.txt read as disallow-all, sitemaps of up to
 * 50 MB streamed, gzip inflated up to the same cap, reading stopped at maxPages.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const html =
  (body: string): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Quay</title></head><body>${body}</body></html>`);
  };
const text =
  (status: number, body: string): Handler =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
const redirect =
  (to: string): Handler =>
  (_req, res) =>
    res.writeHead(302, { location: to }).end();
const xmlHeader = '<?xml version="1.0" encoding="UTF-8"?>';
const urlset = (locations: string[]) =>
  `${xmlHeader}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locations
    .map((location) => `<url><loc>${location}</loc></url>`)
    .join('')}</urlset>`;

let base = '';
const hits = new Map<string, number>();
/** The early-stop sitemap: whether the crawler hung up before the (endless) body ended. */
const endless = { closedEarly: false };

const site: Record<string, Handler> = {
  '/robots.txt': text(200, 'User-agent: *\nDisallow: /private\n'),
  '/': html(
    '<img src="/img/a.jpg" alt="The quay at dawn"><a href="/redir">Offers</a> <a href="/two-hops">Deals</a> <a href="/fine">Fine</a>',
  ),
  // Same origin, but robots.txt disallows where they lead: first hop, and second hop.
  '/redir': redirect('/private/secret'),
  '/two-hops': redirect('/fine-then-private'),
  '/fine-then-private': redirect('/private/other'),
  '/private/secret': html('<img src="/img/secret.jpg">'),
  '/private/other': html('<img src="/img/other.jpg">'),
  // A redirect robots.txt allows is followed as before.
  '/fine': redirect('/about'),
  '/about': html('<img src="/img/b.jpg" alt="Crates stacked on the quay">'),
  '/p/1': html('<img src="/img/1.jpg" alt="Boat one in the harbour">'),
  '/p/2': html('<img src="/img/2.jpg" alt="Boat two in the harbour">'),
  '/p/3': html('<img src="/img/3.jpg" alt="Boat three in the harbour">'),
};

// A standard sitemap of 6.5 MB: 45,000 addresses on another site (left out, but read), then 3 pages.
const padding = Array.from(
  { length: 45_000 },
  (_, i) =>
    `https://elsewhere.example/catalogue/harbour-supplies/rope-and-chain/item-${i}-in-galvanised-steel-for-fishing-boats-and-ferries-and-yachts`,
);
let bigSitemap = '';
site['/big-sitemap.xml'] = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(bigSitemap) });
  res.end(bigSitemap);
};

// A sitemap that never ends after its first pages: only a reader that stops at maxPages finishes.
site['/endless-sitemap.xml'] = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/xml' });
  res.write(`${xmlHeader}<urlset><url><loc>${base}/p/1</loc></url><url><loc>${base}/p/2</loc></url>`);
  const more = setInterval(() => res.write(`<url><loc>${base}/p/3</loc></url>`.repeat(100)), 50);
  res.once('close', () => {
    clearInterval(more);
    endless.closedEarly = !res.writableEnded;
  });
};

// An index of a gzip bomb (a few dozen KB inflating to 64 MB) and a gzipped sitemap of real pages.
site['/gz-index.xml'] = (_req, res) =>
  res
    .writeHead(200, { 'content-type': 'application/xml' })
    .end(
      `${xmlHeader}<sitemapindex><sitemap><loc>/bomb.xml.gz</loc></sitemap><sitemap><loc>/pages.xml.gz</loc></sitemap></sitemapindex>`,
    );
let bomb = Buffer.alloc(0);
site['/bomb.xml.gz'] = (_req, res) => res.writeHead(200, { 'content-type': 'application/gzip' }).end(bomb);
site['/pages.xml.gz'] = (_req, res) =>
  res
    .writeHead(200, { 'content-type': 'application/gzip' })
    .end(gzipSync(urlset([`${base}/p/1`, `${base}/p/2`, `${base}/p/3`])));

/** Sites whose robots.txt answers 500, 404 and 429 (and 503 through a redirect, below). */
const robotsAnswering = (status: number): Record<string, Handler> => ({
  '/robots.txt': text(status, 'Something went wrong'),
  '/': html('<img src="/img/x.jpg" alt="A lighthouse on the cliff">'),
});

const serve = (routes: Record<string, Handler>, name: string) =>
  createServer((req, res) => {
    const url = req.url ?? '';
    hits.set(`${name}${url}`, (hits.get(`${name}${url}`) ?? 0) + 1);
    const route = routes[url];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const servers: Server[] = [];
const bases: Record<string, string> = {};
let closedBase = '';
let t: TestApp;
let user: TestUser;

type AuditAnswer = {
  id: string;
  status: string;
  error?: string;
  notices: string[];
  pagesScanned: number;
  imagesFound: number;
};

async function runAudit(body: unknown): Promise<AuditAnswer> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/audits',
    payload: body as object,
    headers: user.auth,
  });
  expect(response.statusCode).toBe(202);
  const { id } = response.json();
  return waitFor(async () => {
    const audit = (
      await t.app.inject({ method: 'GET', url: `/api/v1/audits/${id}`, headers: user.auth })
    ).json() as AuditAnswer;
    return audit.status === 'completed' || audit.status === 'failed' ? audit : null;
  }, 30_000);
}

beforeAll(async () => {
  const main = serve(site, 'main');
  servers.push(main);
  base = await listen(main);
  bigSitemap = urlset([...padding, `${base}/p/1`, `${base}/p/2`, `${base}/p/3`]);
  bomb = gzipSync(Buffer.concat([Buffer.from(`${xmlHeader}<urlset>`), Buffer.alloc(64 * 1024 * 1024, ' ')]));
  for (const status of [500, 404, 429]) {
    const server = serve(robotsAnswering(status), String(status));
    servers.push(server);
    bases[status] = await listen(server);
  }
  const moved = serve(
    {
      ...robotsAnswering(200),
      '/robots.txt': redirect('/down/robots.txt'),
      '/down/robots.txt': text(503, ''),
    },
    'moved',
  );
  servers.push(moved);
  bases.moved = await listen(moved);
  // A port nothing listens on: connection refused.
  const closed = createServer();
  closedBase = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));

  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true' } });
  user = await createUser(t);
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

describe('robots.txt on every redirect hop', () => {
  it('does not follow a same-origin redirect (first or second hop) to a path robots.txt disallows', async () => {
    const audit = await runAudit({ url: `${base}/`, scope: 'site' });
    expect(hits.get('main/private/secret')).toBeUndefined();
    expect(hits.get('main/private/other')).toBeUndefined();
    expect(hits.get('main/redir')).toBe(1);
    expect(audit).toMatchObject({ status: 'completed', pagesScanned: 2, imagesFound: 2 });
    expect(audit.notices).toEqual(
      expect.arrayContaining([
        `${base}/redir redirects to ${base}/private/secret, which robots.txt disallows, so it was not fetched.`,
        `${base}/two-hops redirects to ${base}/private/other, which robots.txt disallows, so it was not fetched.`,
      ]),
    );
  });

  it('answers a page audit of a redirect to a disallowed path with the reason, fetching nothing', async () => {
    const audit = await runAudit({ url: `${base}/redir`, scope: 'page' });
    expect(audit).toMatchObject({
      status: 'failed',
      pagesScanned: 0,
      error: `${base}/redir redirects to ${base}/private/secret, which robots.txt disallows, so it was not fetched.`,
    });
    expect(hits.get('main/private/secret')).toBeUndefined();
  });
});

describe('a robots.txt that cannot be read', () => {
  const unreachable = (origin: string, why: string) =>
    `The robots.txt of ${origin} could not be read (${why}). An unreachable robots.txt means no page may be crawled (RFC 9309), so the audit fetched none; try again once the site answers.`;

  it.each([
    ['500', 'it answered with HTTP 500'],
    ['429', 'it answered with HTTP 429'],
    ['moved', 'it answered with HTTP 503'],
  ])('robots.txt answering %s (5xx, 429, or a redirect to a 503) disallows every page', async (name, why) => {
    const origin = bases[name] as string;
    const audit = await runAudit({ url: `${origin}/`, scope: 'site' });
    expect(audit).toMatchObject({
      status: 'failed',
      pagesScanned: 0,
      error: `The robots.txt of ${origin} could not be read, so the audit fetched no page.`,
    });
    expect(audit.notices).toContain(unreachable(origin, why));
    expect(hits.get(`${name}/`)).toBeUndefined();
  });

  it('robots.txt refusing the connection (nothing listens on the port) disallows every page', async () => {
    const audit = await runAudit({ url: `${closedBase}/`, scope: 'page' });
    expect(audit).toMatchObject({
      status: 'failed',
      pagesScanned: 0,
      error: `The robots.txt of ${closedBase} could not be read, so the audit fetched no page.`,
    });
    expect(audit.notices).toContain(unreachable(closedBase, 'the site could not be reached'));
  });

  it('robots.txt answering 404 allows every page', async () => {
    const origin = bases[404] as string;
    const audit = await runAudit({ url: `${origin}/`, scope: 'page' });
    expect(audit).toMatchObject({ status: 'completed', pagesScanned: 1, imagesFound: 1 });
    expect(audit.notices).toEqual([]);
  });
});

describe('sitemaps', () => {
  it('reads a standard 6.5 MB sitemap to its end', async () => {
    expect(Buffer.byteLength(bigSitemap)).toBeGreaterThan(6.5 * 1024 * 1024);
    const audit = await runAudit({ url: `${base}/big-sitemap.xml`, scope: 'sitemap', maxPages: 10 });
    expect(audit).toMatchObject({ status: 'completed', pagesScanned: 3, imagesFound: 3 });
    expect(audit.notices).toContain(
      `The sitemap lists 45000 addresses on other sites; the audit stays on ${base} and left them out.`,
    );
  });

  it('stops reading an endless sitemap once maxPages pages are known', async () => {
    const audit = await runAudit({ url: `${base}/endless-sitemap.xml`, scope: 'sitemap', maxPages: 2 });
    expect(audit).toMatchObject({ status: 'completed', pagesScanned: 2, imagesFound: 2 });
    await waitFor(async () => endless.closedEarly, 5_000);
  });

  it('refuses a gzip bomb in a sitemap index with a notice and audits the gzipped sitemap beside it', async () => {
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const audit = await runAudit({ url: `${base}/gz-index.xml`, scope: 'sitemap' });
    expect(audit).toMatchObject({ status: 'completed', pagesScanned: 3, imagesFound: 3 });
    expect(audit.notices).toContain(
      `The sitemap could not be read: ${base}/bomb.xml.gz inflates to more than 50 MB, more than a sitemap may hold, so it was not read.`,
    );
  });
});
