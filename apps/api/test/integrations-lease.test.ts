import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres } from '../../../scripts/lib/postgres.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, createPostgresDatabase, type TestApp, waitFor } from './helper.ts';
import {
  type AuditItem,
  type Change,
  connectAndImport,
  createImagePost,
  fixAndApprove,
  groundedEngine,
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
 * ADR 056's lease: an import, publish or undo holds its site's row (owner token and
 * `lease_until`, renewed while it works), so two worker processes never run the same site at once.
 * Two apps share one Postgres database, as two workers do (the lease is the database's: on PGlite,
 * one process, this file starts a throw-away Postgres). A one-second lease keeps the file fast.
 */

let wp: Awaited<ReturnType<typeof openWordPress>>;
let proxy: WordPressProxy;
let stopPostgres: (() => Promise<void>) | undefined;
let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
let first: TestApp | undefined;
let second: TestApp | undefined;
let owner: TestUser;
const run = runTag();
const media: SeededMedia[] = [];
let post: SeededPost;

const startApp = () =>
  buildTestApp({
    env: {
      DATABASE_URL: database.url,
      FETCH_ALLOW_PRIVATE: 'true',
      GENERATION_RETRY_DELAY_MS: '10',
      WORDPRESS_LEASE_MS: '1000',
      // A swallowed answer keeps a crashed app's call waiting past the end of the test, like a dead one.
      WORDPRESS_TIMEOUT_MS: '300000',
    },
    // One DATA_DIR: the apps share the session and integration secrets, as a deployment's processes do.
    dataDir,
    engine: groundedEngine(),
  });
const { call: api, settled } = integrationApi(
  () => first,
  () => owner,
);

/** The process dies: its job is left `active` and its heartbeat stops with it. */
async function crash(app: TestApp | undefined) {
  await app?.app.deps.queue.stop({ graceful: false });
  await app?.cleanup();
}

beforeAll(async () => {
  wp = await openWordPress();
  proxy = await startWordPressProxy(wp.site);
  for (const [i, color] of ['#2060a0', '#a06020'].entries())
    media.push(await uploadPng(wp.site, { name: `buoy-${run}-${i}.png`, color }));
  post = await createImagePost(wp.site, {
    title: `Buoys in the bay ${run}`,
    text: 'Red to port.',
    images: [[media[0] as SeededMedia, 'IMG_300.png']],
  });
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const server = await startPostgres();
    serverUrl = server.url;
    stopPostgres = server.stop;
  }
  database = await createPostgresDatabase(serverUrl);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-wp-lease-'));
  first = await startApp();
  second = await startApp();
  owner = await createUser(first, 20);
}, 180_000);

afterAll(async () => {
  await first?.cleanup();
  await second?.cleanup();
  await proxy?.close();
  await database?.drop();
  await stopPostgres?.();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await wp?.site.stop();
});

describe('one run per site at a time, across worker processes (the lease)', () => {
  let id: string;
  let ids: string[];
  let auditId: string;

  it('two workers given the same publish write each change once, one change row each', async () => {
    const imported = await connectAndImport(api, settled, {
      siteUrl: proxy.url,
      username: wp.site.username,
      applicationPassword: wp.site.applicationPassword,
    });
    expect(imported.status, JSON.stringify(imported)).toBe('imported');
    id = imported.id;
    auditId = imported.auditId as string;

    // This file's failing images: its two attachments in the library and the file name in its post.
    const ours = (items: AuditItem[]) =>
      items.filter(
        (item) =>
          item.pageUrl === post.link ||
          (item.pageUrl.endsWith('/upload.php') && media.some((m) => m.sourceUrl === item.src)),
      );
    const { failing, approved: suggested } = await fixAndApprove(api, auditId, ours);
    expect(failing).toHaveLength(3);
    ids = suggested.map((item) => item.id);

    // Slow answers, so the runs overlap: the queued job and both workers handed the same publish,
    // as when a worker restarts while another is mid-run and sends it to the queue again.
    proxy.delayMs = 150;
    const before = proxy.calls.length;
    expect((await api('POST', `/integrations/${id}/publish`, { imageIds: ids })).statusCode).toBe(202);
    await Promise.all([
      ...[first, second].map((app) => app?.app.deps.integrations.runPublish(id, { imageIds: ids })),
      // The second worker restarts mid-run: the live run is not sent to the queue to run beside it.
      second?.app.deps.integrations.resumeUnfinished(),
    ]);
    const done = await settled(id);
    proxy.delayMs = 0;
    expect(done.error).toBeNull();
    expect(done.notice).toBe(`Published 3 alt texts to ${new URL(proxy.url).host}.`);
    // The runs that waited were sent again for when the lease ends; they find the publish done.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const writes = proxy.calls.slice(before).filter((call) => call.startsWith('POST '));
    expect(writes.sort()).toEqual(
      [
        `POST /wp/v2/media/${media[0]?.id}`,
        `POST /wp/v2/media/${media[1]?.id}`,
        `POST /wp/v2/posts/${post.id}`,
      ].sort(),
    );
    const changes = (await api('GET', `/integrations/${id}/changes`)).json() as Change[];
    expect(changes).toHaveLength(3);
    expect(new Set(changes.map((change) => `${change.field}:${change.mediaId}:${change.postId}`)).size).toBe(
      3,
    );
    for (const item of media)
      expect(await wp.readAlt(item.id)).toBe(
        suggested.find((s) => s.src === item.sourceUrl && s.pageUrl.endsWith('/upload.php'))?.suggestion,
      );
  }, 150_000);

  it('a run whose workers died is taken over by the restart once its lease has expired, written once', async () => {
    const changes = (await api('GET', `/integrations/${id}/changes`)).json() as Change[];
    // The undo's first write reaches WordPress; the answer never comes back, and both workers die.
    let writes = 0;
    proxy.swallow = (call) => call.startsWith('POST ') && ++writes === 1;
    const before = proxy.calls.length;
    const undo = await api('POST', `/integrations/${id}/undo`, { changeIds: changes.map((c) => c.id) });
    expect(undo.statusCode, undo.body).toBe(202);
    await waitFor(async () => proxy.held.length === 1, 30_000);
    proxy.swallow = () => false;
    await crash(first);
    await crash(second);
    second = undefined;

    // Its lease runs out (nobody renews it) before a worker starts again.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const lease = await client.query(
        'select lease_owner, lease_until > now() as live from integrations where id = $1',
        [id],
      );
      expect(lease.rows[0]?.lease_owner).toBeTruthy();
      await waitFor(async () => {
        const { rows } = await client.query(
          'select lease_until < now() as expired from integrations where id = $1',
          [id],
        );
        return rows[0]?.expired === true;
      }, 10_000);
    } finally {
      await client.end();
    }

    first = await startApp();
    const done = await settled(id);
    expect(done.status).toBe('imported');
    expect(done.error).toBeNull();
    // Each place was written back once: the swallowed write is recorded, not made again.
    const undoWrites = proxy.calls.slice(before).filter((call) => call.startsWith('POST '));
    expect(undoWrites).toHaveLength(3);
    expect(new Set(undoWrites).size).toBe(3);
    const after = (await api('GET', `/integrations/${id}/changes`)).json() as Change[];
    expect(after.every((change) => change.undoneAt)).toBe(true);
    for (const item of media) expect(await wp.readAlt(item.id)).toBe('');
    expect((await wp.readPost(post.id)).content.raw).toContain('alt="IMG_300.png"');
  }, 150_000);
  it('a run that lost its lease writes nothing more; the request is finished once the lease ends', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      // The undo put its images back to pending (ADR 069): they are approved again first.
      const reviewed = await api('POST', `/audits/${auditId}/review`, { imageIds: ids, action: 'accept' });
      expect(reviewed.statusCode, reviewed.body).toBe(200);
      proxy.delayMs = 300;
      const before = proxy.calls.length;
      expect((await api('POST', `/integrations/${id}/publish`, { imageIds: ids })).statusCode).toBe(202);
      await waitFor(async () => proxy.calls.slice(before).some((call) => call.startsWith('POST ')), 30_000);
      // Another process takes the site for two seconds, as after a lease that ran out under a stalled run.
      await client.query(
        "update integrations set lease_owner = 'another-run', lease_until = now() + interval '2 seconds' where id = $1",
        [id],
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const taken = proxy.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(proxy.calls.slice(taken).filter((call) => call.startsWith('POST '))).toEqual([]);
      proxy.delayMs = 0;
      // Once that lease has ended, the run sent again for then finishes the publish.
      const done = await settled(id);
      expect(done.error).toBeNull();
      const writes = proxy.calls.slice(before).filter((call) => call.startsWith('POST '));
      expect(writes.sort()).toEqual(
        [
          `POST /wp/v2/media/${media[0]?.id}`,
          `POST /wp/v2/media/${media[1]?.id}`,
          `POST /wp/v2/posts/${post.id}`,
        ].sort(),
      );
      const live = ((await api('GET', `/integrations/${id}/changes`)).json() as Change[]).filter(
        (change) => !change.undoneAt,
      );
      expect(live).toHaveLength(3);
      for (const item of media) expect(await wp.readAlt(item.id)).toBeTruthy();
    } finally {
      proxy.delayMs = 0;
      await client.end();
    }
  }, 60_000);
});
