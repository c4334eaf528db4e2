import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobNames } from '../src/jobs/names.ts';
import { createUser } from './billing-helpers.ts';
import { buildTestApp, createPostgresDatabase, waitFor } from './helper.ts';

const png = Buffer.from('89504e47', 'hex');
let dataDir: string;
let postgres: { url: string; drop: () => Promise<void> } | null = null;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-jobs-'));
  if (process.env.TEST_DATABASE_URL) postgres = await createPostgresDatabase(process.env.TEST_DATABASE_URL);
});
afterAll(async () => {
  await postgres?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Both apps share one DATA_DIR (PGlite database and files), or one Postgres database. */
const sharedStore = () => ({
  dataDir,
  persistent: true,
  env: postgres ? { DATABASE_URL: postgres.url } : ({} as Record<string, string>),
});

describe('durable jobs', () => {
  it('keeps a job sent by an API-only process and runs it after a restart with workers', async () => {
    // 1. An API-only process (no workers) saves a temporary file that has expired and queues the purge.
    const api = await buildTestApp({ ...sharedStore(), config: { role: 'api' } });
    let jobId: string | null;
    let key: string;
    try {
      const health = await api.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(health.json().queue.message).toContain('Sending jobs only');
      const saved = await api.app.deps.files.saveFile({
        body: png,
        contentType: 'image/png',
        folder: 'tmp',
        ownerId: (await createUser(api)).id,
        expiresAt: new Date(Date.now() - 60_000),
      });
      key = saved.key;
      jobId = await api.app.deps.queue.send(jobNames.purgeExpiredFiles, {});
      expect(jobId).toBeTruthy();
      // Nobody works jobs in this process: the job waits and the file stays.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await api.app.deps.queue.getJob(jobNames.purgeExpiredFiles, jobId as string))?.state).toBe(
        'created',
      );
      expect(await api.app.deps.storage.exists(key)).toBe(true);
    } finally {
      await api.cleanup();
    }

    // 2. A process with workers opens the same store: it finds the job, runs it, and the file is gone.
    const worker = await buildTestApp({ ...sharedStore(), config: { role: 'all' } });
    try {
      const done = await waitFor(async () => {
        const job = await worker.app.deps.queue.getJob(jobNames.purgeExpiredFiles, jobId as string);
        return job?.state === 'completed' ? job : null;
      });
      expect(done.id).toBe(jobId);
      expect(await worker.app.deps.storage.exists(key)).toBe(false);
      expect(await worker.app.deps.files.findFile(key)).toBeUndefined();
      const response = await worker.app.inject({ method: 'GET', url: `/files/${key}` });
      expect(response.statusCode).toBe(404);
    } finally {
      await worker.cleanup();
    }
  });

  it('enqueues inside a transaction only when it commits', async () => {
    const t = await buildTestApp();
    try {
      const { database, queue } = t.app.deps;
      let committedId: string | null = null;
      await database.db.transaction(async (tx) => {
        committedId = await queue.send(jobNames.purgeExpiredFiles, { limit: 1 }, { tx, startAfter: 3600 });
      });
      let rolledBackId: string | null = null;
      await expect(
        database.db.transaction(async (tx) => {
          rolledBackId = await queue.send(jobNames.purgeExpiredFiles, { limit: 2 }, { tx, startAfter: 3600 });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(committedId).toBeTruthy();
      expect(rolledBackId).toBeTruthy();
      expect((await queue.getJob(jobNames.purgeExpiredFiles, committedId as unknown as string))?.state).toBe(
        'created',
      );
      expect(await queue.getJob(jobNames.purgeExpiredFiles, rolledBackId as unknown as string)).toBeNull();
    } finally {
      await t.cleanup();
    }
  });
});
