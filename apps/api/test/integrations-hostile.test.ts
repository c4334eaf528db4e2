import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { type FakeWordPress, json, mediaItems, startFakeWordPress } from './fake-wordpress.ts';
import { watchHealth } from './health-watch.ts';
import { buildTestApp, type TestApp } from './helper.ts';
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
}, 60_000);

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
    expect(answers).toBeGreaterThanOrEqual(2);
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
