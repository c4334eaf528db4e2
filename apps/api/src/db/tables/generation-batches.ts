import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { creditReservations } from './credit-reservations.ts';
import { users } from './users.ts';

/** `audit`: an audit's fix (ADR 030); its results land on the audit's images, not in the library. */
export const generationSources = ['scrape', 'upload', 'csv', 'audit'] as const;
export type GenerationSource = (typeof generationSources)[number];

export const generationBatchStatuses = ['queued', 'processing', 'completed', 'failed'] as const;
export type GenerationBatchStatus = (typeof generationBatchStatuses)[number];

/**
 * One bulk alt-text generation: the images of a scraped page or of an upload, paid for up front by
 * one credit reservation (one credit per image) and worked by the `generation.batch` job. `completed`
 * and `failed` count items that reached an end; every failed item has been refunded.
 */
export const generationBatches = pgTable(
  'generation_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source', { enum: generationSources }).notNull(),
    /** The user's custom prompt (`chatGptPrompt`), if any. */
    prompt: text('prompt'),
    /** The scraped page, given to the engine as context. */
    pageUrl: text('page_url'),
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => creditReservations.id),
    total: integer('total').notNull(),
    completed: integer('completed').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    status: text('status', { enum: generationBatchStatuses }).notNull().default('queued'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('generation_batches_user_id_created_at_idx').on(table.userId, table.createdAt),
    // The worker's start-up resume looks for these.
    index('generation_batches_unfinished_idx').on(table.createdAt).where(sql`${table.finishedAt} is null`),
    check('generation_batches_total_positive', sql`${table.total} > 0`),
    check(
      'generation_batches_counts_in_range',
      sql`${table.completed} >= 0 and ${table.failed} >= 0 and ${table.completed} + ${table.failed} <= ${table.total}`,
    ),
  ],
);

export type GenerationBatch = typeof generationBatches.$inferSelect;
export type NewGenerationBatch = typeof generationBatches.$inferInsert;
