import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { auditRenderModes, auditScopes, audits } from './audits.ts';
import { users } from './users.ts';

export const monitorIntervals = ['day', 'week'] as const;
export type MonitorInterval = (typeof monitorIntervals)[number];

/** What a run found changed since the previous completed run (ADR 062). */
export type MonitorDifferenceRecord = {
  newFailures: number;
  fixed: number;
  scoreChange: number | null;
  newFailureImages: { pageUrl: string; src: string }[];
  fixedImages: { pageUrl: string; src: string }[];
};

/**
 * A site a user watches (ADR 062): re-audited every day or week by the `monitors.run-due`
 * tick once `next_run_at` has passed. One per user and URL (the URL as `new URL().href` spells it).
 */
export const monitors = pgTable(
  'monitors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    scope: text('scope', { enum: auditScopes }).notNull(),
    maxPages: integer('max_pages').notNull(),
    /** How every run renders its pages (ADR 061); monitors made before it was stored render `auto`. */
    render: text('render', { enum: auditRenderModes }).notNull().default('auto'),
    every: text('every', { enum: monitorIntervals }).notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('monitors_user_id_url_idx').on(table.userId, table.url),
    index('monitors_next_run_at_idx').on(table.nextRunAt),
    check('monitors_max_pages_in_range', sql`${table.maxPages} between 1 and 500`),
  ],
);

/**
 * One run of a monitor: the audit it started (which stays when the monitor is deleted; the run goes
 * with the monitor), or none when it was skipped, with the reason in words. `difference` is written
 * in the transaction that completes the audit, when an earlier completed run exists.
 */
export const monitorRuns = pgTable(
  'monitor_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    monitorId: uuid('monitor_id')
      .notNull()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    auditId: uuid('audit_id').references(() => audits.id, { onDelete: 'set null' }),
    /** Why no audit was started (the account's audit limits, an address that became private...). */
    skippedReason: text('skipped_reason'),
    difference: jsonb('difference').$type<MonitorDifferenceRecord>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('monitor_runs_monitor_id_created_at_idx').on(table.monitorId, table.createdAt),
    uniqueIndex('monitor_runs_audit_id_idx').on(table.auditId),
  ],
);

export type MonitorRow = typeof monitors.$inferSelect;
export type MonitorRunRow = typeof monitorRuns.$inferSelect;
