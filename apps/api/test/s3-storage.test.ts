import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../src/storage/file-storage.ts';
import { createS3Storage } from '../src/storage/s3.ts';
import { createUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let s3: S3rver;
let s3Dir: string;
let storage: FileStorage;
let endpoint: string;

const s3Options = (bucket: string) => ({
  driver: 's3' as const,
  bucket,
  region: 'us-east-1',
  endpoint,
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
  publicUrl: 'http://altwise.test',
});

beforeAll(async () => {
  s3Dir = await mkdtemp(path.join(os.tmpdir(), 'altwise-s3-'));
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'altwise-test' }],
  });
  const address = await s3.run();
  endpoint = `http://127.0.0.1:${address.port}`;
  storage = createS3Storage(s3Options('altwise-test'));
});
afterAll(async () => {
  await s3.close();
  await rm(s3Dir, { recursive: true, force: true });
});

describe('S3 file storage (against s3rver)', () => {
  it('puts, reads, checks and deletes objects', async () => {
    const bytes = Buffer.from('fake image bytes');
    const put = await storage.put('uploads/2026-01/one.png', bytes, 'image/png');
    expect(put).toEqual({
      key: 'uploads/2026-01/one.png',
      url: 'http://altwise.test/files/uploads/2026-01/one.png',
      sizeBytes: bytes.length,
    });
    expect(await storage.exists('uploads/2026-01/one.png')).toBe(true);
    const file = await storage.get('uploads/2026-01/one.png');
    expect(file?.contentType).toBe('image/png');
    const chunks: Buffer[] = [];
    for await (const chunk of file?.body ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(bytes);
    await storage.delete('uploads/2026-01/one.png');
    expect(await storage.exists('uploads/2026-01/one.png')).toBe(false);
    expect(await storage.get('uploads/2026-01/one.png')).toBeNull();
  });

  it('accepts a stream and refuses unsafe keys', async () => {
    const put = await storage.put(
      'streams/two.txt',
      Readable.from([Buffer.from('abc'), Buffer.from('def')]),
      'text/plain',
    );
    expect(put.sizeBytes).toBe(6);
    await expect(storage.put('../x', Buffer.from('x'), 'text/plain')).rejects.toThrow(/Invalid storage key/);
  });

  it('reports health: up for the bucket, down for a missing one', async () => {
    expect(await storage.health()).toMatchObject({ status: 'up', driver: 's3' });
    expect(await createS3Storage(s3Options('no-such-bucket')).health()).toMatchObject({
      status: 'down',
      driver: 's3',
    });
  });

  it('is served by the app at /files/<key> when STORAGE_DRIVER=s3', async () => {
    let t: TestApp | undefined;
    try {
      t = await buildTestApp({
        env: {
          STORAGE_DRIVER: 's3',
          S3_BUCKET: 'altwise-test',
          S3_ENDPOINT: endpoint,
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
          S3_FORCE_PATH_STYLE: 'true',
        },
      });
      const saved = await t.app.deps.files.saveFile({
        body: Buffer.from('png!'),
        contentType: 'image/png',
        folder: 'uploads',
        ownerId: (await createUser(t)).id,
      });
      const response = await t.app.inject({ method: 'GET', url: `/files/${saved.key}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.body).toBe('png!');
      const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(health.json().storage).toMatchObject({ status: 'up', driver: 's3' });
    } finally {
      await t?.cleanup();
    }
  });
});
