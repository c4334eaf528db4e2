import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * The bad sites that need no WordPress to stage: one that takes the connection and never
 * answers (a message in words within WORDPRESS_TIMEOUT_MS), one where nothing listens, and one whose
 * REST API a security plugin turned off. Each is refused in words and nothing is stored.
 */
let t: TestApp;
let owner: TestUser;
let silent: Server;
let silentUrl = '';
let locked: Server;
let lockedUrl = '';
let closedUrl = '';
const held: ServerResponse[] = [];

beforeAll(async () => {
  // Reads the request, then never writes a byte back.
  silent = createServer((_req, res) => void held.push(res));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  // What "Disable REST API" plugins answer at /wp-json/ and ?rest_route=.
  locked = createServer((_req, res) =>
    res
      .writeHead(401, { 'content-type': 'application/json' })
      .end(
        '{"code":"rest_disabled","message":"The REST API is disabled on this site.","data":{"status":401}}',
      ),
  );
  await new Promise<void>((resolve) => locked.listen(0, '127.0.0.1', resolve));
  lockedUrl = `http://127.0.0.1:${(locked.address() as AddressInfo).port}`;
  // A port that was free a moment ago: nothing listens there.
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => gone.close(() => resolve()));
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true', WORDPRESS_TIMEOUT_MS: '1000' } });
  owner = await createUser(t, 5);
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  silent?.closeAllConnections();
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (locked ? locked.close(() => resolve()) : resolve()));
});

const connect = (siteUrl: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/integrations/wordpress',
    headers: owner.auth,
    payload: { siteUrl, username: 'editor', applicationPassword: 'abcd EFGH ijkl MNOP qrst UVWX' },
  });

describe('WordPress sites that cannot be connected', () => {
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

  it('is refused in words when nothing listens at the address (unreachable)', async () => {
    const response = await connect(closedUrl);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Could not reach 127.0.0.1. Check the address and try again.');
  });

  it('is refused in words when its REST API is turned off, naming what to do', async () => {
    const response = await connect(lockedUrl);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/REST API of 127\.0\.0\.1:\d+ is turned off or blocked/);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/integrations', headers: owner.auth });
    expect(list.json()).toEqual([]);
  });
});
