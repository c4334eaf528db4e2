import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * Issue 21's "times out": a site that takes the connection and never answers gets a message in words
 * within WORDPRESS_TIMEOUT_MS, and nothing is stored. (No WordPress needed: the check never gets one.)
 */
let t: TestApp;
let owner: TestUser;
let silent: Server;
let silentUrl = '';
const held: ServerResponse[] = [];

beforeAll(async () => {
  // Reads the request, then never writes a byte back.
  silent = createServer((_req, res) => void held.push(res));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true', WORDPRESS_TIMEOUT_MS: '1000' } });
  owner = await createUser(t, 5);
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  silent?.closeAllConnections();
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
});

describe('a WordPress site that never answers', () => {
  it('is refused in words once WORDPRESS_TIMEOUT_MS has passed, storing nothing', async () => {
    const started = performance.now();
    const connect = await t.app.inject({
      method: 'POST',
      url: '/api/v1/integrations/wordpress',
      headers: owner.auth,
      payload: {
        siteUrl: silentUrl,
        username: 'editor',
        applicationPassword: 'abcd EFGH ijkl MNOP qrst UVWX',
      },
    });
    expect(connect.statusCode).toBe(400);
    expect(connect.json().message).toContain('did not answer within 1 second.');
    expect(connect.json().message).not.toContain('abcd');
    // The check tried the REST API at most once per way of reaching it, each bounded by the limit.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(held.length).toBeGreaterThan(0);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/integrations', headers: owner.auth });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([]);
  });
});
