import { afterAll, describe, expect, it } from 'vitest';
import type { TestHandlers } from '../../test/fixtures/sandbox-worker.ts';
import { createSandbox, SandboxLimitError, SandboxTaskError } from './sandbox.ts';

const sandbox = createSandbox<TestHandlers>(
  new URL('../../test/fixtures/sandbox-worker.ts', import.meta.url),
  {
    size: 2,
    timeoutMs: 5_000,
    maxOldGenerationMb: 64,
    idleMs: 1_000,
  },
);

afterAll(() => sandbox.close());

/** How long the main thread's event loop went without a turn while `work` ran. */
async function longestStall(work: Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 10);
  await work.catch(() => {});
  clearInterval(timer);
  return worst;
}

describe('sandbox', () => {
  it('runs a handler in a thread and answers its result', async () => {
    await expect(sandbox.run('echo', { text: 'home' })).resolves.toEqual({ text: 'HOME' });
  });

  it('ends an endless loop at the time limit without stalling the event loop', async () => {
    const task = sandbox.run('spin', null, { timeoutMs: 300 });
    const stall = await longestStall(task);
    await expect(task).rejects.toMatchObject({ name: 'SandboxLimitError', limit: 'time' });
    expect(stall).toBeLessThan(250);
    // The pool replaced the thread: the next task works.
    await expect(sandbox.run('echo', { text: 'after' })).resolves.toEqual({ text: 'AFTER' });
  });

  it('ends a task that hoards memory at the heap limit', async () => {
    const error = await sandbox.run('hoard', null, { timeoutMs: 30_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxLimitError);
    expect((error as SandboxLimitError).limit).toBe('memory');
    await expect(sandbox.run('echo', { text: 'ok' })).resolves.toEqual({ text: 'OK' });
  });

  it('passes a thrown error back with its code', async () => {
    const error = await sandbox.run('fail', null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxTaskError);
    expect(error).toMatchObject({ message: 'The sheet has no header row.', code: 'BAD_SHEET' });
  });

  it('turns a stack overflow from deep input into an error, not a crash', async () => {
    const error = await sandbox.run('recurse', { depth: 10_000_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxTaskError);
    expect((error as SandboxTaskError).taskErrorName).toBe('RangeError');
  });

  it('runs tasks side by side up to its size and queues the rest', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => sandbox.run('echo', { text: `n${i}` })),
    );
    expect(results.map((r) => r.text)).toEqual(['N0', 'N1', 'N2', 'N3', 'N4', 'N5']);
    expect(sandbox.threads).toBeLessThanOrEqual(2);
  });

  it('refuses work once closed', async () => {
    const closing = createSandbox<TestHandlers>(
      new URL('../../test/fixtures/sandbox-worker.ts', import.meta.url),
      { size: 1, timeoutMs: 1_000, maxOldGenerationMb: 32 },
    );
    await closing.close();
    await expect(closing.run('echo', { text: 'x' })).rejects.toMatchObject({ limit: 'closed' });
  });
});
