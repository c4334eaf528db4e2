import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';
import {
  type AuditItem,
  connectAndImport,
  fixAndApprove,
  groundedEngine,
  integrationApi,
  openWordPress,
  runTag,
  type SeededMedia,
  startWordPressProxy,
  uploadPng,
  type WordPressProxy,
} from './wordpress-helpers.ts';

/**
 * "Write nothing partial … and lose nothing": a write WordPress makes whose answer never
 * comes back (a time-out after the request was sent) is not forgotten. The real WordPress sits behind
 * a proxy that swallows that one answer; the app, still running, times out after 1.5 s, reads what
 * WordPress now has, and keeps the change in its log, where Undo reaches it (ADR 056).
 */

let wp: Awaited<ReturnType<typeof openWordPress>>;
let proxy: WordPressProxy;
let app: TestApp | undefined;
let owner: TestUser;
const run = runTag();
let image: SeededMedia;

const { call: api, settled } = integrationApi(
  () => app,
  () => owner,
);

beforeAll(async () => {
  wp = await openWordPress();
  proxy = await startWordPressProxy(wp.site);
  image = await uploadPng(wp.site, {
    name: `buoy-${run}.png`,
    color: 'rgb(200, 40, 40)',
    width: 16,
    height: 12,
  });
  app = await buildTestApp({
    env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10', WORDPRESS_TIMEOUT_MS: '1500' },
    engine: groundedEngine(),
  });
  owner = await createUser(app, 20);
}, 180_000);

afterAll(async () => {
  await app?.cleanup();
  await proxy?.close();
  await wp?.site.stop();
});

describe('a write whose answer is lost', () => {
  it('is kept in the change log when WordPress has it, and Undo restores the old alt text', async () => {
    const imported = await connectAndImport(api, settled, {
      siteUrl: proxy.url,
      username: wp.site.username,
      applicationPassword: wp.site.applicationPassword,
    });
    expect(imported.status).toBe('imported');
    const ours = (items: AuditItem[]) => items.filter((item) => item.src === image.sourceUrl);
    const { approved } = await fixAndApprove(api, imported.auditId as string, ours);
    expect(approved).toHaveLength(1);
    const words = approved[0]?.suggestion as string;

    // WordPress writes the alt text; its answer never reaches the app, which times out.
    const route = `POST /wp/v2/media/${image.id}`;
    proxy.swallow = (call) => call === route;
    expect((await api('POST', `/integrations/${imported.id}/publish`, {})).statusCode).toBe(202);
    const done = await settled(imported.id);
    proxy.swallow = () => false;
    expect(done.error).toMatch(/did not answer within/);
    expect(proxy.calls.filter((call) => call === route)).toHaveLength(1);
    expect(await wp.readAlt(image.id)).toBe(words);

    // The write is in the log as published, with the value it replaced, so Undo can reach it.
    const changes = (await api('GET', `/integrations/${imported.id}/changes`)).json() as Array<{
      id: string;
      mediaId: number;
      field: string;
      before: string;
      after: string;
    }>;
    const change = changes.find((item) => item.mediaId === image.id && item.field === 'alt_text');
    expect(change).toMatchObject({ before: '', after: words });

    // Publishing again writes nothing twice: WordPress already has the words.
    expect((await api('POST', `/integrations/${imported.id}/publish`, {})).statusCode).toBe(202);
    const again = await settled(imported.id);
    expect(again.error).toBeNull();
    expect(proxy.calls.filter((call) => call === route)).toHaveLength(1);

    expect(
      (await api('POST', `/integrations/${imported.id}/undo`, { changeIds: [change?.id] })).statusCode,
    ).toBe(202);
    await waitFor(async () => ((await wp.readAlt(image.id)) === '' ? true : null), 60_000);
    const undone = await settled(imported.id);
    expect(undone.error).toBeNull();
  }, 180_000);
});
