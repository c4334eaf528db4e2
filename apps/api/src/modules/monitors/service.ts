import type { AuditCompletedMonitor } from '@altwise/contracts/monitors';
import {
  type createMonitorRequestSchema,
  MAX_MONITORS,
  MONITOR_DIFFERENCE_IMAGES,
  MONITOR_HISTORY_POINTS,
  MONITOR_RUNS_LISTED,
  type Monitor,
  type MonitorDetail,
  type MonitorDifference,
  type MonitorRun,
} from '@altwise/contracts/monitors';
import { routes } from '@altwise/contracts/routes';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, Transaction } from '../../db/client.ts';
import type { MonitorRow } from '../../db/tables/monitors.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { findContactOf } from '../accounts/queries.ts';
import type { AuditService } from '../audit/service.ts';
import type { MailService } from '../mail/service.ts';
import { monitorChangedMail, monitorSkippedMail } from '../mail/templates.ts';
import { normalizeMonitorUrl } from './monitor-url.ts';
import {
  claimDueMonitors,
  compareAudits,
  countMonitors,
  deleteMonitorOf,
  findLastDifference,
  findMonitorByUrl,
  findMonitorOf,
  findPreviousCompletedRun,
  findRunOfAudit,
  hasUnfinishedRun,
  insertMonitor,
  insertRun,
  listMonitorsOf,
  listRuns,
  listScores,
  type MonitorRunView,
  setNextRunAt,
  setRunDifference,
} from './repository.ts';

const DAY_MS = 24 * 3600 * 1000;
const INTERVAL_MS = { day: DAY_MS, week: 7 * DAY_MS } as const;
/** Monitors one tick starts at most; the rest start at the next tick. */
const MONITORS_PER_TICK = 100;

const monitorNotFound = () => notFound('There is no such monitor.');

const roundScore = (value: number) => Math.round(value * 10_000) / 10_000;

function toRun(row: MonitorRunView): MonitorRun {
  const skipped = row.auditId === null;
  return {
    id: row.id,
    auditId: row.auditId,
    status: skipped ? 'skipped' : (row.auditStatus ?? 'queued'),
    reason: skipped ? (row.skippedReason ?? 'The audit of this run was deleted.') : (row.auditError ?? null),
    score: row.score,
    startedAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? (skipped ? row.createdAt.toISOString() : null),
    difference: row.difference,
  };
}

export type MonitorsService = ReturnType<typeof createMonitorsService>;

/**
 * Sites watched over time (ADR 062). A monitor's runs are ordinary audits started through
 * the audit service, so they count against the same per-user limits; `runDueMonitors(now)` is the
 * schedule's tick (the `monitors.run-due` job every few minutes, or a test advancing the clock).
 */
export function createMonitorsService(deps: {
  db: Database;
  audits: Pick<AuditService, 'start'>;
  mail: Pick<MailService, 'queueMail'>;
  publicUrl: string;
  logger: FastifyBaseLogger;
}) {
  const { db, audits, mail, logger } = deps;
  const monitorsLink = `${deps.publicUrl}${routes.monitors}`;

  async function toMonitor(row: MonitorRow, lastRun: MonitorRunView | undefined): Promise<Monitor> {
    const scores = await listScores(db, row.id, MONITOR_HISTORY_POINTS);
    return {
      id: row.id,
      url: row.url,
      scope: row.scope,
      maxPages: row.maxPages,
      render: row.render,
      every: row.every,
      createdAt: row.createdAt.toISOString(),
      nextRunAt: row.nextRunAt.toISOString(),
      history: scores.reverse().map((point) => ({ at: point.at?.toISOString() ?? '', score: point.score })),
      lastRun: lastRun ? toRun(lastRun) : null,
      lastDifference: await findLastDifference(db, row.id),
    };
  }

  /** A run that did not start: recorded with its reason, and its owner told by email. */
  async function skipRun(monitor: MonitorRow, reason: string): Promise<void> {
    await db.transaction(async (tx) => {
      await insertRun(tx, { monitorId: monitor.id, skippedReason: reason });
      const owner = await findContactOf(tx, monitor.userId);
      if (owner)
        await mail.queueMail(tx, monitorSkippedMail(owner, { url: monitor.url, reason }, monitorsLink));
    });
  }

  return {
    /**
     * POST /monitors: checked and limited like POST /audits (its first run is an audit started now, in
     * the same transaction as the monitor), at most MAX_MONITORS per user, one per URL (409).
     */
    async create(userId: string, request: z.output<typeof createMonitorRequestSchema>): Promise<Monitor> {
      const url = normalizeMonitorUrl(request.url);
      const { every, ...audit } = request;
      let created: MonitorRow | undefined;
      await audits.start(
        userId,
        { ...audit, url },
        {
          // Runs after the audit's own checks, with the user locked: two requests at once cannot both pass.
          onStarted: async (tx, auditId) => {
            if (await findMonitorByUrl(tx, userId, url))
              throw conflict(`You already monitor ${url}. Delete that monitor to change how it is watched.`);
            if ((await countMonitors(tx, userId)) >= MAX_MONITORS)
              throw conflict(
                `You can monitor at most ${MAX_MONITORS} sites. Delete a monitor to add another.`,
              );
            created = await insertMonitor(tx, {
              userId,
              url,
              scope: audit.scope,
              maxPages: audit.maxPages,
              render: audit.render,
              every,
              nextRunAt: new Date(Date.now() + INTERVAL_MS[every]),
            });
            await insertRun(tx, { monitorId: created.id, auditId });
          },
        },
      );
      if (!created) throw new Error('The monitor was not stored.');
      logger.info({ monitor: created.id, every }, 'monitor created');
      const [firstRun] = await listRuns(db, created.id, 1);
      return toMonitor(created, firstRun);
    },

    async list(userId: string): Promise<Monitor[]> {
      const rows = await listMonitorsOf(db, userId);
      const answers: Monitor[] = [];
      for (const row of rows) {
        const [lastRun] = await listRuns(db, row.id, 1);
        answers.push(await toMonitor(row, lastRun));
      }
      return answers;
    },

    async get(userId: string, id: string): Promise<MonitorDetail> {
      const row = await findMonitorOf(db, userId, id);
      if (!row) throw monitorNotFound();
      const runs = await listRuns(db, row.id, MONITOR_RUNS_LISTED);
      return { ...(await toMonitor(row, runs[0])), runs: runs.map(toRun) };
    },

    /**
     * POST /monitors/{id}/run: a run now, checked and limited like any audit; the schedule starts
     * again from now. 409 while the monitor's previous run is still going.
     */
    async runNow(userId: string, id: string): Promise<Monitor> {
      const monitor = await findMonitorOf(db, userId, id);
      if (!monitor) throw monitorNotFound();
      await audits.start(
        userId,
        { url: monitor.url, scope: monitor.scope, maxPages: monitor.maxPages, render: monitor.render },
        {
          // With the user locked (the audit service's transaction): two clicks at once start one run.
          onStarted: async (tx, auditId) => {
            if (await hasUnfinishedRun(tx, monitor.id))
              throw conflict(
                `A run of ${monitor.url} is still going. Its results will be here when it finishes.`,
              );
            await insertRun(tx, { monitorId: monitor.id, auditId });
            await setNextRunAt(tx, monitor.id, new Date(Date.now() + INTERVAL_MS[monitor.every]));
          },
        },
      );
      logger.info({ monitor: monitor.id }, 'monitor run started by its owner');
      const row = (await findMonitorOf(db, userId, id)) ?? monitor;
      const [lastRun] = await listRuns(db, monitor.id, 1);
      return toMonitor(row, lastRun);
    },

    /** DELETE /monitors/{id}: no more runs; the audits of its runs stay in GET /audits. */
    async remove(userId: string, id: string): Promise<void> {
      if (!(await deleteMonitorOf(db, userId, id))) throw monitorNotFound();
      logger.info({ monitor: id }, 'monitor deleted');
    },

    /**
     * The schedule's tick: starts a run of every monitor due at `now` whose previous run has finished
     * (a monitor whose run is still going stays due and starts at the first tick after it ends). A
     * run the account's audit limits refuse is recorded as skipped, with the reason, and its owner told.
     */
    async runDueMonitors(now: Date = new Date()): Promise<{ started: number; skipped: number }> {
      const due = await claimDueMonitors(db, now, MONITORS_PER_TICK);
      let started = 0;
      let skipped = 0;
      for (const monitor of due) {
        try {
          await audits.start(
            monitor.userId,
            // Every run renders as the monitor was asked to (ADR 061), like its first run did.
            { url: monitor.url, scope: monitor.scope, maxPages: monitor.maxPages, render: monitor.render },
            { onStarted: (tx, auditId) => insertRun(tx, { monitorId: monitor.id, auditId }) },
          );
          started++;
        } catch (error) {
          if (error instanceof AppError && error.statusCode < 500) {
            // At the audit limits (429), or the address no longer public or resolvable (400).
            await skipRun(monitor, error.message);
            skipped++;
            logger.info({ monitor: monitor.id, reason: error.code }, 'monitor run skipped');
            continue;
          }
          // Unexpected: the monitor stays due, so the next tick tries again.
          await setNextRunAt(db, monitor.id, monitor.previousNextRunAt).catch(() => {});
          logger.error({ err: error, monitor: monitor.id }, 'starting a monitor run failed');
        }
      }
      if (due.length > 0) logger.info({ started, skipped }, 'due monitors run');
      return { started, skipped };
    },

    /**
     * In the transaction that completes an audit: when a monitor started it, compares it with the
     * monitor's previous completed run, stores the difference, emails the owner when something
     * changed, and answers the `monitor` field of the audit.completed event (null for other audits).
     */
    async recordCompletedRun(tx: Transaction, auditId: string): Promise<AuditCompletedMonitor | null> {
      const run = await findRunOfAudit(tx, auditId);
      if (!run) return null;
      const previous = await findPreviousCompletedRun(tx, run.monitorId, run.runId, run.runCreatedAt);
      if (!previous) return { id: run.monitorId, newFailures: null, fixed: null, scoreChange: null };
      const compared = await compareAudits(tx, previous.auditId, auditId, MONITOR_DIFFERENCE_IMAGES);
      const difference: MonitorDifference = {
        newFailures: compared.newFailures,
        fixed: compared.fixed,
        scoreChange:
          run.score === null || previous.score === null ? null : roundScore(run.score - previous.score),
        newFailureImages: compared.newFailureImages.map((image) => ({
          pageUrl: image.page_url,
          src: image.src,
        })),
        fixedImages: compared.fixedImages.map((image) => ({ pageUrl: image.page_url, src: image.src })),
      };
      await setRunDifference(tx, run.runId, difference);
      const changed =
        difference.newFailures > 0 || difference.fixed > 0 || (difference.scoreChange ?? 0) !== 0;
      const owner = changed ? await findContactOf(tx, run.userId) : null;
      if (owner)
        await mail.queueMail(
          tx,
          monitorChangedMail(
            owner,
            {
              url: run.url,
              newFailures: difference.newFailures,
              fixed: difference.fixed,
              scoreBefore: previous.score,
              scoreNow: run.score,
              newFailureImages: difference.newFailureImages,
              fixedImages: difference.fixedImages,
            },
            monitorsLink,
          ),
        );
      return {
        id: run.monitorId,
        newFailures: difference.newFailures,
        fixed: difference.fixed,
        scoreChange: difference.scoreChange,
      };
    },
  };
}
