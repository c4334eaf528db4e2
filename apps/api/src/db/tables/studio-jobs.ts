import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { creditReservations } from './credit-reservations.ts';
import { users } from './users.ts';

export const studioJobKinds = ['edit-image', 'generate-images', 'styled-caption'] as const;
export type StudioJobKind = (typeof studioJobKinds)[number];

export const studioJobStatuses = ['running', 'succeeded', 'failed'] as const;
export type StudioJobStatus = (typeof studioJobStatuses)[number];

/**
 * One paid piece of media-studio work (issue 7), written in the transaction that reserves its
 * credits. It ends `succeeded` or `failed` (refunded); one left `running` by a process that died is
 * refunded by the `studio.recover-abandoned` job, so no credit is kept for work that never landed.
 */
export const studioJobs = pgTable(
  'studio_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: studioJobKinds }).notNull(),
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => creditReservations.id),
    credits: integer('credits').notNull(),
    status: text('status', { enum: studioJobStatuses }).notNull().default('running'),
    /** Why it failed, as the person was told. */
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('studio_jobs_running_idx').on(table.createdAt).where(sql`${table.status} = 'running'`),
    index('studio_jobs_user_id_idx').on(table.userId),
    check('studio_jobs_credits_positive', sql`${table.credits} > 0`),
  ],
);

export type StudioJob = typeof studioJobs.$inferSelect;
