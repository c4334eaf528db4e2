import { boolean, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A user's plans: paid subscriptions as the provider reports them, and the free plan (provider
 * 'free'). The newest row is the current plan.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull(),
    /** Catalogue product id, or 'free'. */
    productId: text('product_id').notNull(),
    /** active, on_hold, failed, cancelled, expired, pending (provider words) */
    status: text('status').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('subscriptions_provider_subscription_key').on(table.provider, table.providerSubscriptionId),
    index('subscriptions_user_id_idx').on(table.userId, table.createdAt),
  ],
);

export type Subscription = typeof subscriptions.$inferSelect;
