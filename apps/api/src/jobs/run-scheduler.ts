/**
 * One process's runs of durable work (a generation batch, an audit): at most one run per id here,
 * started right after a request (`kick`) or by the work's job (`run`), all told to stop and awaited
 * when the app closes. The work itself is safe to run twice at once in different processes (claims
 * with a lease); this only keeps one process from racing itself.
 */
export function createRunScheduler(options: {
  /** Works one id to its end, or until `stopping()` turns true (then it throws, so its job retries). */
  run: (id: string, stopping: () => boolean) => Promise<void>;
  /** A kicked run failed while the process was not stopping (nobody else awaits it). */
  onKickFailed: (error: unknown, id: string) => void;
}) {
  const running = new Map<string, Promise<void>>();
  let stopping = false;
  const isStopping = () => stopping;

  function runOnce(id: string): Promise<void> {
    const existing = running.get(id);
    if (existing) return existing;
    const run = options.run(id, isStopping).finally(() => running.delete(id));
    running.set(id, run);
    return run;
  }

  return {
    isStopping,

    /** The ids run in this process now (a sweep for orphaned work leaves them out). */
    runningIds: (): string[] => [...running.keys()],

    /** Starts a run in the background (after a request's commit); the job stays the durable copy. */
    kick(id: string): void {
      if (stopping) return;
      runOnce(id).catch((error) => {
        if (!stopping) options.onKickFailed(error, id);
      });
    },

    /**
     * The job handler's run: waits for a run already under way here, then looks once more, so the
     * job ends only when the work has (or throws to be retried when this process stops).
     */
    async run(id: string): Promise<void> {
      await running.get(id)?.catch(() => {});
      await runOnce(id);
    },

    /** No new runs from now on; the ones under way see `stopping()` and wind down. */
    stop(): void {
      stopping = true;
    },

    /** Stops and waits for every run under way (app close). */
    async close(): Promise<void> {
      stopping = true;
      await Promise.allSettled([...running.values()]);
    },
  };
}

export type RunScheduler = ReturnType<typeof createRunScheduler>;
