import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Credits taken by one deduct, and how many of them have been given back. A refund names its
 * reservation and can return at most `amount - refunded`; the CHECK keeps that true even if a
 * service forgot.
 */
export const creditReservations = pgTable(
  'credit_reservations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    refunded: integer('refunded').notNull().default(0),
    /** What spent them: 'api' for POST /credits/deduct, or a server feature's own name. */
    purpose: text('purpose').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('credit_reservations_user_id_idx').on(table.userId),
    check('credit_reservations_amount_positive', sql`${table.amount} > 0`),
    check(
      'credit_reservations_refunded_in_range',
      sql`${table.refunded} >= 0 and ${table.refunded} <= ${table.amount}`,
    ),
  ],
);

export type CreditReservation = typeof creditReservations.$inferSelect;
