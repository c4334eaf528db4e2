import type { PageContext } from '@altwise/contracts/page-context';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { generationBatches } from './generation-batches.ts';
import { libraryImages } from './library-images.ts';

export const generationItemStatuses = ['pending', 'processing', 'done', 'failed'] as const;
export type GenerationItemStatus = (typeof generationItemStatuses)[number];

/** What the engine is told about an image besides its bytes: the contract's one page context. */
export type GenerationItemContext = PageContext;

/**
 * One image of a batch. A worker claims it (`processing`, `claim_id`, `claimed_at`); a claim older
 * than the lease belongs to a dead process and may be taken over. Finishing is conditional on the
 * claim, so only one worker ever writes its result or its refund.
 */
export const generationItems = pgTable(
  'generation_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => generationBatches.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** The image's URL: the scraped source, or the stored upload's public URL. */
    src: text('src').notNull(),
    /** Storage key of an uploaded image (read from storage rather than fetched). */
    fileKey: text('file_key'),
    context: jsonb('context').$type<GenerationItemContext>().notNull().default({}),
    /** The caller's own id for this image (a CSV import's `id` column), echoed in results.csv. */
    externalId: text('external_id'),
    /** BCP 47 tag the alt text is to be written in; null: the account's default, then the engine's. */
    language: text('language'),
    /** SEO keywords the engine may use where they truthfully describe the image. */
    keywords: jsonb('keywords').$type<string[]>(),
    status: text('status', { enum: generationItemStatuses }).notNull().default('pending'),
    /** Why it failed, in words the user can act on. */
    error: text('error'),
    /** Engine attempts so far (a claim by a process that then died counts as one). */
    attempts: integer('attempts').notNull().default(0),
    claimId: uuid('claim_id'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** Hex SHA-256 of the bytes the image was described from (ADR 073); null until it was read. */
    contentSha256: text('content_sha256'),
    /** The context key it was described under (ADR 073), with `content_sha256` the content result's key. */
    contentContextKey: text('content_context_key'),
    /** Answered from an earlier result for the same bytes and context (ADR 073), and refunded. */
    reused: boolean('reused').notNull().default(false),
    libraryImageId: uuid('library_image_id').references(() => libraryImages.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('generation_items_batch_id_position_idx').on(table.batchId, table.position),
    index('generation_items_batch_id_status_idx').on(table.batchId, table.status),
  ],
);

export type GenerationItem = typeof generationItems.$inferSelect;
export type NewGenerationItem = typeof generationItems.$inferInsert;
