import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { users } from '../src/db/tables/users.ts';
import type { ImageTextReading } from '../src/engines/types.ts';
import { hashPassword } from '../src/modules/accounts/passwords.ts';
import { addLibraryImages } from '../src/modules/library/service.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, uploadImages, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

/**
 * Review previews (point 9, ADR 051): a scraped, an uploaded and an audited image each get a
 * `thumbnailUrl` that this app serves as a small WebP, on the owner's records only; deleting the image
 * (or the account) deletes the preview.
 */

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');
/** A JPEG that starts like one (so it is taken as an image) but whose body is noise sharp cannot decode. */
const brokenJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(2000, 7)]);

const page = `<!doctype html><html><head><title>Launch day</title></head><body>
  <h1>Launch day</h1>
  <p>We went to see the launch. <img src="/img/rocket.jpg" alt="A rocket lifting off from the launch pad in a cloud of smoke"></p>
  <img src="/img/camera.jpg">
  <img src="/img/coffee.jpg" alt="IMG_2041.jpg">
</body></html>`;

let server: Server;
let base = '';
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
const PASSWORD = 'correct horse battery staple';
/** The audit's previews, checked again after the account is deleted. */
const auditPreviews: string[] = [];

/** The pixel check's reading, without OCR: nothing blank, no text (the preview is what is tested). */
const nothingRead: ImageTextReading = {
  blank: false,
  text: '',
  words: 0,
  letterWords: 0,
  confidence: 0,
  timedOut: false,
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = req.url ?? '';
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (url === '/robots.txt') return void res.writeHead(404).end();
    if (url === '/img/broken.jpg')
      return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(brokenJpeg);
    try {
      const bytes = await readFile(path.join(fixtures, path.basename(url)));
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const engine = Object.assign(createTestEngine(), { readImageText: async () => nothingRead });
  t = await buildTestApp({
    env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' },
    engine,
  });
  owner = await createUser(t, 20);
  await t.app.deps.database.db
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.id, owner.id));
  stranger = await createUser(t, 20);
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

type LibraryRecord = { id: string; src: string; thumbnailUrl: string | null };

const library = async (who: TestUser): Promise<LibraryRecord[]> =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/images/altText', headers: who.auth })).json();

/** GET of a stored file as a browser's <img> asks for it: by its URL, on this app's origin. */
const fetchFile = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname });

async function expectPreview(url: string | null | undefined) {
  expect(url).toMatch(/\/files\/previews\/\d{4}-\d{2}\/[0-9a-f-]{36}\.webp$/);
  const response = await fetchFile(url as string);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('image/webp');
  const meta = await sharp(response.rawPayload).metadata();
  expect(meta.format).toBe('webp');
  expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(320);
  return meta;
}

describe('library thumbnails', () => {
  it('gives a scraped image a stored WebP preview ≤ 320 px, listed on the owner’s record only', async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/generate-alt-text',
      headers: owner.auth,
      payload: { userId: owner.id, selectedImages: [`${base}/img/rocket.jpg`] },
    });
    expect(started.statusCode).toBe(202);
    expect(await waitForBatch(t, owner.auth, started.json().batchId)).toMatchObject({ completed: 1 });

    const [record] = (await library(owner)).filter((image) => image.src === `${base}/img/rocket.jpg`);
    // rocket.jpg is 640 × 427: shrunk to 320 on its long side, proportions kept.
    expect(await expectPreview(record?.thumbnailUrl)).toMatchObject({ width: 320, height: 214 });
    // Another user's library does not show it, and they cannot act on the row.
    expect((await library(stranger)).map((image) => image.id)).not.toContain(record?.id);
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/images/altText/${record?.id}`,
      headers: stranger.auth,
      payload: { alt_text: 'Mine now' },
    });
    expect(edit.statusCode).toBe(404);
  });

  it('gives an uploaded image a preview, and deleting the image deletes its preview (404 at once)', async () => {
    const upload = await uploadImages(t, owner.auth, [
      { name: 'userId', value: owner.id },
      {
        name: 'images',
        fileName: 'astronaut.jpg',
        contentType: 'image/jpeg',
        bytes: await readFile(path.join(fixtures, 'astronaut.jpg')),
      },
    ]);
    expect(upload.statusCode).toBe(202);
    await waitForBatch(t, owner.auth, upload.json().batchId);
    const record = (await library(owner)).find((image) => image.src.includes('/files/uploads/'));
    expect(await expectPreview(record?.thumbnailUrl)).toMatchObject({ width: 320, height: 320 });

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/images/altText',
      headers: owner.auth,
      payload: { ids: [record?.id] },
    });
    expect(deleted.json()).toMatchObject({ deleted: 1 });
    expect((await fetchFile(record?.thumbnailUrl as string)).statusCode).toBe(404);
  });

  it('lands a JPEG whose body sharp cannot decode with its alt text and thumbnailUrl null, charged once', async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/generate-alt-text',
      headers: owner.auth,
      payload: { userId: owner.id, selectedImages: [`${base}/img/broken.jpg`] },
    });
    expect(await waitForBatch(t, owner.auth, started.json().batchId)).toMatchObject({
      completed: 1,
      failed: 0,
    });
    const record = (await library(owner)).find((image) => image.src === `${base}/img/broken.jpg`);
    expect(record).toMatchObject({
      thumbnailUrl: null,
      alt_text: expect.stringContaining('Test description'),
    });
  });
});

describe('regenerate', () => {
  it('gives a row stored before previews existed a preview, and keeps the one a row has', async () => {
    const [old] = await t.app.deps.database.db.transaction((tx) =>
      addLibraryImages(tx, owner.id, [{ src: `${base}/img/coffee.jpg`, altText: 'Stored before previews' }]),
    );
    expect((await library(owner)).find((image) => image.id === old?.id)?.thumbnailUrl).toBeNull();
    const regenerate = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/images/altText/${old?.id}/regenerate`,
        headers: owner.auth,
        payload: {},
      });
    expect((await regenerate()).statusCode).toBe(200);
    const first = (await library(owner)).find((image) => image.id === old?.id)?.thumbnailUrl;
    await expectPreview(first);
    expect((await regenerate()).statusCode).toBe(200);
    expect((await library(owner)).find((image) => image.id === old?.id)?.thumbnailUrl).toBe(first);
  });
});

describe('audit thumbnails', () => {
  it('previews the images the pixel check fetched, and a fix previews the image it described', async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/audits',
      headers: owner.auth,
      payload: { url: `${base}/`, scope: 'page' },
    });
    expect(started.statusCode).toBe(202);
    const auditId: string = started.json().id;
    await waitFor(async () => {
      const audit = (
        await t.app.inject({ method: 'GET', url: `/api/v1/audits/${auditId}`, headers: owner.auth })
      ).json();
      return audit.status === 'completed' ? audit : null;
    }, 20_000);
    const images = async () =>
      (
        await t.app.inject({ method: 'GET', url: `/api/v1/audits/${auditId}/images`, headers: owner.auth })
      ).json().items as { id: string; src: string; verdict: string; thumbnailUrl: string | null }[];

    const checked = await images();
    const rocket = checked.find((image) => image.src.endsWith('/rocket.jpg'));
    // Its alt is text: the pixel check fetched it to see whether it is blank, and kept a preview.
    await expectPreview(rocket?.thumbnailUrl);
    // A file name as alt: fetched by the pixel check too, and failing, so the fix describes it again.
    const coffee = checked.find((image) => image.src.endsWith('/coffee.jpg'));
    expect(coffee?.verdict).toBe('fail');
    await expectPreview(coffee?.thumbnailUrl);

    const fixed = await t.app.inject({
      method: 'POST',
      url: `/api/v1/audits/${auditId}/fix`,
      headers: owner.auth,
      payload: {},
    });
    expect(fixed.statusCode).toBe(202);
    const camera = await waitFor(async () => {
      const image = (await images()).find((candidate) => candidate.src.endsWith('/camera.jpg'));
      return image?.thumbnailUrl ? image.thumbnailUrl : null;
    }, 20_000);
    await expectPreview(camera);
    auditPreviews.push(rocket?.thumbnailUrl as string, camera);
    // The coffee image keeps the pixel check's preview, and the fix's second one is not kept.
    await waitFor(async () => {
      const batch = (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/images/batches/${fixed.json().batchId}`,
          headers: owner.auth,
        })
      ).json();
      return batch.finishedAt ? batch : null;
    }, 20_000);
    const after = await images();
    expect(after.find((image) => image.src.endsWith('/coffee.jpg'))?.thumbnailUrl).toBe(coffee?.thumbnailUrl);
    const kept = await queryRows<{ key: string }>(
      t.app.deps.database.db,
      sql`select key from stored_files where owner_id = ${owner.id} and key like 'previews/%'`,
    );
    const listed = new Set(
      [
        ...after.map((image) => image.thumbnailUrl),
        ...(await library(owner)).map((image) => image.thumbnailUrl),
      ]
        .filter((url): url is string => Boolean(url))
        .map((url) => new URL(url).pathname.replace('/files/', '')),
    );
    expect(kept.map((row) => row.key).sort()).toEqual([...listed].sort());

    // Accepting the suggestion puts the image in the library with the audit's preview; deleting that
    // library row leaves the preview to the audit, which still shows it.
    const cameraImage = after.find((image) => image.src.endsWith('/camera.jpg'));
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/v1/audits/${auditId}/review`,
      headers: owner.auth,
      payload: { imageIds: [cameraImage?.id], action: 'accept' },
    });
    expect(accepted.statusCode).toBe(200);
    const inLibrary = (await library(owner)).find((image) => image.src === cameraImage?.src);
    expect(inLibrary?.thumbnailUrl).toBe(camera);
    await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/images/altText',
      headers: owner.auth,
      payload: { ids: [inLibrary?.id] },
    });
    expect((await fetchFile(camera)).statusCode).toBe(200);

    // Another user sees neither the audit nor its images.
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audits/${auditId}/images`,
      headers: stranger.auth,
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('deletes every preview with the account', async () => {
    const records = await library(owner);
    const urls = [
      ...records.map((image) => image.thumbnailUrl).filter((url): url is string => Boolean(url)),
      ...auditPreviews,
    ];
    expect(urls.length).toBeGreaterThan(2);
    for (const url of urls) expect((await fetchFile(url)).statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/users/me',
      headers: owner.auth,
      payload: { password: PASSWORD },
    });
    expect(deleted.statusCode).toBe(204);
    for (const url of urls) expect((await fetchFile(url)).statusCode).toBe(404);
  });
});
