import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * API keys (ADR 028). The key itself (`ak_` + 32 random bytes, base64url) is shown once, when it is
 * created; only its SHA-256 is kept, with a short prefix to look it up and to show in lists.
 * Revoking sets `revoked_at`: the row stays (its name and last use), the key stops working.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** `ak_` and the first 8 characters of the random part: the look-up key, and what lists show. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key, hex. */
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set at most once a minute: on the first request of each rate-limit window. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    index('api_keys_prefix_idx').on(table.prefix),
    index('api_keys_user_id_idx').on(table.userId, table.createdAt),
  ],
);

/**
 * The per-key rate limit: one fixed-window counter per key and minute, moved by an upsert so that
 * every API process shares it. Windows older than the current one are deleted as new ones open.
 */
export const apiKeyUsage = pgTable(
  'api_key_usage',
  {
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    requests: integer('requests').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.keyId, table.windowStart] })],
);

export type ApiKey = typeof apiKeys.$inferSelect;
