import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Every file the product keeps in storage, recorded when it is saved. A file with `expiresAt` is
 * temporary (an upload in progress, a generated download) and is purged by the
 * `files.purge-expired` job once that moment passes. Every file belongs to the user it was saved for;
 * deleting the account removes the records at once (the bytes go through the `files.delete` job, ADR
 * 022). `ownerId` is null only for files saved before owners were recorded whose owner is unknown.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull().unique(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('stored_files_owner_id_idx').on(table.ownerId),
    index('stored_files_expires_at_idx').on(table.expiresAt),
  ],
);

export type StoredFile = typeof storedFiles.$inferSelect;
export type NewStoredFile = typeof storedFiles.$inferInsert;
