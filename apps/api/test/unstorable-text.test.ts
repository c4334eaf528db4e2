import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorCodes } from '@altwise/contracts/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../src/db/tables/api-keys.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { multipartBody } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * Text Postgres cannot store (U+0000, lone UTF-16 surrogates) is refused by the
 * contracts with a 400 before it reaches the database, and a query that fails anyway never prints
 * its parameters (a new key's hash) in the log.
 */

const logLines: Record<string, unknown>[] = [];
const logStream = {
  write(line: string) {
    logLines.push(JSON.parse(line));
  },
};
/** A value that must never appear in the log: what a failed insert was run with. */
const secretHash = randomBytes(32).toString('hex');
const duplicateHash = randomBytes(32).toString('hex');

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await buildTestApp({
    env: { LOG_LEVEL: 'info' },
    logStream,
    beforeReady(app) {
      // A route whose query fails in the database with a secret among its parameters.
      app.post('/test/failing-insert', { config: { public: true } }, async () => {
        await app.deps.database.db
          .insert(apiKeys)
          .values({ userId: user.id, name: 'a\u0000b', prefix: 'ak_test', keyHash: secretHash });
        return { ok: true };
      });
      // A unique violation: the database's `detail` quotes the duplicate value.
      app.post('/test/duplicate-insert', { config: { public: true } }, async () => {
        const row = { userId: user.id, name: 'twice', prefix: 'ak_twice', keyHash: duplicateHash };
        await app.deps.database.db.insert(apiKeys).values(row);
        await app.deps.database.db.insert(apiKeys).values(row);
        return { ok: true };
      });
    },
  });
  user = await createUser(t, 20);
});
afterAll(() => t.cleanup());

const createKey = (name: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: user.auth, payload: { name } });

const listKeys = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: user.auth })).json() as unknown[];

describe('text the database cannot store', () => {
  it('refuses an API key name with a NUL byte ("a\\u0000b") with a 400 naming the field, and creates no key', async () => {
    const response = await createKey('a\u0000b');
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      message: 'Invalid request: name: Text cannot contain NUL characters (U+0000)',
      code: errorCodes.validation,
      errors: [{ path: 'name', message: 'Text cannot contain NUL characters (U+0000)' }],
    });
    expect(await listKeys()).toEqual([]);
  });

  it('refuses a lone UTF-16 surrogate ("a\\uD800b", "\\uDC00") in a body field with a 400', async () => {
    for (const name of ['a\uD800b', '\uDC00']) {
      const response = await createKey(name);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errors).toEqual([
        { path: 'name', message: expect.stringMatching(/unpaired UTF-16 surrogate/) },
      ]);
    }
    expect(await listKeys()).toEqual([]);
    // A proper surrogate pair (an emoji) is ordinary text.
    expect((await createKey('Deploy 🚀')).statusCode).toBe(201);
  });

  it('refuses a NUL byte in a path parameter (%00) and in a field name of a webhook body', async () => {
    const inPath = await t.app.inject({
      method: 'POST',
      url: '/api/v1/stripe/verify-payment/pi_%00x',
      headers: user.auth,
    });
    expect(inPath.statusCode, inPath.body).toBe(400);
    expect(inPath.json()).toMatchObject({ code: errorCodes.validation, errors: [{ path: 'paymentId' }] });

    const inKey = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: user.auth,
      payload: { url: 'https://example.com/hook', events: ['batch.completed'], 'x\u0000': 1 },
    });
    expect(inKey.statusCode, inKey.body).toBe(400);
    expect(inKey.json().message).toMatch(/A field name is not valid: it cannot contain NUL/);
  });

  it('refuses NUL bytes in the text fields of the multipart forms (prompt, keywords) with a 400, charging nothing', async () => {
    const png = await readFile(path.join(import.meta.dirname, 'fixtures/images/logo.png'));
    const csv = Buffer.from('image_url\nhttps://example.com/a.png\n');
    const nul = 'a\u0000b';
    const forms: [string, string, Parameters<typeof multipartBody>[0]][] = [
      [
        '/api/v1/images/upload-and-generate',
        'keywords',
        [
          { name: 'keywords', value: nul },
          { name: 'images', fileName: 'logo.png', contentType: 'image/png', bytes: png },
        ],
      ],
      [
        '/api/v1/images/import-csv',
        'chatGptPrompt',
        [
          { name: 'chatGptPrompt', value: nul },
          { name: 'file', fileName: 'a.csv', contentType: 'text/csv', bytes: csv },
        ],
      ],
      [
        '/api/v1/images/edit-image',
        'prompt',
        [
          { name: 'prompt', value: `make it brighter ${nul}` },
          { name: 'quality', value: 'low' },
          { name: 'image', fileName: 'logo.png', contentType: 'image/png', bytes: png },
        ],
      ],
      [
        '/api/v1/images/generate-styled-caption',
        'prompt',
        [
          { name: 'prompt', value: nul },
          { name: 'image', fileName: 'logo.png', contentType: 'image/png', bytes: png },
        ],
      ],
    ];
    const before = await balanceOf(t, user);
    for (const [url, field, parts] of forms) {
      const body = multipartBody(parts);
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...user.auth, ...body.headers },
        payload: body.payload,
      });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({
        code: errorCodes.validation,
        errors: [{ path: field, message: 'Text cannot contain NUL characters (U+0000)' }],
      });
    }
    expect(await balanceOf(t, user)).toBe(before);
  });

  it('logs a failed query with its SQL but never with its parameters (a key hash)', async () => {
    logLines.length = 0;
    const response = await t.app.inject({ method: 'POST', url: '/test/failing-insert' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain(secretHash);
    const failure = logLines.find((line) => line.msg === 'request failed') as
      | { err: { message: string; params?: unknown; cause?: unknown } }
      | undefined;
    expect(failure?.err.message).toMatch(/^Failed query: insert into "api_keys"/);
    expect(JSON.stringify(logLines)).not.toContain(secretHash);
    expect(JSON.stringify(logLines)).not.toContain(secretHash.slice(0, 16));
  });

  it('logs a unique violation with its constraint but without the duplicate value (a key hash)', async () => {
    logLines.length = 0;
    const response = await t.app.inject({ method: 'POST', url: '/test/duplicate-insert' });
    expect(response.statusCode).toBe(500);
    const failure = logLines.find((line) => line.msg === 'request failed') as
      | { err: { cause?: { code?: string } } }
      | undefined;
    expect(failure?.err.cause?.code).toBe('23505');
    expect(JSON.stringify(logLines)).not.toContain(duplicateHash);
  });
});
