import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, createPostgresDatabase, type TestApp, waitFor } from './helper.ts';
import {
  createImagePost,
  fixAndApprove,
  groundedEngine,
  type AuditItem as Item,
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
 * The import and the publish are durable jobs that resume after a crash. The real
 * WordPress sits behind a small proxy that can swallow one answer: the request reaches WordPress
 * (a write is made) but the app never hears back, as when the process dies at that moment. The app
 * is then closed and a new one starts on the same database and DATA_DIR, as after a restart. A page
 * size of 4 makes this file's dozen images span several pages; a one-second lease lets the new app
 * take over the dead one's run at once (ADR 056).
 */

let wp: Awaited<ReturnType<typeof openWordPress>>;
let proxy: WordPressProxy;
let dataDir: string;
let sharedPostgres: { url: string; drop: () => Promise<void> } | undefined;
let app: TestApp | undefined;
let owner: TestUser;
/** The WordPress may be shared by the whole test run: this file's files and posts carry their own tag. */
const run = runTag();
const media: SeededMedia[] = [];
const posts: SeededPost[] = [];

const env = () => ({
  FETCH_ALLOW_PRIVATE: 'true',
  GENERATION_RETRY_DELAY_MS: '10',
  WORDPRESS_PAGE_SIZE: '4',
  WORDPRESS_LEASE_MS: '1000',
  // A swallowed answer keeps the old process waiting past the end of the test, like a dead one.
  WORDPRESS_TIMEOUT_MS: '300000',
  ...(sharedPostgres ? { DATABASE_URL: sharedPostgres.url } : {}),
});
const startApp = () => buildTestApp({ env: env(), dataDir, persistent: true, engine: groundedEngine() });
const { call: api, settled } = integrationApi(
  () => app,
  () => owner,
);

beforeAll(async () => {
  wp = await openWordPress();
  proxy = await startWordPressProxy(wp.site);
  for (let i = 0; i < 12; i++)
    media.push(
      await uploadPng(wp.site, {
        name: `tide-${run}-${i}.png`,
        color: `rgb(${20 * i}, 90, ${255 - 20 * i})`,
        width: 16,
        height: 12,
      }),
    );
  for (const [i, item] of media.slice(0, 2).entries())
    posts.push(
      await createImagePost(wp.site, {
        title: `Tide table ${i + 1} ${run}`,
        text: 'High water at dawn.',
        images: [[item, `IMG_90${i}.png`]],
      }),
    );
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-wp-resume-'));
  if (process.env.TEST_DATABASE_URL)
    sharedPostgres = await createPostgresDatabase(process.env.TEST_DATABASE_URL);
  app = await startApp();
  owner = await createUser(app, 20);
}, 180_000);

afterAll(async () => {
  await app?.cleanup();
  await proxy?.close();
  await sharedPostgres?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await wp?.site.stop();
});

/** The process dies while a call to WordPress is under way: nothing more of it runs. */
async function crashAndRestart() {
  // The job in hand is left `active`, as a dead process leaves it (no 10 s wait for it to finish).
  await app?.app.deps.queue.stop({ graceful: false });
  await app?.app.close();
  app = await startApp();
}

describe('an import and a publish stopped by a crash', () => {
  let id: string;
  let auditId: string;

  it('resumes the import at the page it was on: every attachment imported exactly once', async () => {
    const connected = await api('POST', '/integrations/wordpress', {
      siteUrl: proxy.url,
      username: wp.site.username,
      applicationPassword: wp.site.applicationPassword,
    });
    expect(connected.statusCode, connected.body).toBe(201);
    id = connected.json().id;
    // The third page of the media library is read by WordPress, but its answer never comes back.
    proxy.swallow = (call) => call === 'GET media 3';
    expect((await api('POST', `/integrations/${id}/import`)).statusCode).toBe(202);
    await waitFor(async () => proxy.held.length === 1, 30_000).catch(async (error) => {
      throw new Error(
        `${error}: ${proxy.calls.join(', ')} ${(await api('GET', `/integrations/${id}`)).body}`,
      );
    });
    expect((await api('GET', `/integrations/${id}`)).json()).toMatchObject({
      status: 'importing',
      imported: 8,
    });
    proxy.swallow = () => false;
    await crashAndRestart();

    const done = await settled(id);
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'imported', error: null });
    expect(done.imported).toBe(done.mediaCount);
    // Resumed at its cursor: pages 1 and 2 were read once, page 3 again after the restart.
    expect(proxy.calls.filter((call) => call === 'GET media 1')).toHaveLength(1);
    expect(proxy.calls.filter((call) => call === 'GET media 2')).toHaveLength(1);
    expect(proxy.calls.filter((call) => call === 'GET media 3')).toHaveLength(2);
    auditId = done.auditId as string;
    const images = (await api('GET', `/audits/${auditId}/images?pageSize=500`)).json().items as Item[];
    const library = images.filter((image) => image.pageUrl.endsWith('/wp-admin/upload.php'));
    for (const item of media)
      expect(
        library.filter((image) => image.src === item.sourceUrl),
        item.sourceUrl,
      ).toHaveLength(1);
    expect(new Set(library.map((image) => image.src)).size).toBe(library.length);
    for (const post of posts)
      expect(images.filter((image) => image.pageUrl === post.link).map((image) => image.alt)).toHaveLength(1);
  }, 150_000);

  it('resumes the publish: a write WordPress made before the crash is kept, nothing is written twice', async () => {
    const ours = (items: Item[]) =>
      items.filter(
        (item) =>
          posts.some((post) => post.link === item.pageUrl) ||
          (item.pageUrl.endsWith('/upload.php') && media.slice(0, 4).some((m) => m.sourceUrl === item.src)),
      );
    const { failing, approved: suggested } = await fixAndApprove(api, auditId, ours);
    expect(failing).toHaveLength(6);

    // The second alt text written to the library reaches WordPress; the answer never comes back.
    let mediaWrites = 0;
    proxy.swallow = (call) => call.startsWith('POST /wp/v2/media/') && ++mediaWrites === 2;
    const before = proxy.calls.length;
    expect((await api('POST', `/integrations/${id}/publish`, {})).statusCode).toBe(202);
    await waitFor(async () => proxy.held.length === 2, 30_000);
    proxy.swallow = () => false;
    await crashAndRestart();

    const done = await settled(id);
    expect(done.error).toBeNull();
    // Up to four attachments are written at once (WORDPRESS_CONCURRENCY): the swallowed one and any
    // that landed beside it before the crash are recorded as there already; the rest are written now.
    const host = new URL(proxy.url).host.replaceAll('.', '\\.');
    const notice = new RegExp(
      `^Published (\\d+) alt texts? to ${host}\\. (\\d+) (?:was|were) already there\\.$`,
    ).exec(done.notice ?? '');
    expect(notice, done.notice ?? '').not.toBeNull();
    expect(Number(notice?.[1]) + Number(notice?.[2])).toBe(6);
    // Each attachment and each post was written exactly once, the swallowed write included.
    const writes = proxy.calls.slice(before).filter((call) => call.startsWith('POST '));
    expect(writes).toHaveLength(6);
    expect(new Set(writes).size).toBe(6);
    const changes = (await api('GET', `/integrations/${id}/changes`)).json() as {
      mediaId: number;
      postId?: number;
      field: string;
      after: string;
    }[];
    expect(changes).toHaveLength(6);
    expect(new Set(changes.map((change) => `${change.field}:${change.mediaId}:${change.postId}`)).size).toBe(
      6,
    );
    const words = new Map(suggested.map((item) => [`${item.pageUrl}|${item.src}`, item.suggestion]));
    for (const item of media.slice(0, 4)) {
      const alt = await wp.readAlt(item.id);
      expect(alt).toBe(words.get(`${proxy.url}/wp-admin/upload.php|${item.sourceUrl}`));
    }
    for (const post of posts) {
      const raw = (await wp.readPost(post.id)).content.raw;
      const change = changes.find((c) => c.postId === post.id);
      expect(raw).toContain(`alt="${change?.after}"`);
    }
  }, 150_000);

  it('resumes a publish of edited words: the post WordPress wrote before the crash is not written again', async () => {
    const items = (await api('GET', `/audits/${auditId}/images?pageSize=500`)).json().items as Item[];
    const first = items.find((item) => item.pageUrl === posts[0]?.link);
    const words = `A tide table pinned to the harbour office door, ${run}`;
    const edited = await api('POST', `/audits/${auditId}/review`, {
      imageIds: [first?.id],
      action: 'edit',
      altText: words,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const route = `POST /wp/v2/posts/${posts[0]?.id}`;
    proxy.swallow = (call) => call === route;
    const before = proxy.calls.length;
    expect((await api('POST', `/integrations/${id}/publish`, { imageIds: [first?.id] })).statusCode).toBe(
      202,
    );
    await waitFor(async () => proxy.held.length === 3, 30_000);
    proxy.swallow = () => false;
    await crashAndRestart();

    const done = await settled(id);
    expect(done.error).toBeNull();
    expect(done.notice).toBe(`Published 0 alt texts to ${new URL(proxy.url).host}. 1 was already there.`);
    expect(proxy.calls.slice(before).filter((call) => call === route)).toHaveLength(1);
    const raw = (await wp.readPost(posts[0]?.id as number)).content.raw;
    expect(raw).toContain(`alt="${words}"`);
    // The one change of that place now records the edited words; its `before` is still the original.
    const changes = (await api('GET', `/integrations/${id}/changes`)).json() as Array<{
      postId?: number;
      before: string;
      after: string;
    }>;
    expect(changes.filter((change) => change.postId === posts[0]?.id)).toEqual([
      expect.objectContaining({ before: 'IMG_900.png', after: words }),
    ]);
  }, 150_000);

  it('resumes an undo: the original words WordPress got back before the crash are not written again', async () => {
    const changes = (await api('GET', `/integrations/${id}/changes`)).json() as Array<{
      id: string;
      postId?: number;
      undoneAt?: string;
    }>;
    const change = changes.find((item) => item.postId === posts[0]?.id);
    const route = `POST /wp/v2/posts/${posts[0]?.id}`;
    proxy.swallow = (call) => call === route;
    const before = proxy.calls.length;
    expect((await api('POST', `/integrations/${id}/undo`, { changeIds: [change?.id] })).statusCode).toBe(202);
    await waitFor(async () => proxy.held.length === 4, 30_000);
    proxy.swallow = () => false;
    await crashAndRestart();

    const done = await settled(id);
    expect(done.error).toBeNull();
    expect(proxy.calls.slice(before).filter((call) => call === route)).toHaveLength(1);
    const raw = (await wp.readPost(posts[0]?.id as number)).content.raw;
    expect(raw).toContain('alt="IMG_900.png"');
    const after = (await api('GET', `/integrations/${id}/changes`)).json() as typeof changes;
    expect(after.find((item) => item.id === change?.id)?.undoneAt).toBeTruthy();
    // The words undone before the crash are no longer approved, so the next publish leaves them be.
    const images = (await api('GET', `/audits/${auditId}/images?pageSize=500`)).json().items as (Item & {
      reviewState?: string;
    })[];
    expect(images.find((image) => image.pageUrl === posts[0]?.link)?.reviewState).toBe('pending');
    // Undone once: a second Undo of it is refused in words.
    const twice = await api('POST', `/integrations/${id}/undo`, { changeIds: [change?.id] });
    expect(twice.statusCode).toBe(409);
  }, 150_000);
});
