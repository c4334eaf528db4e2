import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Texts the blog-post generator wrote, per user; listed newest first in /history and the profile. */
export const contentHistory = pgTable(
  'content_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    prompt: text('prompt').notNull(),
    content: text('content').notNull(),
    /** Which engine and model wrote it (offline draft writer or a configured language model). */
    engine: text('engine').notNull(),
    model: text('model').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('content_history_user_id_created_at_idx').on(table.userId, table.createdAt)],
);

export type ContentHistoryEntry = typeof contentHistory.$inferSelect;
export type NewContentHistoryEntry = typeof contentHistory.$inferInsert;
