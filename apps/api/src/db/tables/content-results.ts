import type { AltOrigin } from '@altwise/contracts/provenance';
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { AltTextResult } from '../../engines/types.ts';
import { users } from './users.ts';

/** What a content result keeps: the engine's whole answer (its signals are a few hundred bytes). */
export type StoredContentResult = AltTextResult;

/**
 * The last alt text each user got for an image's bytes in one context (ADR 073), owned by the
 * generation module: `sha256` is the hex SHA-256 of the bytes, `context_key` the fields of the
 * page context, language, prompt and keywords that change the alt. A batch image whose bytes and
 * context are here is answered from it and refunded: the same image is never paid twice.
 * `approved` once a person accepted or wrote the words; a later engine answer never overwrites it.
 */
export const contentResults = pgTable(
  'content_results',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sha256: text('sha256').notNull(),
    contextKey: text('context_key').notNull(),
    result: jsonb('result').$type<StoredContentResult>().notNull(),
    origin: text('origin').$type<AltOrigin>().notNull(),
    /** The engine found nothing it can stand behind: a repeat is still "needs words", not an alt. */
    needsWords: boolean('needs_words').notNull().default(false),
    approved: boolean('approved').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.sha256, table.contextKey] }),
    index('content_results_user_id_updated_at_idx').on(table.userId, table.updatedAt),
  ],
);

export type ContentResult = typeof contentResults.$inferSelect;
