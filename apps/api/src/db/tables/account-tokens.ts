import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const accountTokenPurposes = ['confirm-email', 'reset-password'] as const;
export type AccountTokenPurpose = (typeof accountTokenPurposes)[number];

/**
 * Single-use links sent by email. Only the SHA-256 of the random token is stored, so a copy of the
 * database cannot be used to confirm an address or reset a password.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: accountTokenPurposes }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('account_tokens_user_id_idx').on(table.userId, table.purpose)],
);

export type AccountToken = typeof accountTokens.$inferSelect;
