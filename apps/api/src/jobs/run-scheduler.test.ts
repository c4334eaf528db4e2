import { describe, expect, it } from 'vitest';
import { createRunScheduler } from './run-scheduler.ts';

/** A run that waits until it is told to end, or until the scheduler stops (then it throws). */
function controlledRuns() {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const run = (id: string, stopping: () => boolean) => {
    started.push(id);
    return new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (!stopping()) return;
        clearInterval(poll);
        reject(new Error(`${id} interrupted`));
      }, 5);
      finish.set(id, () => {
        clearInterval(poll);
        resolve();
      });
    });
  };
  return { started, finish, run };
}

describe('run scheduler', () => {
  it('runs one id once in a process when a request kicks it and its job runs it at the same time', async () => {
    const runs = controlledRuns();
    const failures: string[] = [];
    const scheduler = createRunScheduler({ run: runs.run, onKickFailed: (_e, id) => failures.push(id) });
    scheduler.kick('batch-1');
    scheduler.kick('batch-1');
    const job = scheduler.run('batch-1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(scheduler.runningIds()).toEqual(['batch-1']);
    runs.finish.get('batch-1')?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The job looks once more after the kicked run ended: a second run, never two at once.
    runs.finish.get('batch-1')?.();
    await job;
    expect(runs.started).toEqual(['batch-1', 'batch-1']);
    expect(scheduler.runningIds()).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('reports a kicked run that fails, and stays quiet about runs interrupted by close', async () => {
    const runs = controlledRuns();
    const failures: string[] = [];
    const scheduler = createRunScheduler({
      run: (id, stopping) => (id === 'broken' ? Promise.reject(new Error('boom')) : runs.run(id, stopping)),
      onKickFailed: (_error, id) => failures.push(id),
    });
    scheduler.kick('broken');
    scheduler.kick('audit-1');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(failures).toEqual(['broken']);
    await scheduler.close();
    expect(scheduler.isStopping()).toBe(true);
    expect(scheduler.runningIds()).toEqual([]);
    expect(failures).toEqual(['broken']);
    // Once closed, a kick starts nothing.
    scheduler.kick('audit-2');
    expect(runs.started).toEqual(['audit-1']);
  });
});
