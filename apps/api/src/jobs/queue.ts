import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type DrizzleTransactionLike, fromDrizzle, fromPglite, PgBoss } from 'pg-boss';
import type { DatabaseHandle, Transaction } from '../db/client.ts';
import type { ComponentStatus } from '../modules/health/component-status.ts';
import { type JobName, type JobPayloads, jobNames, jobQueueOptions } from './names.ts';

export type Job<N extends JobName> = { id: string; name: N; data: JobPayloads[N] };
export type JobHandler<N extends JobName> = (job: Job<N>) => Promise<void>;

export type SendJobOptions = {
  /** Seconds from now, or a moment, before the job may run. */
  startAfter?: number | Date;
  /** At most one queued job per key. */
  singletonKey?: string;
  retryLimit?: number;
  /** Enqueue inside this transaction: the job exists only if the transaction commits. */
  tx?: Transaction;
};

export type WorkOptions = {
  /** How often an idle worker looks for jobs. pg-boss's minimum is 0.5. */
  pollingIntervalSeconds?: number;
  /** Jobs of this name handled at once by this process. */
  concurrency?: number;
};

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

/**
 * Durable background jobs stored in the product's own database (pg-boss). Any process can send;
 * only processes whose role includes the worker call `work`.
 */
export interface JobQueue {
  start(): Promise<void>;
  /** Waits (up to 10 s) for the jobs in hand; `graceful: false` leaves them as a crash would, for tests. */
  stop(options?: { graceful?: boolean }): Promise<void>;
  send<N extends JobName>(name: N, data: JobPayloads[N], options?: SendJobOptions): Promise<string | null>;
  work<N extends JobName>(name: N, handler: JobHandler<N>, options?: WorkOptions): Promise<void>;
  schedule<N extends JobName>(name: N, cron: string, data: JobPayloads[N]): Promise<void>;
  /** Removes a recurring schedule (of a job that was renamed or retired); nothing when there is none. */
  unschedule(name: string): Promise<void>;
  getJob(name: JobName, id: string): Promise<{ id: string; state: JobState; output: unknown } | null>;
  health(): Promise<ComponentStatus>;
}

export type QueueOptions = {
  database: DatabaseHandle;
  /** Whether this process runs workers and the queue's own upkeep (maintenance, cron). */
  runsWorkers: boolean;
  logger: FastifyBaseLogger;
};

/**
 * On Postgres pg-boss opens its own small pool from the connection string (it needs a
 * session-pinned connection for its maintenance). On PGlite it shares the single embedded
 * connection through `fromPglite`, with the `pglite` backend profile.
 */
export function createJobQueue(options: QueueOptions): JobQueue {
  const { database, runsWorkers, logger } = options;
  const upkeep = { supervise: runsWorkers, schedule: runsWorkers };
  const boss =
    database.driver === 'pglite' && database.pglite
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', ...upkeep })
      : new PgBoss({ connectionString: database.url, max: 4, application_name: 'altwise-queue', ...upkeep });

  // Without a listener an 'error' event would crash the process; pg-boss retries on its own.
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  boss.on('warning', (warning) => logger.warn({ warning }, 'job queue warning'));

  let started = false;

  return {
    async start() {
      await boss.start();
      started = true;
      // pg-boss only accepts jobs for queues that exist; keep their options in line with names.ts.
      for (const name of Object.values(jobNames)) {
        if (await boss.getQueue(name)) await boss.updateQueue(name, jobQueueOptions[name]);
        else await boss.createQueue(name, jobQueueOptions[name]);
      }
    },

    async stop(stopOptions = {}) {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: stopOptions.graceful ?? true, timeout: 10_000 });
    },

    send(name, data, sendOptions = {}) {
      const { tx, ...rest } = sendOptions;
      return boss.send(name, data, {
        ...rest,
        ...(tx ? { db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql) } : {}),
      });
    },

    async work(name, handler, workOptions = {}) {
      await boss.work(
        name,
        {
          pollingIntervalSeconds: workOptions.pollingIntervalSeconds ?? 2,
          localConcurrency: workOptions.concurrency ?? 1,
          batchSize: 1,
        },
        async (jobs) => {
          for (const job of jobs) {
            const started = performance.now();
            try {
              await handler({ id: job.id, name, data: job.data as JobPayloads[typeof name] });
            } catch (error) {
              // pg-boss records the failure and retries per the queue's options; say so in the log.
              logger.error({ err: error, job: { id: job.id, name } }, 'job failed');
              throw error;
            }
            logger.info(
              { job: { id: job.id, name }, ms: Math.round(performance.now() - started) },
              'job completed',
            );
          }
        },
      );
    },

    async schedule(name, cron, data) {
      await boss.schedule(name, cron, data, { tz: 'UTC' });
    },

    async unschedule(name) {
      await boss.unschedule(name);
    },

    async getJob(name, id) {
      const [job] = await boss.findJobs(name, { id });
      return job ? { id: job.id, state: job.state as JobState, output: job.output } : null;
    },

    async health(): Promise<ComponentStatus> {
      const driver = 'pg-boss';
      const started_ = performance.now();
      try {
        if (!started) return { status: 'down', driver, message: 'Queue is not started' };
        const installed = await boss.isInstalled();
        if (!installed) return { status: 'down', driver, message: 'Queue schema is missing' };
        return {
          status: 'up',
          driver,
          latencyMs: Math.round((performance.now() - started_) * 100) / 100,
          message: runsWorkers ? 'Sending and working jobs' : 'Sending jobs only (PROCESS_ROLE=api)',
        };
      } catch (error) {
        return { status: 'down', driver, message: `Queue database unreachable (${(error as Error).name})` };
      }
    },
  };
}
