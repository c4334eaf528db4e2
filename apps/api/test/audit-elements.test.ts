import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuditImage, AuditPagesResponse, PageAnnouncementsResponse } from '@altwise/contracts/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

/**
 * Every image-like element, named the way browsers name it, and each
 * page's screen-reader preview, through the API on a local site.
 */
const pages: Record<string, string> = {
  '/': `<!doctype html><html><head><title>Harbour Lights</title>
    <style>.hero { background-image: url("/img/hero.jpg") } .gone { display: none }</style></head><body>
    <h1>Harbour Lights</h1>
    <span id="cap">The north pier at dawn</span>
    <img src="/img/pier.jpg" aria-labelledby="cap" aria-label="Pier" alt="Pier photo" title="Pier">
    <picture><source srcset="/img/boat-2x.webp 2x"><img alt="A red fishing boat"></picture>
    <svg role="img" id="stars"><title>Rated five stars</title><path d="M0 0"/></svg>
    <svg role="img" id="blank-chart"><rect width="10" height="10"/></svg>
    <div role="img" aria-label="Sunset over the quay" style="background-image:url(/img/sunset.jpg)"></div>
    <div class="hero" title="Boats in the harbour at night"></div>
    <object data="/img/tides.svg" type="image/svg+xml" aria-label="Tide times for this week"></object>
    <form><input type="image" src="/img/go.png" alt="Search tours"></form>
    <img src="/img/map.png" usemap="#m" alt="Map of the harbour"><map name="m"><area href="/north" alt="North pier"></map>
    <p>Book a tour with us.</p>
    <a href="/tours"><img src="/img/tours.jpg" alt="Image of our tour boat"></a> <a href="/tours">Our tours</a>
    <section style="background-image:url(/img/banner.jpg)"><h2>Summer tours</h2></section>
    <img src="/img/hidden.jpg" alt="Hidden" style="display:none">
    <div aria-hidden="true"><img src="/img/icon.png" alt="Icon"></div>
    <img class="gone" src="/img/gone.jpg" alt="Gone">
    </body></html>`,
};

let server: Server;
let base = '';
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let auditId = '';
let ownerKey = '';

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

beforeAll(async () => {
  server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (req.url === '/robots.txt')
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\n');
    else if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true' } });
  owner = await createUser(t);
  stranger = await createUser(t);
  const key = await t.app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: owner.auth,
    payload: { name: 'CMS' },
  });
  ownerKey = key.json().key;
  const started = await t.app.inject({
    method: 'POST',
    url: '/api/v1/audits',
    headers: owner.auth,
    payload: { url: `${base}/`, scope: 'page' },
  });
  expect(started.statusCode).toBe(202);
  auditId = started.json().id;
  await waitFor(async () => {
    const audit = (await get(`/api/v1/audits/${auditId}`, owner.auth)).json();
    return audit.status === 'completed' || audit.status === 'failed' ? audit : null;
  }, 30_000);
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

describe('GET /audits/{id}/images with element kinds and accessible names', () => {
  it('answers each image-like element with its kind, computed name and name source', async () => {
    const response = await get(`/api/v1/audits/${auditId}/images`, owner.auth);
    expect(response.statusCode).toBe(200);
    const items = response.json().items as AuditImage[];
    const page = `${base}/`;
    expect(items.map((item) => [item.element, item.src, item.name, item.nameSource])).toEqual(
      [
        ['img', `${base}/img/pier.jpg`, 'The north pier at dawn', 'aria-labelledby'],
        ['svg', `${page}#stars`, 'Rated five stars', 'svg-title'],
        ['svg', `${page}#blank-chart`, null, 'none'],
        ['role-img', `${base}/img/sunset.jpg`, 'Sunset over the quay', 'aria-label'],
        ['css-background', `${base}/img/hero.jpg`, 'Boats in the harbour at night', 'title'],
        ['object', `${base}/img/tides.svg`, 'Tide times for this week', 'aria-label'],
        ['input-image', `${base}/img/go.png`, 'Search tours', 'alt'],
        ['img', `${base}/img/map.png`, 'Map of the harbour', 'alt'],
        ['area', `${page}#area-10`, 'North pier', 'alt'],
        ['img', `${base}/img/tours.jpg`, 'Image of our tour boat', 'alt'],
        ['css-background', `${base}/img/banner.jpg`, null, 'none'],
      ].toSpliced(1, 0, ['img', `${base}/img/boat-2x.webp`, 'A red fishing boat', 'alt']),
    );
  });

  it('fails an <svg role="img"> without a name as missing, naming the element in words', async () => {
    const response = await get(`/api/v1/audits/${auditId}/images?problem=missing`, owner.auth);
    const items = response.json().items as AuditImage[];
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ element: 'svg', verdict: 'fail', alt: null });
    expect(items[0]?.problems[0]?.message).toBe(
      `The <svg> image “${base}/#blank-chart” has no <title>, aria-label or aria-labelledby, so screen readers announce nothing.`,
    );
  });

  it('passes named svg, role=img and object images, warns of a CSS background named only by its title, and keeps <img> checks', async () => {
    const items = (await get(`/api/v1/audits/${auditId}/images?pageSize=50`, owner.auth)).json()
      .items as AuditImage[];
    const verdictOf = (src: string) => items.find((item) => item.src === src)?.verdict;
    expect(verdictOf(`${base}/#stars`)).toBe('pass');
    expect(verdictOf(`${base}/img/sunset.jpg`)).toBe('pass');
    // A title is its only name: not every screen reader announces it (title-only, ADR 060).
    expect(verdictOf(`${base}/img/hero.jpg`)).toBe('warning');
    expect(items.find((item) => item.src === `${base}/img/hero.jpg`)?.problems.map((p) => p.code)).toEqual([
      'title-only',
    ]);
    expect(verdictOf(`${base}/img/tides.svg`)).toBe('pass');
    expect(verdictOf(`${base}/img/pier.jpg`)).toBe('pass');
    // A section's background picture cannot carry an alt: a person is asked whether it is decorative.
    const banner = items.find((item) => item.src === `${base}/img/banner.jpg`);
    expect(banner).toMatchObject({
      verdict: 'warning',
      problems: [expect.objectContaining({ code: 'css-image-to-check' })],
    });
    expect(banner?.problems[0]?.message).toBe(
      'The CSS background image “banner.jpg” has no text alternative: check whether it is decorative, and if visitors need what it shows, give its element role="img" and an aria-label.',
    );
  });

  it('leaves hidden images out and says so in a notice, with the count on the page', async () => {
    const audit = (await get(`/api/v1/audits/${auditId}`, owner.auth)).json();
    expect(audit.imagesFound).toBe(12);
    expect(audit.notices).toContain(
      `${base}/ has 3 hidden images (display: none, visibility: hidden, the hidden attribute, aria-hidden="true" or a zero width or height): visitors and screen readers do not get them, so they are not in the audit.`,
    );
    const list = await get(`/api/v1/audits/${auditId}/pages`, owner.auth);
    expect(list.statusCode).toBe(200);
    expect((list.json() as AuditPagesResponse).items).toEqual([
      expect.objectContaining({
        url: `${base}/`,
        status: 'scanned',
        images: 12,
        hiddenImages: 3,
        note: null,
      }),
    ]);
  });
});

describe('GET /audits/{id}/pages/{pageId}/announcements', () => {
  const pageIdOf = async () =>
    ((await get(`/api/v1/audits/${auditId}/pages`, owner.auth)).json() as AuditPagesResponse).items[0]
      ?.id as string;

  it('answers the screen-reader preview in reading order, redundant and verbose announcements marked', async () => {
    const pageId = await pageIdOf();
    const response = await get(`/api/v1/audits/${auditId}/pages/${pageId}/announcements`, owner.auth);
    expect(response.statusCode).toBe(200);
    const preview = response.json() as PageAnnouncementsResponse;
    expect(preview).toMatchObject({ pageId, url: `${base}/`, truncated: false, hiddenImages: 3 });
    expect(preview.items.map((item) => item.spoken)).toEqual([
      'heading level 1, Harbour Lights',
      'The north pier at dawn',
      'image, The north pier at dawn',
      'image, A red fishing boat',
      'image, Rated five stars',
      'image (no name: some screen readers read its file name)',
      'image, Sunset over the quay',
      'image, Tide times for this week',
      'button, image, Search tours',
      'image, Map of the harbour',
      'link, image, North pier',
      'Book a tour with us.',
      'link, image, Image of our tour boat',
      'link, Our tours',
      // The section's background picture is not announced: only its heading is.
      'heading level 2, Summer tours',
    ]);
    const flagged = preview.items
      .filter((item) => item.flags.length > 0)
      .map((item) => [item.name, item.flags.map((flag) => flag.kind)]);
    expect(flagged).toEqual([
      ['The north pier at dawn', ['redundant']],
      ['Image of our tour boat', ['verbose']],
      ['Our tours', ['redundant']],
    ]);
    expect(preview).toMatchObject({ redundant: 2, verbose: 1 });
  });

  it('answers the owner through an API key too', async () => {
    const pageId = await pageIdOf();
    const withKey = { authorization: `Bearer ${ownerKey}` };
    expect((await get(`/api/v1/audits/${auditId}/pages/${pageId}/announcements`, withKey)).statusCode).toBe(
      200,
    );
    expect((await get(`/api/v1/audits/${auditId}/pages`, withKey)).statusCode).toBe(200);
  });

  it("is 404 for another user's audit, a page of another audit, and 400 for a malformed page id", async () => {
    const pageId = await pageIdOf();
    const foreign = await get(`/api/v1/audits/${auditId}/pages/${pageId}/announcements`, stranger.auth);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ message: 'There is no such audit.' });
    expect((await get(`/api/v1/audits/${auditId}/pages`, stranger.auth)).statusCode).toBe(404);
    const otherPage = await get(
      `/api/v1/audits/${auditId}/pages/00000000-0000-4000-8000-000000000000/announcements`,
      owner.auth,
    );
    expect(otherPage.statusCode).toBe(404);
    expect(otherPage.json()).toMatchObject({ message: 'There is no such page in this audit.' });
    const malformed = await get(`/api/v1/audits/${auditId}/pages/not-a-page/announcements`, owner.auth);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/There is no such page in this audit\./);
    const anonymous = await get(`/api/v1/audits/${auditId}/pages/${pageId}/announcements`, {});
    expect(anonymous.statusCode).toBe(401);
  });
});
