import { createHash, randomBytes } from 'node:crypto';
import { MAX_API_KEYS } from '@altwise/contracts/api-keys';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi from '../openapi.json' with { type: 'json' };
import { apiKeys } from '../src/db/tables/api-keys.ts';
import { addLibraryImages } from '../src/modules/library/service.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await createUser(t, 10);
  other = await createUser(t, 10);
  const db = t.app.deps.database.db;
  await db.transaction(async (tx) => {
    await addLibraryImages(tx, owner.id, [
      { src: 'https://example.com/owner.jpg', altText: 'The owner’s photo', engine: 'offline' },
    ]);
    await addLibraryImages(tx, other.id, [
      { src: 'https://example.com/other.jpg', altText: 'Someone else’s photo', engine: 'offline' },
    ]);
  });
});
afterAll(() => t.cleanup());

const withKey = (key: string) => ({ authorization: `Bearer ${key}` });

async function createKey(app: TestApp, user: TestUser, name = 'CMS') {
  const response = await app.app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: user.auth,
    payload: { name },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; name: string; prefix: string; key: string; createdAt: string };
}

const listKeys = async (user: TestUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: user.auth })).json() as {
    id: string;
    name: string;
    prefix: string;
    createdAt: string;
    lastUsedAt: string | null;
  }[];

const library = (headers: Record<string, string>, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/v1/images/altText${query}`, headers });

describe('API keys', () => {
  it('shows the key once, lists it by prefix only, and keeps only its hash', async () => {
    const created = await createKey(t, owner, '  Build script  ');
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Build script',
      prefix: created.key.slice(0, 11),
      key: expect.stringMatching(/^ak_[A-Za-z0-9_-]{43}$/),
      createdAt: expect.any(String),
    });

    const listResponse = await t.app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: owner.auth });
    expect(listResponse.statusCode).toBe(200);
    expect(listResponse.body).not.toContain(created.key);
    expect(listResponse.json()).toContainEqual({
      id: created.id,
      name: 'Build script',
      prefix: created.prefix,
      createdAt: created.createdAt,
      lastUsedAt: null,
    });

    const [row] = await t.app.deps.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(JSON.stringify(row)).not.toContain(created.key.slice(11));
    expect(row?.keyHash).toBe(createHash('sha256').update(created.key).digest('hex'));
  });

  it('authenticates library calls as its owner only, and records the last use', async () => {
    const ownerKey = await createKey(t, owner);
    const otherKey = await createKey(t, other);

    const mine = await library(withKey(ownerKey.key));
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().map((image: { src: string }) => image.src)).toEqual(['https://example.com/owner.jpg']);

    const theirs = await library(withKey(otherKey.key));
    expect(theirs.json().map((image: { src: string }) => image.src)).toEqual([
      'https://example.com/other.jpg',
    ]);
    // Another user's key never reaches the owner's data, even when it names the owner.
    expect((await library(withKey(otherKey.key), `?userId=${owner.id}`)).statusCode).toBe(403);

    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/profile',
      headers: withKey(ownerKey.key),
    });
    expect(profile.json().user.email).toBe(owner.email);

    const listed = (await listKeys(owner)).find((key) => key.id === ownerKey.id);
    expect(listed?.lastUsedAt).not.toBeNull();
    expect(Date.now() - Date.parse(listed?.lastUsedAt ?? '')).toBeLessThan(60_000);
  });

  it('stops working once revoked (401); revoking is the owner’s alone', async () => {
    const key = await createKey(t, owner);
    expect((await library(withKey(key.key))).statusCode).toBe(200);

    const byOther = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${key.id}`,
      headers: other.auth,
    });
    expect(byOther.statusCode).toBe(404);
    expect(byOther.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await library(withKey(key.key))).statusCode).toBe(200);

    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${key.id}`,
      headers: owner.auth,
    });
    expect(revoke.statusCode).toBe(204);
    const after = await library(withKey(key.key));
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
    expect((await listKeys(owner)).map((k) => k.id)).not.toContain(key.id);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${key.id}`,
      headers: owner.auth,
    });
    expect(again.statusCode).toBe(404);
  });

  it('answers 401 to an unknown or malformed key', async () => {
    for (const key of [`ak_${randomBytes(32).toString('base64url')}`, 'ak_short', `ak_${'A'.repeat(60)}`]) {
      const response = await library(withKey(key));
      expect(response.statusCode, key).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('refuses session-only calls with 403 SESSION_REQUIRED and changes nothing', async () => {
    const key = await createKey(t, owner);
    const calls = [
      { method: 'POST', url: '/api/v1/api-keys', payload: { name: 'from a key' } },
      { method: 'GET', url: '/api/v1/api-keys' },
      { method: 'DELETE', url: `/api/v1/api-keys/${key.id}` },
      {
        method: 'PUT',
        url: '/api/v1/users/change-password',
        payload: { currentPassword: 'x', newPassword: 'y' },
      },
      { method: 'DELETE', url: '/api/v1/users/me', payload: { password: 'x' } },
      { method: 'GET', url: '/api/v1/users/billing-history' },
      { method: 'GET', url: '/api/v1/users/subscription-details' },
      { method: 'POST', url: '/api/v1/payments/create-checkout-session', payload: {} },
      { method: 'PATCH', url: '/api/v1/users/cancel-subscription' },
    ] as const;
    for (const call of calls) {
      const response = await t.app.inject({ ...call, headers: withKey(key.key) });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(response.json()).toEqual({
        code: 'SESSION_REQUIRED',
        message: expect.stringMatching(/^This call needs a signed-in session; API keys cannot/),
      });
    }
    expect((await listKeys(owner)).map((k) => k.id)).toContain(key.id);
    expect((await library(withKey(key.key))).statusCode).toBe(200);
  });

  it(`refuses a key beyond ${MAX_API_KEYS} active ones, and allows one again after a revoke`, async () => {
    const user = await createUser(t);
    const made = [];
    for (let i = 0; i < MAX_API_KEYS; i++) made.push(await createKey(t, user, `key ${i + 1}`));
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: user.auth,
      payload: { name: 'one too many' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'CONFLICT',
      message: `An account can have at most ${MAX_API_KEYS} API keys. Revoke one you no longer use to create another.`,
    });
    await t.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${made[0]?.id}`, headers: user.auth });
    await createKey(t, user, 'after a revoke');
  });

  it('holds the limit when many keys are created at once', async () => {
    const user = await createUser(t);
    const answers = await Promise.all(
      Array.from({ length: MAX_API_KEYS + 5 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/api-keys',
          headers: user.auth,
          payload: { name: `k${i}` },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_API_KEYS);
    expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    expect(await listKeys(user)).toHaveLength(MAX_API_KEYS);
  });

  it('answers 400 to a bad name', async () => {
    for (const payload of [{ name: '' }, { name: '   ' }, { name: 'x'.repeat(500) }, {}, { name: 42 }]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        headers: owner.auth,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ path: 'name' }] });
    }
    const badId = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/api-keys/not-a-uuid',
      headers: owner.auth,
    });
    expect(badId.statusCode).toBe(400);
  });

  it('goes with the account when the user is deleted', async () => {
    const user = await createUser(t);
    const key = await createKey(t, user);
    await library(withKey(key.key));
    const db = t.app.deps.database.db;
    await db.execute(sql`delete from users where id = ${user.id}`);
    expect(await db.$count(apiKeys, eq(apiKeys.userId, user.id))).toBe(0);
    expect((await library(withKey(key.key))).statusCode).toBe(401);
  });

  it('is documented: an apiKey bearer scheme on the routes that accept keys, not on session-only ones', () => {
    const doc = openapi as unknown as {
      components: { securitySchemes: Record<string, { type: string; scheme: string }> };
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    };
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const schemes = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.security ?? []).flatMap((scheme) => Object.keys(scheme));
    expect(schemes('/api/v1/images/altText', 'get')).toEqual(['bearerAuth', 'apiKey']);
    expect(schemes('/api/v1/images/upload-and-generate', 'post')).toContain('apiKey');
    for (const [path, method] of [
      ['/api/v1/api-keys', 'post'],
      ['/api/v1/api-keys', 'get'],
      ['/api/v1/api-keys/{id}', 'delete'],
      ['/api/v1/users/change-password', 'put'],
      ['/api/v1/users/me', 'delete'],
      ['/api/v1/payments/create-checkout-session', 'post'],
    ] as const)
      expect(schemes(path, method), `${method} ${path}`).toEqual(['bearerAuth']);
  });
});

describe('the per-key rate limit', () => {
  let limited: TestApp;
  afterAll(() => limited?.cleanup());

  it('answers 429 with Retry-After beyond the limit, counted per key in the database', async () => {
    limited = await buildTestApp({ env: { API_KEY_RATE_LIMIT_PER_MINUTE: '3' } });
    const user = await createUser(limited);
    const first = await createKey(limited, user, 'first');
    const second = await createKey(limited, user, 'second');
    // The window is the clock's minute: start early in one so the burst does not straddle two.
    const second_of_minute = new Date().getSeconds();
    if (second_of_minute > 55)
      await new Promise((resolve) => setTimeout(resolve, (61 - second_of_minute) * 1000));

    const call = (key: string) =>
      limited.app.inject({ method: 'GET', url: '/api/v1/credits/remaining', headers: withKey(key) });
    for (let i = 0; i < 3; i++) expect((await call(first.key)).statusCode).toBe(200);
    const refused = await call(first.key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.any(String) });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another key, and the session, have their own budgets.
    expect((await call(second.key)).statusCode).toBe(200);
    const session = await limited.app.inject({
      method: 'GET',
      url: '/api/v1/credits/remaining',
      headers: user.auth,
    });
    expect(session.statusCode).toBe(200);
    // A burst at once, on a fresh key: the upsert counts every request exactly once.
    const third = await createKey(limited, user, 'third');
    const burst = await Promise.all(Array.from({ length: 8 }, () => call(third.key)));
    expect(burst.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
    expect(burst.filter((answer) => answer.statusCode === 429)).toHaveLength(5);

    const [counter] = await limited.app.deps.database.db
      .execute<{ requests: number }>(sql`select requests from api_key_usage where key_id = ${first.id}`)
      .then((result) => (result as unknown as { rows: { requests: number }[] }).rows);
    expect(counter?.requests).toBe(4);
  }, 90_000);
});
