import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, uploadImages, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');
const fixture = (name: string) => readFile(path.join(fixtures, name));

let t: TestApp;
let server: Server;
let base: string;

beforeAll(async () => {
  // Any address is the coffee photo: only its name differs.
  server = createServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(await fixture('coffee.jpg'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({
    env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' },
    engine: createTestEngine(),
  });
});
afterAll(async () => {
  await t.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const listed = async (user: TestUser) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/v1/images/altText', headers: user.auth });
  expect(response.statusCode).toBe(200);
  return response.json() as { src: string; fileName: string | null }[];
};
const storedNames = async (user: TestUser) =>
  (
    await t.app.deps.database.db
      .select({ fileName: libraryImages.fileName })
      .from(libraryImages)
      .where(eq(libraryImages.userId, user.id))
  ).map((row) => row.fileName);

describe('the file names of uploaded images', () => {
  it('keeps each upload’s original name, without paths, control or bidi characters, at most 120 characters', async () => {
    const user = await createUser(t, 10);
    const long = `${'a'.repeat(296)}.png`;
    const sent = [
      { fileName: '../../etc/passwd.png', fixture: 'logo.png', type: 'image/png' },
      { fileName: '\u202egnp.exe', fixture: 'sale-banner.png', type: 'image/png' },
      { fileName: long, fixture: 'bar-chart.png', type: 'image/png' },
      { fileName: 'Café crème 🥐.jpg', fixture: 'astronaut.jpg', type: 'image/jpeg' },
      // The same letters as the browser may send them (decomposed), and a tab inside.
      { fileName: 'Ðe\u0301jà\tvu — Łódź 👩‍👩‍👧.webp', fixture: 'horse.webp', type: 'image/webp' },
    ];
    const response = await uploadImages(t, user.auth, [
      ...(await Promise.all(
        sent.map(async (file) => ({
          name: 'images',
          fileName: file.fileName,
          contentType: file.type,
          bytes: await fixture(file.fixture),
        })),
      )),
      { name: 'userId', value: user.id },
    ]);
    expect(response.statusCode, response.body).toBe(202);
    const done = await waitForBatch(t, user.auth, response.json().batchId);
    expect(done).toMatchObject({ status: 'completed', completed: 5 });

    const expected = [
      'passwd.png',
      'gnp.exe',
      `${'a'.repeat(116)}.png`,
      'Café crème 🥐.jpg',
      'Ðéjà vu — Łódź 👩‍👩‍👧.webp',
    ];
    expect((await storedNames(user)).sort()).toEqual([...expected].sort());
    const images = await listed(user);
    expect(images.map((image) => image.fileName).sort()).toEqual([...expected].sort());
    // The stored copy keeps its own key: the name never becomes part of an address.
    for (const image of images)
      expect(image.src).toMatch(/^http:\/\/altwise\.test\/files\/uploads\/\d{4}-\d{2}\/[\da-f-]{36}\.\w+$/);
  });
});

describe('the file names of images added by address', () => {
  it('are the address’s last path segment, decoded and sanitised; none is stored', async () => {
    const user = await createUser(t, 10);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/generate-alt-text',
      headers: user.auth,
      payload: {
        userId: user.id,
        selectedImages: [`${base}/menu/Caf%C3%A9%20au%20lait.jpg?w=800`, `${base}/gallery/%E2%80%AEgnp.exe`],
      },
    });
    expect(response.statusCode, response.body).toBe(202);
    await waitForBatch(t, user.auth, response.json().batchId);

    expect(await storedNames(user)).toEqual([null, null]);
    expect((await listed(user)).map((image) => image.fileName).sort()).toEqual([
      'Café au lait.jpg',
      'gnp.exe',
    ]);
  });
});
