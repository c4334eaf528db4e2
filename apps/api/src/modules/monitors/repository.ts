import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { type DbExecutor, queryRows } from '../../db/client.ts';
import type { AuditRenderMode, AuditScope } from '../../db/tables/audits.ts';
import { type AuditStatus, audits } from '../../db/tables/audits.ts';
import {
  type MonitorDifferenceRecord,
  type MonitorInterval,
  type MonitorRow,
  monitorRuns,
  monitors,
} from '../../db/tables/monitors.ts';

/** A run with what its audit says (status, score, dates); the audit columns are null for a skipped run. */
export type MonitorRunView = {
  id: string;
  monitorId: string;
  auditId: string | null;
  skippedReason: string | null;
  difference: MonitorDifferenceRecord | null;
  createdAt: Date;
  auditStatus: AuditStatus | null;
  auditError: string | null;
  score: number | null;
  finishedAt: Date | null;
};

const runView = {
  id: monitorRuns.id,
  monitorId: monitorRuns.monitorId,
  auditId: monitorRuns.auditId,
  skippedReason: monitorRuns.skippedReason,
  difference: monitorRuns.difference,
  createdAt: monitorRuns.createdAt,
  auditStatus: audits.status,
  auditError: audits.error,
  score: audits.score,
  finishedAt: audits.finishedAt,
};

export async function insertMonitor(
  db: DbExecutor,
  values: {
    userId: string;
    url: string;
    scope: AuditScope;
    maxPages: number;
    render: AuditRenderMode;
    every: MonitorInterval;
    nextRunAt: Date;
  },
): Promise<MonitorRow> {
  const [row] = await db.insert(monitors).values(values).returning();
  if (!row) throw new Error('The monitor was not stored.');
  return row;
}

export async function findMonitorByUrl(db: DbExecutor, userId: string, url: string) {
  const [row] = await db
    .select({ id: monitors.id })
    .from(monitors)
    .where(and(eq(monitors.userId, userId), eq(monitors.url, url)));
  return row ?? null;
}

export async function countMonitors(db: DbExecutor, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(monitors).where(eq(monitors.userId, userId));
  return Number(row?.n ?? 0);
}

export async function findMonitorOf(db: DbExecutor, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(monitors)
    .where(and(eq(monitors.userId, userId), eq(monitors.id, id)));
  return row ?? null;
}

export function listMonitorsOf(db: DbExecutor, userId: string): Promise<MonitorRow[]> {
  return db.select().from(monitors).where(eq(monitors.userId, userId)).orderBy(asc(monitors.createdAt));
}

export async function deleteMonitorOf(db: DbExecutor, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(monitors)
    .where(and(eq(monitors.userId, userId), eq(monitors.id, id)))
    .returning({ id: monitors.id });
  return rows.length > 0;
}

export async function insertRun(
  db: DbExecutor,
  values: { monitorId: string; auditId?: string; skippedReason?: string; createdAt?: Date },
): Promise<void> {
  await db.insert(monitorRuns).values(values);
}

/** A monitor's runs, newest first. */
export function listRuns(db: DbExecutor, monitorId: string, limit: number): Promise<MonitorRunView[]> {
  return db
    .select(runView)
    .from(monitorRuns)
    .leftJoin(audits, eq(audits.id, monitorRuns.auditId))
    .where(eq(monitorRuns.monitorId, monitorId))
    .orderBy(desc(monitorRuns.createdAt), desc(monitorRuns.id))
    .limit(limit);
}

/** Completed runs' scores, newest first. */
export function listScores(db: DbExecutor, monitorId: string, limit: number) {
  return db
    .select({ at: audits.finishedAt, score: audits.score })
    .from(monitorRuns)
    .innerJoin(audits, eq(audits.id, monitorRuns.auditId))
    .where(and(eq(monitorRuns.monitorId, monitorId), eq(audits.status, 'completed')))
    .orderBy(desc(audits.finishedAt))
    .limit(limit);
}

/**
 * Claims the monitors due at `now` whose previous run has finished (or that have none): their
 * `next_run_at` moves on by their interval in the same statement, so two ticks at once (two worker
 * processes) never start the same run twice. Returns them with their previous `next_run_at`.
 */
export async function claimDueMonitors(
  db: DbExecutor,
  now: Date,
  limit: number,
): Promise<(MonitorRow & { previousNextRunAt: Date })[]> {
  const rows = await queryRows<{
    id: string;
    user_id: string;
    url: string;
    scope: AuditScope;
    max_pages: number;
    render: AuditRenderMode;
    every: MonitorInterval;
    next_run_at: string | Date;
    created_at: string | Date;
    previous_next_run_at: string | Date;
  }>(
    db,
    sql`with due as (
          select m.id, m.next_run_at from monitors m
          where m.next_run_at <= ${now.toISOString()}::timestamptz
            and not exists (
              select 1 from monitor_runs r join audits a on a.id = r.audit_id
              where r.monitor_id = m.id and a.finished_at is null
            )
          order by m.next_run_at
          limit ${limit}
          for update of m skip locked
        )
        update monitors m
        set next_run_at = ${now.toISOString()}::timestamptz
          + case m.every when 'week' then interval '7 days' else interval '1 day' end
        from due where m.id = due.id
        returning m.*, due.next_run_at as previous_next_run_at`,
  );
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    url: row.url,
    scope: row.scope,
    maxPages: row.max_pages,
    render: row.render,
    every: row.every,
    nextRunAt: new Date(row.next_run_at),
    createdAt: new Date(row.created_at),
    previousNextRunAt: new Date(row.previous_next_run_at),
  }));
}

/** Whether a run of the monitor is still going (its audit has not finished). */
export async function hasUnfinishedRun(db: DbExecutor, monitorId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: monitorRuns.id })
    .from(monitorRuns)
    .innerJoin(audits, eq(audits.id, monitorRuns.auditId))
    .where(and(eq(monitorRuns.monitorId, monitorId), sql`${audits.finishedAt} is null`))
    .limit(1);
  return row !== undefined;
}

/** Sets when the monitor runs next (a claimed monitor put back, or a run started by its owner). */
export async function setNextRunAt(db: DbExecutor, id: string, nextRunAt: Date): Promise<void> {
  await db.update(monitors).set({ nextRunAt }).where(eq(monitors.id, id));
}

/** The monitor run of an audit, with its monitor and owner; null for an audit no monitor started. */
export async function findRunOfAudit(db: DbExecutor, auditId: string) {
  const [row] = await db
    .select({
      runId: monitorRuns.id,
      runCreatedAt: monitorRuns.createdAt,
      monitorId: monitors.id,
      url: monitors.url,
      userId: monitors.userId,
      score: audits.score,
    })
    .from(monitorRuns)
    .innerJoin(monitors, eq(monitors.id, monitorRuns.monitorId))
    .innerJoin(audits, eq(audits.id, monitorRuns.auditId))
    .where(eq(monitorRuns.auditId, auditId));
  return row ?? null;
}

/** The monitor's newest completed run before `before` (another run than `runId`). */
export async function findPreviousCompletedRun(
  db: DbExecutor,
  monitorId: string,
  runId: string,
  before: Date,
) {
  const [row] = await db
    .select({ auditId: audits.id, score: audits.score })
    .from(monitorRuns)
    .innerJoin(audits, eq(audits.id, monitorRuns.auditId))
    .where(
      and(
        eq(monitorRuns.monitorId, monitorId),
        eq(audits.status, 'completed'),
        sql`${monitorRuns.id} <> ${runId}`,
        sql`${monitorRuns.createdAt} <= ${before.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(desc(monitorRuns.createdAt))
    .limit(1);
  return row ?? null;
}

type ImageKey = { page_url: string; src: string };

/**
 * Images matched by page and resolved address across two audits (an image counts as failing when
 * any of its occurrences on the page fails): those failing in `current` that did not fail in
 * `previous`, and those failing in `previous` still on the page in `current` without failing.
 * Counts are whole; at most `listLimit` of each are named.
 */
export async function compareAudits(
  db: DbExecutor,
  previousAuditId: string,
  currentAuditId: string,
  listLimit: number,
): Promise<{ newFailures: number; fixed: number; newFailureImages: ImageKey[]; fixedImages: ImageKey[] }> {
  const failing = (auditId: string) =>
    sql`select distinct page_url, src from audit_images where audit_id = ${auditId} and verdict = 'fail'`;
  const present = sql`select distinct page_url, src from audit_images where audit_id = ${currentAuditId}`;
  const newFailures = sql`(${failing(currentAuditId)}) except (${failing(previousAuditId)})`;
  const fixed = sql`((${failing(previousAuditId)}) intersect (${present})) except (${failing(currentAuditId)})`;
  const [counts] = await queryRows<{ new_failures: number | string; fixed: number | string }>(
    db,
    sql`select (select count(*) from (${newFailures}) n) as new_failures,
               (select count(*) from (${fixed}) f) as fixed`,
  );
  const named = (set: typeof fixed) =>
    queryRows<ImageKey>(
      db,
      sql`select page_url, src from (${set}) s order by page_url, src limit ${listLimit}`,
    );
  return {
    newFailures: Number(counts?.new_failures ?? 0),
    fixed: Number(counts?.fixed ?? 0),
    newFailureImages: await named(newFailures),
    fixedImages: await named(fixed),
  };
}

/** The difference of the monitor's newest run that has one. */
export async function findLastDifference(
  db: DbExecutor,
  monitorId: string,
): Promise<MonitorDifferenceRecord | null> {
  const [row] = await db
    .select({ difference: monitorRuns.difference })
    .from(monitorRuns)
    .where(and(eq(monitorRuns.monitorId, monitorId), sql`${monitorRuns.difference} is not null`))
    .orderBy(desc(monitorRuns.createdAt))
    .limit(1);
  return row?.difference ?? null;
}

export async function setRunDifference(
  db: DbExecutor,
  runId: string,
  difference: MonitorDifferenceRecord,
): Promise<void> {
  await db.update(monitorRuns).set({ difference }).where(eq(monitorRuns.id, runId));
}
