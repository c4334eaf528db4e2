import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { watchHealth } from './health-watch.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

/**
 * No /health answer waits more than 1 s while any hostile input
 * is processed. The crawler's inputs: a robots.txt built to make wildcard matching backtrack (the
 * 24-byte rule that froze the API for 13 s, and 5,000 long wildcard rules) against pages with long
 * links, a 6.5 MB sitemap and a gzip bomb of a sitemap, each audited while /health is polled.
 */

const redos = 'Disallow: /*a*a*a*a*a*a*a*a*a*a*a*b';
const longRules = Array.from({ length: 5_000 }, (_, i) => `Disallow: /${'*a'.repeat(1_000)}${i}b`);
const longLinks = Array.from({ length: 300 }, (_, i) => `<a href="/${'a'.repeat(2_000)}${i}">more</a>`).join(
  ' ',
);
const pad = (i: number) =>
  `https://elsewhere.example/catalogue/harbour-supplies/rope-and-chain/item-${i}-in-galvanised-steel-for-fishing-boats`;

let base = '';
const pages: Record<string, { type: string; body: string | Buffer }> = {};
const server: Server = createServer((req, res) => {
  const page = pages[req.url ?? ''];
  if (!page) {
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Quay</title><p>Nothing here.</p>');
    return;
  }
  res.writeHead(200, { 'content-type': page.type }).end(page.body);
});

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pages['/robots.txt'] = { type: 'text/plain', body: ['User-agent: *', redos, ...longRules, ''].join('\n') };
  pages['/'] = {
    type: 'text/html',
    body: `<!doctype html><title>Quay</title><img src="/img/a.jpg" alt="The quay at dawn">${longLinks}`,
  };
  pages['/big-sitemap.xml'] = {
    type: 'application/xml',
    body: `<?xml version="1.0"?><urlset>${Array.from({ length: 50_000 }, (_, i) => `<url><loc>${pad(i)}</loc></url>`).join('')}<url><loc>${base}/</loc></url></urlset>`,
  };
  pages['/bomb.xml.gz'] = {
    type: 'application/gzip',
    body: gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 9 }),
  };
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true' } });
  user = await createUser(t);
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function auditWatched(body: object) {
  const health = watchHealth(t.app);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/audits',
    payload: body,
    headers: user.auth,
  });
  expect(response.statusCode).toBe(202);
  const { id } = response.json();
  const audit = await waitFor(async () => {
    const found = (
      await t.app.inject({ method: 'GET', url: `/api/v1/audits/${id}`, headers: user.auth })
    ).json();
    return found.status === 'completed' || found.status === 'failed' ? found : null;
  }, 90_000);
  const { worstMs, answers } = await health.stop();
  expect(answers).toBeGreaterThan(0);
  return { audit, worstMs };
}

describe('hostile sites keep /health answering within 1 s', () => {
  it('a robots.txt of backtracking wildcards against 300 links of 2,000 characters', async () => {
    const { audit, worstMs } = await auditWatched({ url: `${base}/`, scope: 'site', maxPages: 20 });
    expect(audit.status).toBe('completed');
    expect(audit.pagesScanned).toBeGreaterThanOrEqual(1);
    expect(worstMs).toBeLessThan(1000);
  }, 120_000);

  it('a 6.5 MB sitemap of 50,000 addresses', async () => {
    expect(Buffer.byteLength(pages['/big-sitemap.xml']?.body ?? '')).toBeGreaterThan(6 * 1024 * 1024);
    const { audit, worstMs } = await auditWatched({
      url: `${base}/big-sitemap.xml`,
      scope: 'sitemap',
      maxPages: 5,
    });
    expect(audit.status).toBe('completed');
    expect(worstMs).toBeLessThan(1000);
  }, 120_000);

  it('a gzip bomb of a sitemap (inflating to 64 MB)', async () => {
    const { audit, worstMs } = await auditWatched({
      url: `${base}/bomb.xml.gz`,
      scope: 'sitemap',
      maxPages: 5,
    });
    expect(['completed', 'failed']).toContain(audit.status);
    expect(JSON.stringify(audit)).toMatch(/inflates to more than 50 MB/);
    expect(worstMs).toBeLessThan(1000);
  }, 120_000);
});
