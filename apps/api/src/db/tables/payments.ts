import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { checkoutSessions } from './checkout-sessions.ts';
import { users } from './users.ts';

/**
 * Every payment a provider told us about (webhooks), succeeded or failed: the billing history and
 * what /success verifies. One row per provider payment id.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the account is deleted: the payment stays for the books, without the person (ADR 022). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    provider: text('provider').notNull(),
    /** The provider's payment id; the transactionId users see. */
    providerPaymentId: text('provider_payment_id').notNull(),
    checkoutSessionId: uuid('checkout_session_id').references(() => checkoutSessions.id, {
      onDelete: 'set null',
    }),
    providerSubscriptionId: text('provider_subscription_id'),
    /** Catalogue product id. */
    productId: text('product_id').notNull(),
    quantity: integer('quantity').notNull().default(1),
    title: text('title').notNull(),
    /** succeeded, failed, pending (provider words) */
    status: text('status').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('USD'),
    /** Credits this payment bought (0 unless it succeeded). */
    creditsAdded: integer('credits_added').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('payments_provider_payment_key').on(table.provider, table.providerPaymentId),
    index('payments_user_id_idx').on(table.userId, table.createdAt),
    // One checkout is paid once: the backstop behind the checkout's claim. Renewals of a
    // subscription are not linked to the checkout that started it.
    uniqueIndex('payments_checkout_succeeded_key')
      .on(table.checkoutSessionId)
      .where(sql`${table.status} = 'succeeded'`),
  ],
);

export type Payment = typeof payments.$inferSelect;
