import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { MAX_UPLOAD_FILES } from '@altwise/contracts/generation';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, uploadImages } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * POST /images/upload-and-generate checks the caller's credits while it reads the
 * form, so a caller who cannot pay never gets files stored (before, 200 × 5 MB were written first and
 * only then refused), and a form of more than MAX_UPLOAD_FILES images is refused with 413.
 */

const photo = await readFile(path.resolve(import.meta.dirname, 'fixtures/images/rocket.jpg'));
let t: TestApp;
/** Every file the storage was asked to write, refused request or not. */
const writes: string[] = [];

beforeAll(async () => {
  t = await buildTestApp({ engine: createTestEngine() });
  // The app's own storage, counting writes (a refused request must not write at all).
  const storage = t.app.deps.storage;
  const put = storage.put.bind(storage);
  storage.put = async (key, body, contentType) => {
    writes.push(key);
    return put(key, body, contentType);
  };
});
afterAll(() => t.cleanup());

const images = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    name: 'images',
    fileName: `photo-${i}.jpg`,
    contentType: 'image/jpeg',
    bytes: photo,
  }));
const upload = (user: TestUser, parts: ReturnType<typeof images>) => uploadImages(t, user.auth, parts);
const storedFiles = async () =>
  (
    await queryRows<{ n: number }>(t.app.deps.database.db, sql`select count(*)::int as n from stored_files`)
  )[0]?.n;
async function filesOnDisk(): Promise<number> {
  const dir = path.join(t.dataDir, 'files');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

describe('uploads are paid for before they are stored', () => {
  it('answers 402 to a caller with no credits without storing a single file', async () => {
    const user = await createUser(t, 0);
    const [before, beforeOnDisk] = [await storedFiles(), await filesOnDisk()];
    writes.length = 0;
    const response = await upload(user, images(20));
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ code: 'INSUFFICIENT_CREDITS', message: 'Insufficient credits' });
    expect(writes).toEqual([]);
    expect(await storedFiles()).toBe(before);
    expect(await filesOnDisk()).toBe(beforeOnDisk);
  });

  it('stops at the first image the credits cannot pay for and keeps nothing of the request', async () => {
    const user = await createUser(t, 3);
    const [before, beforeOnDisk] = [await storedFiles(), await filesOnDisk()];
    writes.length = 0;
    const response = await upload(user, images(10));
    expect(response.statusCode).toBe(402);
    // The three it could pay for were read; the fourth was refused before it was stored.
    expect(writes.length).toBeLessThanOrEqual(3);
    expect(await storedFiles()).toBe(before);
    expect(await filesOnDisk()).toBe(beforeOnDisk);
    expect(await balanceOf(t, user)).toBe(3);
  });

  it(`refuses more than ${MAX_UPLOAD_FILES} images with 413, storing nothing`, async () => {
    const user = await createUser(t, MAX_UPLOAD_FILES + 50);
    const [before, beforeOnDisk] = [await storedFiles(), await filesOnDisk()];
    const response = await upload(user, images(MAX_UPLOAD_FILES + 1));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: `Maximum ${MAX_UPLOAD_FILES} images allowed`,
    });
    expect(await storedFiles()).toBe(before);
    expect(await filesOnDisk()).toBe(beforeOnDisk);
    expect(await balanceOf(t, user)).toBe(MAX_UPLOAD_FILES + 50);
  });

  it('still takes as many images as the caller can pay for', async () => {
    const user = await createUser(t, 2);
    const response = await upload(user, images(2));
    expect(response.statusCode).toBe(202);
    expect(await balanceOf(t, user)).toBe(0);
  });
});
