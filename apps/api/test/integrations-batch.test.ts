import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';
import {
  type AuditItem,
  type Change,
  connectAndImport,
  createImagePost,
  fixAndApprove,
  groundedEngine,
  type Integration,
  integrationApi,
  openWordPress,
  runTag,
  type SeededMedia,
  type SeededPost,
  startWordPressProxy,
  uploadPng,
  type WordPressProxy,
} from './wordpress-helpers.ts';

/**
 * Publishing many places at once (ADR 076), against the real WordPress behind a proxy that lists
 * every call (a batch as the writes it holds) and counts the writes in flight. The posts' and
 * pages' alt text goes through `/batch/v1`, the attachments' two at a time (WORDPRESS_CONCURRENCY=2);
 * one write of a batch that WordPress refuses fails only its own places, in WordPress's words.
 */

let wp: Awaited<ReturnType<typeof openWordPress>>;
let proxy: WordPressProxy;
let app: TestApp | undefined;
let owner: TestUser;
const run = runTag();
const media: SeededMedia[] = [];
let harbour: SeededPost;
let spoiled: SeededPost;
let market: SeededPost;
let about: SeededPost;

const { call: api, settled } = integrationApi(
  () => app,
  () => owner,
);

const postWrites = (calls: string[]) =>
  calls.filter((call) => /^POST \/wp\/v2\/(posts|pages)\/\d+$/.test(call));
const mediaWrites = (calls: string[]) => calls.filter((call) => /^POST \/wp\/v2\/media\/\d+$/.test(call));

beforeAll(async () => {
  wp = await openWordPress();
  proxy = await startWordPressProxy(wp.site);
  for (let i = 0; i < 6; i++)
    media.push(await uploadPng(wp.site, { name: `quay-${run}-${i}.png`, color: `rgb(${40 * i}, 90, 160)` }));
  const [m0, m1, m2, m3, m4, m5] = media as [
    SeededMedia,
    SeededMedia,
    SeededMedia,
    SeededMedia,
    SeededMedia,
    SeededMedia,
  ];
  harbour = await createImagePost(wp.site, {
    title: `The harbour wall ${run}`,
    text: 'Two views of the wall.',
    images: [
      [m0, 'IMG_100.png'],
      [m1, 'IMG_101.png'],
    ],
  });
  spoiled = await createImagePost(wp.site, {
    title: `The fish market ${run}`,
    text: 'Early trade.',
    images: [[m2, 'IMG_102.png']],
  });
  market = await createImagePost(wp.site, {
    title: `The net loft ${run}`,
    text: 'Nets drying.',
    images: [[m3, 'IMG_103.png']],
  });
  about = await createImagePost(wp.site, {
    title: `About the quay ${run}`,
    text: 'Who we are.',
    type: 'pages',
    images: [
      [m4, 'IMG_104.png'],
      [m5, 'IMG_105.png'],
    ],
  });
  app = await buildTestApp({
    env: {
      FETCH_ALLOW_PRIVATE: 'true',
      GENERATION_RETRY_DELAY_MS: '10',
      WORDPRESS_CONCURRENCY: '2',
      WORDPRESS_REQUESTS_PER_MINUTE: '6000',
    },
    engine: groundedEngine(),
  });
  owner = await createUser(app, 40);
}, 180_000);

afterAll(async () => {
  await app?.cleanup();
  await proxy?.close();
  await wp?.site.stop();
});

describe('publishing many places at once', () => {
  let id: string;
  let words: Map<string, string>;
  let approvedIds: string[];

  it('writes posts and pages in one batch and attachments two at a time; a refused write fails only its places', async () => {
    const imported = await connectAndImport(api, settled, {
      siteUrl: proxy.url,
      username: wp.site.username,
      applicationPassword: wp.site.applicationPassword,
    });
    expect(imported.status, JSON.stringify(imported)).toBe('imported');
    id = imported.id;
    const links = [harbour, spoiled, market, about].map((post) => post.link);
    const ours = (items: AuditItem[]) =>
      items.filter(
        (item) =>
          links.includes(item.pageUrl) ||
          (item.pageUrl.endsWith('/upload.php') && media.some((m) => m.sourceUrl === item.src)),
      );
    // Every place of this file's images fails until fixed: six attachments and their six uses.
    await waitFor(async () => {
      const items = (await api('GET', `/audits/${imported.auditId}/images?pageSize=500&verdict=fail`)).json()
        .items as AuditItem[];
      return ours(items).length === 12;
    }, 30_000);
    const { failing, approved } = await fixAndApprove(api, imported.auditId as string, ours);
    expect(failing).toHaveLength(12);
    approvedIds = approved.map((item) => item.id);
    words = new Map(approved.map((item) => [`${item.pageUrl}|${item.src}`, item.suggestion as string]));

    // WordPress refuses the fish market's write inside the batch (a status it does not know).
    proxy.spoil = (call) => call === `POST /wp/v2/posts/${spoiled.id}`;
    proxy.mostWritesAtOnce = 0;
    const before = proxy.calls.length;
    const batchesBefore = proxy.batches.length;
    expect((await api('POST', `/integrations/${id}/publish`, {})).statusCode).toBe(202);
    const done = await settled(id);
    proxy.spoil = () => false;
    const calls = proxy.calls.slice(before);

    // The four posts and pages went in one batch, each once; the six attachments one by one.
    expect(proxy.batches.slice(batchesBefore)).toEqual([
      expect.arrayContaining([
        `POST /wp/v2/posts/${harbour.id}`,
        `POST /wp/v2/posts/${spoiled.id}`,
        `POST /wp/v2/posts/${market.id}`,
        `POST /wp/v2/pages/${about.id}`,
      ]),
    ]);
    expect(postWrites(calls)).toHaveLength(4);
    expect(new Set(mediaWrites(calls))).toEqual(new Set(media.map((m) => `POST /wp/v2/media/${m.id}`)));
    expect(mediaWrites(calls)).toHaveLength(6);
    // Never more than WORDPRESS_CONCURRENCY writes at once, and that many were used.
    expect(proxy.mostWritesAtOnce).toBe(2);
    // What was written was read back after the batch.
    const batchAt = calls.indexOf(`POST /wp/v2/posts/${spoiled.id}`);
    expect(calls.slice(batchAt).some((call) => call === 'GET /wp/v2/posts')).toBe(true);
    expect(calls.slice(batchAt).some((call) => call === 'GET /wp/v2/pages')).toBe(true);

    // Only the fish market's one place failed, in WordPress's words; all else is on the site.
    expect(done.status).toBe('imported');
    expect(done.notice).toBe(`Published 11 alt texts to ${new URL(proxy.url).host}.`);
    expect(done.progress).toMatchObject({ written: 11, failed: 1, total: 12, etaSeconds: null });
    expect(done.failures).toEqual([
      {
        mediaId: media[2]?.id,
        postId: spoiled.id,
        message: expect.stringMatching(
          new RegExp(`refused writing “The fish market ${run}” \\(HTTP 400\\)\\. WordPress said: “.+”`),
        ),
      },
    ]);
    expect(done.error).toContain(`The fish market ${run}`);
    expect((await wp.readPost(spoiled.id)).content.raw).toContain('alt="IMG_102.png"');
    for (const [post, read] of [
      [harbour, wp.readPost],
      [market, wp.readPost],
      [about, wp.readPage],
    ] as const) {
      const raw = (await read(post.id)).content.raw;
      for (const item of media)
        if (words.has(`${post.link}|${item.sourceUrl}`))
          expect(raw).toContain(`alt="${words.get(`${post.link}|${item.sourceUrl}`)}"`);
    }
    for (const item of media)
      expect(await wp.readAlt(item.id)).toBe(words.get(`${proxy.url}/wp-admin/upload.php|${item.sourceUrl}`));
    const changes = (await api('GET', `/integrations/${id}/changes`)).json() as Change[];
    expect(changes).toHaveLength(11);
    expect(changes.some((change) => change.postId === spoiled.id)).toBe(false);
  }, 180_000);

  it('publishes the refused place once WordPress takes it, writing nothing else again', async () => {
    const before = proxy.calls.length;
    expect((await api('POST', `/integrations/${id}/publish`, {})).statusCode).toBe(202);
    const done = await settled(id);
    expect(done.error).toBeNull();
    expect(done.notice).toBe(`Published 1 alt text to ${new URL(proxy.url).host}. 11 were already there.`);
    expect(proxy.calls.slice(before).filter((call) => call.startsWith('POST '))).toEqual([
      `POST /wp/v2/posts/${spoiled.id}`,
    ]);
    expect((await wp.readPost(spoiled.id)).content.raw).toContain(
      `alt="${words.get(`${spoiled.link}|${media[2]?.sourceUrl}`)}"`,
    );
  }, 60_000);

  it('undoes every change through the same batch and bound, and reports its pace while it runs', async () => {
    const changes = (await api('GET', `/integrations/${id}/changes`)).json() as Change[];
    expect(changes).toHaveLength(12);
    proxy.mostWritesAtOnce = 0;
    proxy.delayMs = 400;
    const before = proxy.calls.length;
    const batchesBefore = proxy.batches.length;
    const undo = await api('POST', `/integrations/${id}/undo`, { changeIds: changes.map((c) => c.id) });
    expect(undo.statusCode, undo.body).toBe(202);
    // While it runs, the API says how far it is and how long it should still take.
    const midway = await waitFor(
      async () => {
        const now = (await api('GET', `/integrations/${id}`)).json() as Integration;
        return now.status === 'publishing' && now.progress?.etaSeconds !== null && now.progress?.written
          ? now
          : null;
      },
      60_000,
      50,
    );
    expect(midway.progress).toMatchObject({ total: 12, failed: 0, startedAt: expect.any(String) });
    expect(midway.progress?.etaSeconds).toBeGreaterThanOrEqual(0);
    const done = await settled(id);
    proxy.delayMs = 0;
    expect(done.error).toBeNull();
    expect(done.notice).toBe(`Undid 12 changes on ${new URL(proxy.url).host}.`);
    const calls = proxy.calls.slice(before);
    expect(proxy.batches.slice(batchesBefore)).toHaveLength(1);
    expect(postWrites(calls)).toHaveLength(4);
    expect(mediaWrites(calls)).toHaveLength(6);
    expect(proxy.mostWritesAtOnce).toBe(2);
    for (const item of media) expect(await wp.readAlt(item.id)).toBe('');
    expect((await wp.readPost(harbour.id)).content.raw).toContain('alt="IMG_100.png"');
    expect((await wp.readPost(harbour.id)).content.raw).toContain('alt="IMG_101.png"');
    expect((await wp.readPage(about.id)).content.raw).toContain('alt="IMG_105.png"');
    const after = (await api('GET', `/integrations/${id}/changes`)).json() as Change[];
    expect(after.every((change) => change.undoneAt)).toBe(true);
  }, 120_000);

  it('writes posts one by one, within the bound, on a site without the batch endpoint', async () => {
    const auditId = ((await api('GET', `/integrations/${id}`)).json() as Integration).auditId as string;
    // The undo put its images back to pending (ADR 069): they are approved again first.
    const reviewed = await api('POST', `/audits/${auditId}/review`, {
      imageIds: approvedIds,
      action: 'accept',
    });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    proxy.withoutBatch = true;
    proxy.mostWritesAtOnce = 0;
    const before = proxy.calls.length;
    try {
      expect((await api('POST', `/integrations/${id}/publish`, {})).statusCode).toBe(202);
      const done = await settled(id);
      expect(done.error).toBeNull();
      expect(done.notice).toBe(`Published 12 alt texts to ${new URL(proxy.url).host}.`);
    } finally {
      proxy.withoutBatch = false;
    }
    const calls = proxy.calls.slice(before);
    // One try of the batch, answered 404 (nothing written), then each post alone.
    expect(calls.filter((call) => call === 'POST /batch/v1')).toHaveLength(1);
    expect(new Set(postWrites(calls))).toEqual(
      new Set([
        `POST /wp/v2/posts/${harbour.id}`,
        `POST /wp/v2/posts/${spoiled.id}`,
        `POST /wp/v2/posts/${market.id}`,
        `POST /wp/v2/pages/${about.id}`,
      ]),
    );
    expect(postWrites(calls)).toHaveLength(4);
    expect(proxy.mostWritesAtOnce).toBe(2);
    expect((await wp.readPage(about.id)).content.raw).toContain(
      `alt="${words.get(`${about.link}|${media[5]?.sourceUrl}`)}"`,
    );
  }, 120_000);
});
