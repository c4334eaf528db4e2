import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Provider webhook events already handled, by the provider's event id (the `webhook-id` header).
 * The row is written in the transaction that applies the event, so a replay finds it and changes
 * nothing.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'webhook_events_pkey', columns: [table.provider, table.eventId] })],
);
