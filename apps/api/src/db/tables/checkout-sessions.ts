import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A checkout a signed-in user started (POST /payments/create-checkout-session). Its id travels to
 * the provider's hosted checkout as metadata and comes back in the webhook, which is how a payment
 * finds its user.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** Catalogue product id (contracts billingProducts), not the provider's. */
    productId: text('product_id').notNull(),
    quantity: integer('quantity').notNull().default(1),
    /** pending, paying (a sandbox payment attempt holds it), completed, failed */
    status: text('status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('checkout_sessions_user_id_idx').on(table.userId),
    check('checkout_sessions_quantity_positive', sql`${table.quantity} >= 1`),
  ],
);

export type CheckoutSession = typeof checkoutSessions.$inferSelect;
