import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Every change to a user's credits, one row each; `users.image_credits` is the running balance,
 * updated in the same transaction. `reference` names the cause (e.g. `signup-bonus`, later a payment
 * or job id) and is unique per user, so replaying the same grant changes nothing.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    /** grant (free credits); the billing issue adds purchase, deduct, refund. */
    reason: text('reason').notNull(),
    reference: text('reference').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('credit_ledger_user_reference_key').on(table.userId, table.reference),
    index('credit_ledger_user_id_idx').on(table.userId, table.createdAt),
    check('credit_ledger_delta_non_zero', sql`${table.delta} <> 0`),
  ],
);

export type CreditLedgerEntry = typeof creditLedger.$inferSelect;
