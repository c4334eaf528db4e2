import type { PageContext } from '@altwise/contracts/page-context';
import { altOrigins } from '@altwise/contracts/provenance';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { AltTextReason } from '../../engines/types.ts';
import { users } from './users.ts';

/** The user's image library (the product spec §3 Image record): one row per image with its alt text. */
export const libraryImages = pgTable(
  'library_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    src: text('src').notNull(),
    altText: text('alt_text').notNull(),
    /**
     * Where the alt text came from (ADR 057): human, embedded (the file's metadata), ai, ai-reviewed
     * (approved unchanged) or ai-edited (saved after an edit).
     */
    origin: text('origin', { enum: altOrigins }).notNull().default('ai'),
    /** Which engine and model wrote the alt text; null when not known. */
    engine: text('engine'),
    model: text('model'),
    /** The generation batch that produced the row, when it came from one. */
    batchId: uuid('batch_id'),
    /** What the engine was told about the image (page context, file name); reused by regenerate. */
    context: jsonb('context').$type<PageContext>(),
    /** Storage key of an uploaded image, so regenerate reads the bytes from storage. */
    fileKey: text('file_key'),
    /**
     * An upload's original file name, sanitised (lib/file-names.ts): the name people know it by, as
     * `fileKey` is not. Null for an image added by its address, whose last path segment names it.
     */
    fileName: text('file_name'),
    /** How sure the engine was (0..1); null for rows written before confidence existed (ADR 018). */
    confidence: real('confidence'),
    /** The evidence the engine used: caption, title, OCR text, detections with scores. */
    reasons: jsonb('reasons').$type<AltTextReason[]>(),
    /**
     * The stored preview (ADR 051): its storage key, so deleting the row deletes it, and the URL the
     * API answers as `thumbnailUrl`; both null when none was made.
     */
    thumbnailKey: text('thumbnail_key'),
    thumbnailUrl: text('thumbnail_url'),
    /** Below the review threshold and not yet approved by the user. */
    needsReview: boolean('needs_review').notNull().default(false),
    /**
     * A chart's, diagram's or other complex image's labels and values in reading order (at most
     * 1,000 characters, ADR 050), published beside it with aria-describedby; null for other images.
     */
    longDescription: text('long_description'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Newest first is (created_at, id) descending: the id breaks ties (one statement's rows share
    // created_at), so a page is a keyset seek and a deep page an index-only skip (ADR 032).
    index('library_images_user_id_created_at_idx').on(table.userId, table.createdAt, table.id),
    // The "needs review" filter reads only flagged rows, newest first.
    index('library_images_needs_review_idx')
      .on(table.userId, table.createdAt, table.id)
      .where(sql`${table.needsReview}`),
  ],
);

/**
 * How many images each user's library holds, and how many of them need review: kept exact by
 * triggers on library_images in the same statement that inserts, deletes or flags rows, whatever
 * code path does it (ADR 032). A user without a row has none. Read instead of count(*) per page.
 */
export const libraryCounts = pgTable('library_counts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  images: integer('images').notNull().default(0),
  needsReview: integer('needs_review').notNull().default(0),
  /**
   * Goes up with every change to the user's listing (a row added or deleted, a flag set or cleared):
   * a page's cached boundary keys are valid only for the version they were read at (ADR 032).
   */
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  /**
   * An upper bound of the user's newest created_at (the greatest ever counted; a delete leaves it):
   * a row inserted after it lands at the newest end of every listing (ADR 040 addendum).
   */
  newestAt: timestamp('newest_at', { withTimezone: true }),
  /**
   * Goes up with every change that is not such an append (an insert at or before newest_at, any
   * delete, a flag set or cleared, a row moved in the order): while it stays, cached boundary keys
   * are still right, each as many rows further from the newest end as the listing has grown.
   */
  reorderVersion: bigint('reorder_version', { mode: 'number' }).notNull().default(0),
});

export type LibraryImage = typeof libraryImages.$inferSelect;
export type NewLibraryImage = typeof libraryImages.$inferInsert;
