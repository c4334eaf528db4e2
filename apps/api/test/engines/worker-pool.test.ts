import { describe, expect, it } from 'vitest';
import { EngineBusyError, EngineProviderError } from '../../src/engines/errors.ts';
import { WorkerPool } from '../../src/engines/offline/worker-pool.ts';

const fakeWorker = new URL('./support/fake-worker.ts', import.meta.url);
const task = (width = 2) => ({
  rgb: new ArrayBuffer(width * 3),
  width,
  height: 1,
  png: new ArrayBuffer(8),
  ocr: { minConfidence: 70, timeoutMs: 1000 },
});

describe('offline worker pool', () => {
  it('fails only the request whose thread crashed, then replaces the thread', async () => {
    const pool = new WorkerPool({ size: 1, maxQueue: 10, workerUrl: fakeWorker });
    try {
      await pool.start();
      const crashed = await pool.run(task(1)).catch((e: unknown) => e);
      expect(crashed).toBeInstanceOf(EngineProviderError);
      expect(crashed).toMatchObject({ retryable: true });
      await expect(pool.run(task())).resolves.toMatchObject({ ok: true, objects: [] });
    } finally {
      await pool.close();
    }
  });

  it('rejects queued work with a non-retryable error when the models cannot load', async () => {
    const pool = new WorkerPool({
      size: 1,
      maxQueue: 10,
      workerUrl: fakeWorker,
      workerData: { failToLoad: true },
    });
    try {
      const error = await pool.run(task()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineProviderError);
      expect(error).toMatchObject({ retryable: false, message: expect.stringMatching(/failed to load/) });
    } finally {
      await pool.close();
    }
  });

  it('refuses work beyond its queue and after closing', async () => {
    const pool = new WorkerPool({ size: 1, maxQueue: 1, workerUrl: fakeWorker });
    const first = pool.run(task());
    await expect(pool.run(task())).rejects.toBeInstanceOf(EngineBusyError);
    await first;
    await pool.close();
    await expect(pool.run(task())).rejects.toThrow(/closed/);
  });
});
