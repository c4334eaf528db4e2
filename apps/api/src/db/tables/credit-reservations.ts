import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const reservationStatuses = ['open', 'settled', 'refunded'] as const;
export type ReservationStatus = (typeof reservationStatuses)[number];

/**
 * The record of one piece of paid work (ADR 024): the credits it took, what for, and how it ended.
 * It starts `open`; the work's success makes it `settled` (kept), its failure `refunded` (what was
 * not given back yet returns), each by a conditional update on `open`, so it ends exactly once.
 * While open, parts may come back one at a time (a batch's failed images); `refunded` counts them
 * and the CHECK keeps it within `amount`. An open reservation past `lease_expires_at` belongs to a
 * process that stopped: the `credits.recover-abandoned` job refunds it. No lease (a batch, resumed
 * by its own job; the browser's POST /credits/deduct) means nothing recovers it by time.
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
    status: text('status', { enum: reservationStatuses }).notNull().default('open'),
    /** When an open reservation counts as abandoned; null: never by time. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    /** Why it was refunded, as the person was told. */
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('credit_reservations_user_id_idx').on(table.userId),
    index('credit_reservations_open_lease_idx')
      .on(table.leaseExpiresAt)
      .where(sql`${table.status} = 'open' and ${table.leaseExpiresAt} is not null`),
    check('credit_reservations_amount_positive', sql`${table.amount} > 0`),
    check(
      'credit_reservations_refunded_in_range',
      sql`${table.refunded} >= 0 and ${table.refunded} <= ${table.amount}`,
    ),
  ],
);

export type CreditReservation = typeof creditReservations.$inferSelect;
