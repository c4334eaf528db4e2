import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/tables/users.ts';
import { deleteFilesLater } from '../src/modules/files/deletion.ts';
import { expireStoredFiles } from '../src/modules/files/repository.ts';
import { createLocalStorage } from '../src/storage/local.ts';
import { createUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
let t: TestApp;
let ownerId: string;
beforeAll(async () => {
  t = await buildTestApp();
  ownerId = (await createUser(t)).id;
});
afterAll(() => t.cleanup());

describe('local file storage', () => {
  it('puts, reads, checks and deletes bytes under DATA_DIR/files', async () => {
    const storage = t.app.deps.storage;
    const put = await storage.put('uploads/a/picture.png', png, 'image/png');
    expect(put).toEqual({
      key: 'uploads/a/picture.png',
      url: 'http://altwise.test/files/uploads/a/picture.png',
      sizeBytes: png.length,
    });
    expect(await readFile(path.join(t.dataDir, 'files/uploads/a/picture.png'))).toEqual(png);
    expect(await storage.exists('uploads/a/picture.png')).toBe(true);
    const file = await storage.get('uploads/a/picture.png');
    expect(file?.contentType).toBe('image/png');
    expect(file?.sizeBytes).toBe(png.length);
    await storage.delete('uploads/a/picture.png');
    expect(await storage.exists('uploads/a/picture.png')).toBe(false);
    expect(await storage.get('uploads/a/picture.png')).toBeNull();
  });

  it('accepts a stream', async () => {
    const put = await t.app.deps.storage.put(
      'streams/s.txt',
      Readable.from([Buffer.from('hello '), Buffer.from('world')]),
      'text/plain',
    );
    expect(put.sizeBytes).toBe(11);
  });

  it('refuses keys that could leave the storage directory', async () => {
    const storage = createLocalStorage({ dir: path.join(t.dataDir, 'files'), publicUrl: 'http://x' });
    for (const key of ['../escape.txt', 'a/../../b', '/etc/passwd', '.meta/x.json', 'a//b', 'a\\b', '']) {
      await expect(storage.put(key, png, 'image/png')).rejects.toThrow(/Invalid storage key/);
      await expect(storage.get(key)).rejects.toThrow(/Invalid storage key/);
    }
  });
});

describe('GET /files/<key>', () => {
  it('serves a saved file with its content type and cache headers', async () => {
    const saved = await t.app.deps.files.saveFile({
      body: png,
      contentType: 'image/png',
      folder: 'uploads',
      ownerId,
    });
    expect(saved.key).toMatch(/^uploads\/\d{4}-\d{2}\/[0-9a-f-]{36}\.png$/);
    expect(saved.url).toBe(`http://altwise.test/files/${saved.key}`);
    expect(saved).toMatchObject({
      contentType: 'image/png',
      sizeBytes: png.length,
      ownerId,
      expiresAt: null,
    });

    const response = await t.app.inject({ method: 'GET', url: `/files/${saved.key}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('private, max-age=300');
    expect(response.headers['content-disposition']).toBeUndefined();
    expect(response.rawPayload).toEqual(png);
    expect((await t.app.deps.files.findFile(saved.key))?.sizeBytes).toBe(png.length);
  });

  it('makes active content download instead of running in our origin', async () => {
    const saved = await t.app.deps.files.saveFile({
      body: Buffer.from('<script>alert(1)</script>'),
      contentType: 'text/html',
      folder: 'uploads',
      ownerId,
    });
    const response = await t.app.inject({ method: 'GET', url: `/files/${saved.key}` });
    expect(response.headers['content-disposition']).toMatch(/^attachment/);
    expect(response.headers['content-security-policy']).toContain('sandbox');
  });

  it('answers 404 for missing files and traversal attempts', async () => {
    for (const url of [
      '/files/uploads/none.png',
      '/files/../package.json',
      '/files/%2e%2e/%2e%2e/package.json',
      '/files/.meta/uploads',
      '/files/..%2f..%2fpackage.json',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().code, url).toBe('NOT_FOUND');
    }
  });
});

describe('temporary files', () => {
  it('are purged with their record once expired, while others stay', async () => {
    const { files, storage } = t.app.deps;
    const expired = await files.saveFile({
      body: png,
      contentType: 'image/png',
      folder: 'tmp',
      ownerId,
      expiresAt: new Date(Date.now() - 1000),
    });
    const later = await files.saveFile({
      body: png,
      contentType: 'image/png',
      folder: 'tmp',
      ownerId,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const kept = await files.saveFile({ body: png, contentType: 'image/png', folder: 'uploads', ownerId });

    const { deleted } = await files.purgeExpiredFiles();
    expect(deleted).toBe(1);
    expect(await storage.exists(expired.key)).toBe(false);
    expect(await files.findFile(expired.key)).toBeUndefined();
    expect(await storage.exists(later.key)).toBe(true);
    expect(await storage.exists(kept.key)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/files/${expired.key}` })).statusCode).toBe(404);
  });
});

describe('files that outlive their purpose (ADR 022)', () => {
  it('an expired file answers 404 at once, and the purge job deletes its bytes', async () => {
    const { files, storage, database } = t.app.deps;
    const saved = await files.saveFile({ body: png, contentType: 'image/png', folder: 'uploads', ownerId });
    expect((await t.app.inject({ method: 'GET', url: `/files/${saved.key}` })).statusCode).toBe(200);

    await expireStoredFiles(database.db, [saved.key]);
    const response = await t.app.inject({ method: 'GET', url: `/files/${saved.key}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(await storage.exists(saved.key)).toBe(true);

    await files.purgeExpiredFiles();
    expect(await storage.exists(saved.key)).toBe(false);
    expect(await files.findFile(saved.key)).toBeUndefined();
  });

  it('deleteFilesLater removes the records with the transaction and a files.delete job the bytes', async () => {
    const { files, storage, database, queue } = t.app.deps;
    const saved = await Promise.all(
      [1, 2, 3].map(() =>
        files.saveFile({ body: png, contentType: 'image/png', folder: 'uploads', ownerId }),
      ),
    );
    const keys = saved.map((file) => file.key);

    // Rolled back: nothing changes.
    await expect(
      database.db.transaction(async (tx) => {
        await deleteFilesLater(tx, queue, keys);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    for (const key of keys) {
      expect((await t.app.inject({ method: 'GET', url: `/files/${key}` })).statusCode).toBe(200);
    }

    await database.db.transaction((tx) => deleteFilesLater(tx, queue, keys));
    for (const key of keys) {
      expect((await t.app.inject({ method: 'GET', url: `/files/${key}` })).statusCode).toBe(404);
    }
    await waitFor(async () => {
      for (const key of keys) if (await storage.exists(key)) return false;
      return true;
    });
  });

  it("a file's record goes with its owner's account", async () => {
    const { files, database } = t.app.deps;
    const owner = await createUser(t);
    const saved = await files.saveFile({
      body: png,
      contentType: 'image/png',
      folder: 'uploads',
      ownerId: owner.id,
    });
    expect(saved.ownerId).toBe(owner.id);
    await database.db.delete(users).where(eq(users.id, owner.id));
    expect(await files.findFile(saved.key)).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: `/files/${saved.key}` })).statusCode).toBe(404);
  });

  it('a file cannot be saved for an account that does not exist', async () => {
    const stored = async () =>
      (await readdir(path.join(t.dataDir, 'files/uploads'), { recursive: true })).filter((entry) =>
        entry.endsWith('.png'),
      ).length;
    const before = await stored();
    await expect(
      t.app.deps.files.saveFile({
        body: png,
        contentType: 'image/png',
        folder: 'uploads',
        ownerId: randomUUID(),
      }),
    ).rejects.toThrow();
    // The bytes written before the refused record are removed again.
    expect(await stored()).toBe(before);
  });
});

describe('deleting a file while storage fails', () => {
  it('answers 404 at once and leaves the file to the purge job or a retried job', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-files-'));
    const local = createLocalStorage({ dir: path.join(dataDir, 'files'), publicUrl: 'http://altwise.test' });
    let failDeletes = true;
    const storage = {
      ...local,
      delete: async (key: string) => {
        if (failDeletes) throw new Error('storage is down');
        await local.delete(key);
      },
    };
    const app = await buildTestApp({ storage });
    try {
      const { files } = app.app.deps;
      const saved = await files.saveFile({
        body: png,
        contentType: 'image/png',
        folder: 'uploads',
        ownerId: (await createUser(app)).id,
      });
      await expect(files.deleteFile(saved.key)).rejects.toThrow('storage is down');
      expect((await app.app.inject({ method: 'GET', url: `/files/${saved.key}` })).statusCode).toBe(404);
      expect(await local.exists(saved.key)).toBe(true);

      failDeletes = false;
      await files.purgeExpiredFiles();
      expect(await local.exists(saved.key)).toBe(false);
      expect(await files.findFile(saved.key)).toBeUndefined();

      // The files.delete job fails while storage does, so the queue retries it; then it succeeds.
      const other = await files.saveFile({
        body: png,
        contentType: 'image/png',
        folder: 'uploads',
        ownerId: saved.ownerId as string,
      });
      failDeletes = true;
      await expect(files.deleteFiles([other.key])).rejects.toThrow(/did not delete 1 of 1/);
      expect(await local.exists(other.key)).toBe(true);
      failDeletes = false;
      expect(await files.deleteFiles([other.key])).toEqual({ deleted: 1 });
      expect(await local.exists(other.key)).toBe(false);
      expect(await files.findFile(other.key)).toBeUndefined();
    } finally {
      await app.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
