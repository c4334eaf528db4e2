import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationBatches } from '../src/db/tables/generation-batches.ts';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, uploadImages, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * `language` and `keywords` per request, a default language per account, and
 * the offline engine's 422 for anything but English before a credit moves.
 */

const rocket = readFile(path.resolve(import.meta.dirname, 'fixtures/images/rocket.jpg'));
let server: Server;
let base: string;
beforeAll(async () => {
  const bytes = await rocket;
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const env = { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' };
const offlineMessage = {
  message: 'The offline engine writes English only; configure a vision model for other languages.',
  code: 'LANGUAGE_NOT_SUPPORTED',
};

const generate = (t: TestApp, user: TestUser, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/v1/images/generate-alt-text', payload, headers: user.auth });
const batchesOf = (t: TestApp, user: TestUser) =>
  t.app.deps.database.db.select().from(generationBatches).where(eq(generationBatches.userId, user.id));

describe('with the offline engine', () => {
  let t: TestApp;
  const engine = createTestEngine();
  beforeAll(async () => {
    t = await buildTestApp({ env, engine });
  });
  afterAll(() => t.cleanup());

  it('answers 422 for a non-English language on every generation call, charging nothing', async () => {
    const user = await createUser(t, 5);
    const scraped = await generate(t, user, { selectedImages: [`${base}/a.jpg`], language: 'de' });
    expect(scraped.statusCode).toBe(422);
    expect(scraped.json()).toEqual(offlineMessage);

    const uploaded = await uploadImages(t, user.auth, [
      { name: 'language', value: 'pt-BR' },
      { name: 'images', fileName: 'rocket.jpg', contentType: 'image/jpeg', bytes: await rocket },
    ]);
    expect(uploaded.statusCode).toBe(422);
    expect(uploaded.json()).toEqual(offlineMessage);

    expect(await balanceOf(t, user)).toBe(5);
    expect(await batchesOf(t, user)).toHaveLength(0);
  });

  it('answers 422 on regenerate in another language, leaving the balance as it was', async () => {
    const user = await createUser(t, 5);
    const { batchId } = (await generate(t, user, { selectedImages: [`${base}/b.jpg`] })).json();
    await waitForBatch(t, user.auth, batchId);
    const [image] = await t.app.deps.database.db
      .select()
      .from(libraryImages)
      .where(eq(libraryImages.userId, user.id));
    if (!image) throw new Error('no library image');
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/images/altText/${image.id}/regenerate`,
      payload: { language: 'fr', keywords: ['rocket'] },
      headers: user.auth,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(offlineMessage);
    expect(await balanceOf(t, user)).toBe(4);

    const english = await t.app.inject({
      method: 'POST',
      url: `/api/v1/images/altText/${image.id}/regenerate`,
      payload: { language: 'en-US', keywords: ['rocket launch'] },
      headers: user.auth,
    });
    expect(english.statusCode).toBe(200);
    expect(engine.calls.at(-1)?.options).toMatchObject({ language: 'en-US', keywords: ['rocket launch'] });
  });

  it('passes keywords and an English language with every image of a batch', async () => {
    const user = await createUser(t, 5);
    const response = await generate(t, user, {
      selectedImages: [`${base}/kw-1.jpg`, `${base}/kw-2.jpg`],
      language: 'en-gb',
      keywords: [' red shoe ', 'running'],
    });
    expect(response.statusCode).toBe(202);
    await waitForBatch(t, user.auth, response.json().batchId);
    const calls = engine.calls.slice(-2);
    expect(calls.map((call) => call.options)).toEqual([
      expect.objectContaining({ language: 'en-GB', keywords: ['red shoe', 'running'] }),
      expect.objectContaining({ language: 'en-GB', keywords: ['red shoe', 'running'] }),
    ]);
  });

  it('refuses a tag that is not BCP 47 and too many keywords with 400', async () => {
    const user = await createUser(t, 5);
    const bad = await generate(t, user, { selectedImages: [`${base}/c.jpg`], language: 'english!' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/BCP 47/);
    const many = await generate(t, user, {
      selectedImages: [`${base}/c.jpg`],
      keywords: Array.from({ length: 21 }, (_, n) => `k${n}`),
    });
    expect(many.statusCode).toBe(400);
    expect(await balanceOf(t, user)).toBe(5);
  });

  it('keeps a default language per account, used when a request names none', async () => {
    const user = await createUser(t, 5);
    const update = (defaultLanguage: string | null) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/users/update-profile',
        payload: { firstName: 'Ada', lastName: 'Lovelace', defaultLanguage },
        headers: user.auth,
      });
    expect((await update('de')).statusCode).toBe(200);
    const profile = await t.app.inject({ method: 'GET', url: '/api/v1/users/profile', headers: user.auth });
    expect(profile.json().user.defaultLanguage).toBe('de');

    const refused = await generate(t, user, { selectedImages: [`${base}/d.jpg`] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('LANGUAGE_NOT_SUPPORTED');
    // A request's own language wins over the account's.
    const english = await generate(t, user, { selectedImages: [`${base}/d.jpg`], language: 'en' });
    expect(english.statusCode).toBe(202);
    await waitForBatch(t, user.auth, english.json().batchId);

    expect((await update('')).statusCode).toBe(200);
    const cleared = await t.app.inject({ method: 'GET', url: '/api/v1/users/profile', headers: user.auth });
    expect(cleared.json().user.defaultLanguage).toBeUndefined();
    expect(await balanceOf(t, user)).toBe(4);
  });
});

describe('with a vision model', () => {
  let t: TestApp;
  const recorder = createTestEngine();
  const engine = { ...recorder, name: 'openai' as const };
  beforeAll(async () => {
    t = await buildTestApp({ env, engine });
  });
  afterAll(() => t.cleanup());

  it('writes in the account’s default language and takes the request’s keywords', async () => {
    const user = await createUser(t, 5);
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/users/update-profile',
      payload: { firstName: 'Ada', lastName: 'Lovelace', defaultLanguage: 'pt-br' },
      headers: user.auth,
    });
    const response = await generate(t, user, {
      selectedImages: [`${base}/e.jpg`],
      keywords: ['foguete'],
    });
    expect(response.statusCode).toBe(202);
    await waitForBatch(t, user.auth, response.json().batchId);
    expect(recorder.calls.at(-1)?.options).toMatchObject({ language: 'pt-BR', keywords: ['foguete'] });
  });
});
