import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { type FakeWordPress, json, mediaItems, startFakeWordPress } from './fake-wordpress.ts';
import { watchHealth } from './health-watch.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';
import { type AuditItem, type Integration, integrationApi } from './wordpress-helpers.ts';

/**
 * ADR 070: what a hostile WordPress site answers cannot stall the API, fill the database, keep an
 * import going for ever or leave it "importing" without a word, and cannot keep another user's import
 * waiting. Each site is a stand-in on 127.0.0.1 (fake-wordpress.ts) answering what no WordPress does.
 */

let t: TestApp;
let owner: TestUser;
const sites: FakeWordPress[] = [];
const { call, settled } = integrationApi(
  () => t,
  () => owner,
  { timeoutMs: 60_000 },
);

beforeAll(async () => {
  t = await buildTestApp({
    env: { FETCH_ALLOW_PRIVATE: 'true', WORDPRESS_REQUESTS_PER_MINUTE: '100000' },
  });
  owner = await createUser(t, 5);
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
  for (const site of sites) await site.close();
});

async function site(routes: Parameters<typeof startFakeWordPress>[0]): Promise<FakeWordPress> {
  const started = await startFakeWordPress(routes);
  sites.push(started);
  return started;
}

const credentials = (siteUrl: string) => ({
  siteUrl,
  username: 'editor',
  applicationPassword: 'abcd EFGH ijkl MNOP qrst UVWX',
});

/** Connects the site as `who` and starts its import; the integration's id. */
async function startImport(siteUrl: string, who: TestUser = owner): Promise<string> {
  const connected = await call('POST', '/integrations/wordpress', credentials(siteUrl), who);
  expect(connected.statusCode, connected.body).toBe(201);
  const { id } = connected.json() as Integration;
  const started = await call('POST', `/integrations/${id}/import`, undefined, who);
  expect(started.statusCode, started.body).toBe(202);
  return id;
}

/** Streams `bytes` of `[[[[…` (never closed) and stops when the reader hangs up. */
function streamNesting(res: ServerResponse, bytes: number): undefined {
  const chunk = Buffer.from('['.repeat(64 * 1024));
  let sent = 0;
  let open = true;
  res.on('close', () => {
    open = false;
  });
  res.on('error', () => undefined);
  res.writeHead(200, { 'content-type': 'application/json' });
  const write = () => {
    while (open && sent < bytes) {
      sent += chunk.byteLength;
      if (!res.write(chunk)) return void res.once('drain', write);
    }
    if (open) res.end();
  };
  write();
  return undefined;
}

describe('a WordPress answer too large or too deep to read', () => {
  it('refuses a 33 MB nested answer to /users/me in words while /health keeps answering within 1 s', async () => {
    const huge = await site({ '/wp/v2/users/me': (_query, res) => streamNesting(res, 33_000_000) });
    const health = watchHealth(t.app);
    const connect = await call('POST', '/integrations/wordpress', credentials(huge.url));
    const { worstMs, answers } = await health.stop();
    expect(connect.statusCode).toBe(400);
    expect(connect.json().message).toMatch(
      /^127\.0\.0\.1 answered with more than 8 MB, more than Altwise reads from one WordPress answer/,
    );
    // The refusal can come within one poll's pause (62 ms on a quiet machine): one answer is enough.
    expect(answers).toBeGreaterThanOrEqual(1);
    expect(worstMs).toBeLessThan(1000);
    expect((await call('GET', '/integrations')).json()).toEqual([]);
  });

  it('refuses JSON nested 1,000,000 deep within the size limit, naming the limit, /health answering meanwhile', async () => {
    const deep = await site({
      '/wp/v2/users/me': () => ({
        headers: { 'content-type': 'application/json' },
        body: `{"id":1,"name":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`,
      }),
    });
    const health = watchHealth(t.app);
    const connect = await call('POST', '/integrations/wordpress', credentials(deep.url));
    const { worstMs } = await health.stop();
    expect(connect.statusCode).toBe(400);
    expect(connect.json().message).toMatch(
      /^127\.0\.0\.1:\d+ answered with JSON nested more than 64 levels deep while checking the connection/,
    );
    expect(worstMs).toBeLessThan(1000);
  });
});

describe('an import a site would never let end', () => {
  it('stops a media library claiming a million pages at 5,000 images, saying so', async () => {
    const endless = await site({
      '/wp/v2/media': (query) => {
        const page = Number(query.get('page'));
        return json(mediaItems(endless.url, (page - 1) * 100 + 1, 100), {
          'x-wp-total': '100000000',
          'x-wp-totalpages': '1000000',
        });
      },
    });
    const integration = await settled(await startImport(endless.url));
    expect(integration.status).toBe('imported');
    expect(integration.imported).toBe(5000);
    expect(integration.notice).toBe(
      'Only the first 5,000 images were imported. An import keeps at most 5,000 images of a site’s media library.',
    );
    expect(endless.calls.filter((made) => made.startsWith('GET /wp/v2/media')).length).toBe(50);
  }, 90_000);

  it('ends an import whose one page holds 50,000 images, or one id twice, with every image stored once', async () => {
    const vast = await site({
      '/wp/v2/media': () => json(mediaItems(vast.url, 1, 50_000), { 'x-wp-totalpages': '1' }),
      // 2,000 posts in one answer (1,900 ids, some twice), each using one image: stored in chunks.
      '/wp/v2/posts': (query) =>
        query.get('page') === '1'
          ? json(
              Array.from({ length: 2_000 }, (_, at) => ({
                id: 100_000 + (at % 1_900),
                title: { raw: `Post ${at}` },
                content: {
                  raw: `<img class="wp-image-${(at % 50) + 1}" src="${vast.url}/wp-content/uploads/photo-${(at % 50) + 1}.png">`,
                  rendered: '<p>Hi</p>',
                },
              })),
              { 'x-wp-totalpages': '1' },
            )
          : json([]),
    });
    const repeated = await site({
      '/wp/v2/media': () =>
        json([...mediaItems(repeated.url, 7, 2), ...mediaItems(repeated.url, 7, 1)], {
          'x-wp-totalpages': '1',
        }),
    });
    const [first, second] = await Promise.all([startImport(vast.url), startImport(repeated.url)]);
    const large = await settled(first as string);
    expect(large.status).toBe('imported');
    expect(large.error).toBeNull();
    expect(large.imported).toBe(5000);
    expect(large.notice).toMatch(/^Only the first 5,000 images were imported\./);
    const twice = await settled(second as string);
    expect(twice.status).toBe('imported');
    expect(twice.imported).toBe(2);
  }, 120_000);

  it('ends in words, not "importing", when the database refuses what a site answered', async () => {
    const nul = await site({
      '/wp/v2/media': () =>
        json([{ ...mediaItems(nul.url, 1, 1)[0], title: { raw: 'Bad \u0000 title' } }], {
          'x-wp-totalpages': '1',
        }),
    });
    const integration = await settled(await startImport(nul.url));
    expect(integration.status).toBe('failed');
    expect(integration.error).toMatch(
      /^The import of 127\.0\.0\.1:\d+ stopped: Altwise could not store what the site answered\. Import again/,
    );
  }, 90_000);
});

describe('a post link that is not a web address', () => {
  it('audits a post whose link is javascript: at the site’s own ?p= address', async () => {
    const linked = await site({
      '/wp/v2/media': () => json(mediaItems(linked.url, 1, 1), { 'x-wp-totalpages': '1' }),
      '/wp/v2/posts': (query) =>
        query.get('page') === '1'
          ? json(
              [
                { id: 41, link: 'javascript:alert(document.cookie)//' },
                { id: 42, link: 'data:text/html,<script>alert(1)</script>' },
                { id: 43, link: 'not a url' },
                { id: 44, link: `${linked.url}/a-real-post/` },
              ].map((post) => ({
                ...post,
                title: { raw: `Post ${post.id}` },
                content: {
                  raw: `<img class="wp-image-1" src="${linked.url}/wp-content/uploads/photo-1.png">`,
                  rendered: `<img src="${linked.url}/wp-content/uploads/photo-1.png">`,
                },
              })),
            )
          : json([]),
    });
    const integration = await settled(await startImport(linked.url));
    expect(integration.status).toBe('imported');
    const items = (await call('GET', `/audits/${integration.auditId}/images?pageSize=500`)).json()
      .items as AuditItem[];
    expect([...new Set(items.map((item) => item.pageUrl))].sort()).toEqual(
      [
        `${linked.url}/?p=41`,
        `${linked.url}/?p=42`,
        `${linked.url}/?p=43`,
        `${linked.url}/a-real-post/`,
        `${linked.url}/wp-admin/upload.php`,
      ].sort(),
    );
  }, 90_000);
});

describe('import slots shared between users', () => {
  it('imports another user’s 7 images at once while one user’s two endless imports hold both slots', async () => {
    let ended = false;
    const endless = async () => {
      const started: FakeWordPress = await site({
        '/wp/v2/media': async (query) => {
          if (ended) return { status: 500, body: '{"code":"gone","message":"Gone."}' };
          await new Promise((resolve) => setTimeout(resolve, 600));
          const page = Number(query.get('page'));
          return json(mediaItems(started.url, (page - 1) * 100 + 1, 100), { 'x-wp-totalpages': '1000000' });
        },
      });
      return started;
    };
    const hogs = await Promise.all([startImport((await endless()).url), startImport((await endless()).url)]);
    // Both of the first user's imports have the process's two slots.
    await waitFor(async () => {
      const states = await Promise.all(
        hogs.map(async (id) => (await call('GET', `/integrations/${id}`)).json() as Integration),
      );
      return states.every((state) => state.imported > 0);
    }, 30_000);
    const other = await createUser(t, 5);
    const small = await site({
      '/wp/v2/media': () => json(mediaItems(small.url, 1, 7), { 'x-wp-total': '7', 'x-wp-totalpages': '1' }),
    });
    const started = performance.now();
    const id = await startImport(small.url, other);
    const done = await waitFor(async () => {
      const integration = (await call('GET', `/integrations/${id}`, undefined, other)).json() as Integration;
      return integration.status === 'importing' ? null : integration;
    }, 15_000);
    const seconds = (performance.now() - started) / 1000;
    expect(done.status).toBe('imported');
    expect(done.imported).toBe(7);
    expect(seconds).toBeLessThan(15);
    // The first user's imports were still under way: the slot was shared, not freed by their end.
    for (const hog of hogs)
      expect(((await call('GET', `/integrations/${hog}`)).json() as Integration).status).toBe('importing');
    ended = true;
    for (const hog of hogs) expect((await settled(hog)).status).toBe('failed');
  }, 120_000);
});
