import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { AltTextReason } from '../../engines/types.ts';
import { users } from './users.ts';

/** The user's image library (SPEC.md §3 Image record): one row per image with its alt text. */
export const libraryImages = pgTable(
  'library_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    src: text('src').notNull(),
    altText: text('alt_text').notNull(),
    /** Which engine and model wrote the alt text; null when not known. */
    engine: text('engine'),
    model: text('model'),
    /** The generation batch that produced the row, when it came from one. */
    batchId: uuid('batch_id'),
    /** What the engine was told about the image (page context, file name); reused by regenerate. */
    context: jsonb('context').$type<Record<string, string>>(),
    /** Storage key of an uploaded image, so regenerate reads the bytes from storage. */
    fileKey: text('file_key'),
    /** How sure the engine was (0..1); null for rows written before confidence existed (ADR 018). */
    confidence: real('confidence'),
    /** The evidence the engine used: caption, title, OCR text, detections with scores. */
    reasons: jsonb('reasons').$type<AltTextReason[]>(),
    /** Below the review threshold and not yet approved by the user. */
    needsReview: boolean('needs_review').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('library_images_user_id_created_at_idx').on(table.userId, table.createdAt),
    // The "needs review" filter reads only flagged rows, newest first.
    index('library_images_needs_review_idx')
      .on(table.userId, table.createdAt)
      .where(sql`${table.needsReview}`),
  ],
);

export type LibraryImage = typeof libraryImages.$inferSelect;
export type NewLibraryImage = typeof libraryImages.$inferInsert;
