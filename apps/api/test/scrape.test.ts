import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/** Test pages served on 127.0.0.1, reachable only with FETCH_ALLOW_PRIVATE=true. */
const pages: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/fragments.html': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<img src="/x.png"><img src="/x.png#frag"><img src="x.png#other"><img src="/y.png#only">');
  },
  '/gallery/index.html': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title> Harbour   photos </title></head><body>
      <h1>Our harbour</h1>
      <p>Boats at dawn, seen from the pier. <img src="boat.jpg" alt="A red boat"></p>
      <img src="/abs/boat.jpg" srcset="small.jpg 320w, large.jpg 1280w, medium.jpg 640w" alt="">
      <img src="x1.jpg" srcset="x1.jpg 1x, x2.jpg 2x">
      <h2>Lazy ones</h2>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="lazy.jpg" alt="Lazy">
      <img data-lazy-src="https://cdn.example.com/lazier.png">
      <img data-srcset="lazyset-1.jpg 1x, lazyset-3.jpg 3x">
      <img src="boat.jpg" alt="The same boat again">
      <figure><a href="/boats/red"><img src="figure.jpg" alt=""></a><figcaption>The red boat, 1998</figcaption></figure>
      <img src="data:image/png;base64,iVBORw0KGgo=" alt="Inline">
      <img src="javascript:alert(1)">
      <img>
      <template><img src="inert.jpg"></template>
    </body></html>`);
  },
  '/based.html': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      '<html><head><base href="https://static.example.com/assets/"></head><body><img src="a.png"><img src="/root.png"><img src="//other.example.org/b.png"></body></html>',
    );
  },
  '/many.html': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<html><body>${Array.from({ length: 250 }, (_, i) => `<img src="/img/${i}.png">`).join('')}</body></html>`,
    );
  },
  '/rating.html': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><head><title>Reviews</title><meta property="og:site_name" content="Harbour Shop"></head><body>
      <header><img src="/img/logo.svg"></header>
      <p>Rating: <img src="/img/star-full.png"> <img src="/img/star-full.png?2"> <img src="/img/star-empty.png"></p>
      <div role="img" aria-labelledby="score"><img src="/img/fullstar.png"><img src="/img/emptystar.png"></div>
      <span id="score">1 of 2</span>
    </body></html>`);
  },
  '/moved': (_req, res) => res.writeHead(302, { location: '/gallery/index.html' }).end(),
  '/image.png': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(Buffer.alloc(100));
  },
  '/huge.html': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    // Streamed without a content-length: the cap counts the bytes as they arrive.
    const chunk = `<p>${'x'.repeat(64 * 1024)}</p>`;
    let sent = 0;
    const write = () => {
      while (sent < 6 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', write);
      }
      res.end();
    };
    write();
  },
  '/slow.html': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><body>');
    // Never finishes; the server closes it at the end of the tests.
  },
  '/missing.html': (_req, res) =>
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'),
};

let server: Server;
let base: string;
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (page) page(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true' } });
  user = await createUser(t);
});
afterAll(async () => {
  await t.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const scrape = (app: TestApp, url: unknown, headers: Record<string, string> = user.auth) =>
  app.app.inject({ method: 'POST', url: '/api/v1/users/scrape-and-generate', payload: { url }, headers });

describe('POST /users/scrape-and-generate', () => {
  it('needs a signed-in user', async () => {
    const response = await scrape(t, `${base}/gallery/index.html`, {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
  });

  it('extracts every image once: srcset, lazy attributes, relative URLs, data: rows and context', async () => {
    const response = await scrape(t, `${base}/moved`);
    expect(response.statusCode).toBe(200);
    const page = `${base}/gallery/`;
    const rows = response.json();
    expect(rows.map((row: { src: string }) => row.src)).toEqual([
      `${page}boat.jpg`,
      `${page}large.jpg`,
      `${page}x2.jpg`,
      `${page}lazy.jpg`,
      'https://cdn.example.com/lazier.png',
      `${page}lazyset-3.jpg`,
      `${page}figure.jpg`,
      'data:image/png;base64,iVBORw0KGgo=',
      'javascript:alert(1)',
    ]);
    expect(rows[0]).toEqual({
      src: `${page}boat.jpg`,
      alt: 'A red boat',
      invalid: false,
      context: {
        pageTitle: 'Harbour photos',
        heading: 'Our harbour',
        surroundingText: 'Boats at dawn, seen from the pier.',
      },
    });
    expect(rows[3]).toMatchObject({ alt: 'Lazy', context: { heading: 'Lazy ones' } });
    expect(rows[6]).toMatchObject({
      alt: '',
      invalid: false,
      context: {
        heading: 'Lazy ones',
        caption: 'The red boat, 1998',
        linkTarget: `${base}/boats/red`,
        role: 'link',
      },
    });
    expect(rows[7]).toMatchObject({ alt: 'Inline', invalid: true, error: 'Invalid image source' });
    expect(rows[8]).toMatchObject({ invalid: true, error: 'Invalid image source' });
  });

  it('answers the structure around an image: its row, the role="img" it is part of, the site’s logo and name', async () => {
    const response = await scrape(t, `${base}/rating.html`);
    expect(response.statusCode).toBe(200);
    const contexts = response.json().map((row: { context: object }) => row.context);
    const files = ['star-full.png', 'star-full.png', 'star-empty.png'];
    expect(contexts).toEqual([
      expect.objectContaining({ pageTitle: 'Reviews', siteName: 'Harbour Shop', siteLogo: true }),
      expect.objectContaining({ imageRow: { position: 1, files }, surroundingText: 'Rating:' }),
      expect.objectContaining({ imageRow: { position: 2, files } }),
      expect.objectContaining({ imageRow: { position: 3, files } }),
      expect.objectContaining({ partOfPicture: '1 of 2' }),
      expect.objectContaining({ partOfPicture: '1 of 2' }),
    ]);
  });

  it('resolves against <base href>', async () => {
    const response = await scrape(t, `${base}/based.html`);
    expect(response.statusCode).toBe(200);
    expect(response.json().map((row: { src: string }) => row.src)).toEqual([
      'https://static.example.com/assets/a.png',
      'https://static.example.com/root.png',
      'https://other.example.org/b.png',
    ]);
  });

  it('lists x.png, x.png#frag and x.png#other as one row, without the fragment', async () => {
    const response = await scrape(t, `${base}/fragments.html`);
    expect(response.statusCode).toBe(200);
    expect(response.json().map((row: { src: string }) => row.src)).toEqual([
      `${base}/x.png`,
      `${base}/y.png`,
    ]);
  });

  it('answers at most 200 images', async () => {
    const rows = (await scrape(t, `${base}/many.html`)).json();
    expect(rows).toHaveLength(200);
    expect(rows[199].src).toBe(`${base}/img/199.png`);
  });

  it('refuses what is not an http(s) URL with 400', async () => {
    for (const url of ['', 'not a url', 'ftp://example.com/', 'file:///etc/passwd']) {
      const response = await scrape(t, url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    }
    const withCredentials = await scrape(t, `http://user:secret@127.0.0.1:1/`);
    expect(withCredentials.statusCode).toBe(400);
    expect(withCredentials.json().message).toMatch(/user name or password/);
  });

  it('answers fetch failures with clear 4xx and 5xx errors, never a 500', async () => {
    const cases: [string, number, string, RegExp][] = [
      ['/image.png', 415, 'UNSUPPORTED_MEDIA_TYPE', /image\/png/],
      ['/huge.html', 413, 'PAYLOAD_TOO_LARGE', /too large/],
      ['/missing.html', 502, 'BAD_GATEWAY', /HTTP 404/],
    ];
    for (const [path, status, code, message] of cases) {
      const response = await scrape(t, `${base}${path}`);
      expect(response.statusCode, path).toBe(status);
      expect(response.json()).toMatchObject({ code, message: expect.stringMatching(message) });
    }
    // Nothing listens on port 1.
    const refused = await scrape(t, 'http://127.0.0.1:1/');
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({
      code: 'BAD_GATEWAY',
      message: expect.stringMatching(/could not be reached/),
    });
  });

  it('gives up on a page that does not finish in time with 504', async () => {
    const quick = await buildTestApp({
      env: { FETCH_ALLOW_PRIVATE: 'true' },
      config: { fetch: { allowPrivate: true, connectTimeoutMs: 1000, timeoutMs: 500 } },
    });
    try {
      const response = await scrape(quick, `${base}/slow.html`, (await createUser(quick)).auth);
      expect(response.statusCode).toBe(504);
      expect(response.json()).toMatchObject({
        code: 'GATEWAY_TIMEOUT',
        message: expect.stringMatching(/too long/),
      });
    } finally {
      await quick.cleanup();
    }
  });
});

describe('with FETCH_ALLOW_PRIVATE off (the default)', () => {
  let closed: TestApp;
  let closedUser: TestUser;
  beforeAll(async () => {
    closed = await buildTestApp();
    closedUser = await createUser(closed);
  });
  afterAll(() => closed.cleanup());

  it('refuses private and local addresses with 400, also behind a redirect', async () => {
    for (const url of [
      `${base}/gallery/index.html`,
      'http://localhost/',
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'http://172.16.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[fc00::1]/',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
    ]) {
      const response = await scrape(closed, url, closedUser.auth);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/private or local address/),
      });
    }
  });
});
