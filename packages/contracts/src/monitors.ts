import { z } from 'zod';
import { auditRenderSchema, auditStatusSchema, startAuditRequestSchema } from './audit.ts';

/**
 * Sites watched over time (ADR 062): a monitor re-audits a URL every day or week, compares
 * each run with the last one that completed, and tells its owner what changed.
 */

/** Monitors one user may have. */
export const MAX_MONITORS = 20;
/** Runs GET /monitors/{id} lists, newest first. */
export const MONITOR_RUNS_LISTED = 50;
/** Scores each monitor of GET /monitors carries, oldest first. */
export const MONITOR_HISTORY_POINTS = 30;
/** Images named in a difference (each list); the counts are always whole. */
export const MONITOR_DIFFERENCE_IMAGES = 20;

export const monitorEverySchema = z.enum(['day', 'week'], { error: 'every must be day or week' });
export type MonitorEvery = z.infer<typeof monitorEverySchema>;

/** POST /monitors: the fields of POST /audits, the same messages, and how often. */
export const createMonitorRequestSchema = startAuditRequestSchema.extend({ every: monitorEverySchema });
export type CreateMonitorRequest = z.input<typeof createMonitorRequestSchema>;

export const monitorParamsSchema = z.object({ id: z.uuid({ error: 'There is no such monitor.' }) });

/** An image named in a difference: matched across runs by its page and its resolved address. */
export const monitorImageSchema = z.object({ pageUrl: z.string(), src: z.string() });
export type MonitorImage = z.infer<typeof monitorImageSchema>;

/**
 * What changed since the run before (the previous completed one): `newFailures` images that fail now
 * and did not fail then (new images included), `fixed` images on both runs that failed then and do
 * not fail now; `scoreChange` the score now minus then (null when either has no score). The lists
 * name at most MONITOR_DIFFERENCE_IMAGES images each.
 */
export const monitorDifferenceSchema = z.object({
  newFailures: z.number().int(),
  fixed: z.number().int(),
  scoreChange: z.number().nullable(),
  newFailureImages: z.array(monitorImageSchema),
  fixedImages: z.array(monitorImageSchema),
});
export type MonitorDifference = z.infer<typeof monitorDifferenceSchema>;

/**
 * `queued`, `running`, `completed`, `failed`: the run's audit's status. `skipped`: no audit was
 * started (the account was at its audit limits, or the run before had not finished); `reason` says why.
 */
export const monitorRunStatusSchema = z.enum([...auditStatusSchema.options, 'skipped']);
export type MonitorRunStatus = z.infer<typeof monitorRunStatusSchema>;

export const monitorRunSchema = z.object({
  id: z.uuid(),
  /** The audit this run started (GET /audits/{id}); null for a skipped run. */
  auditId: z.uuid().nullable(),
  status: monitorRunStatusSchema,
  /** Why the run was skipped or failed, in words. */
  reason: z.string().nullable(),
  score: z.number().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Set when the run completed and an earlier completed run was there to compare with. */
  difference: monitorDifferenceSchema.nullable(),
});
export type MonitorRun = z.infer<typeof monitorRunSchema>;

export const monitorScorePointSchema = z.object({ at: z.string(), score: z.number().nullable() });

export const monitorSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  scope: startAuditRequestSchema.shape.scope,
  maxPages: z.number().int(),
  /** How each run renders its pages (ADR 061): `auto` unless the monitor was created with another. */
  render: auditRenderSchema,
  every: monitorEverySchema,
  createdAt: z.string(),
  /** When the next run is due (it starts at the first scheduler tick after it). */
  nextRunAt: z.string(),
  /** Completed runs' scores (0 to 1), oldest first, at most MONITOR_HISTORY_POINTS. */
  history: z.array(monitorScorePointSchema),
  /** The newest run, whatever its status; null before the first. */
  lastRun: monitorRunSchema.nullable(),
  /**
   * The difference of the newest run that has one (null until two runs completed), whatever runs
   * came after it (one under way, or skipped).
   */
  lastDifference: monitorDifferenceSchema.nullable(),
});
export type Monitor = z.infer<typeof monitorSchema>;

export const listMonitorsResponseSchema = z.array(monitorSchema);

/** GET /monitors/{id}: the monitor and its runs, newest first. */
export const monitorDetailSchema = monitorSchema.extend({ runs: z.array(monitorRunSchema) });
export type MonitorDetail = z.infer<typeof monitorDetailSchema>;

/** The `monitor` field of an `audit.completed` event whose audit is a monitor's run. */
export const auditCompletedMonitorSchema = z.object({
  id: z.uuid(),
  /** Null on a monitor's first completed run (nothing to compare with). */
  newFailures: z.number().int().nullable(),
  fixed: z.number().int().nullable(),
  scoreChange: z.number().nullable(),
});
export type AuditCompletedMonitor = z.infer<typeof auditCompletedMonitorSchema>;
