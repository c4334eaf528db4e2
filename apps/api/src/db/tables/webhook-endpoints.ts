import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/**
 * A URL a user registered to receive signed events (ADR 029). The signing secret is kept
 * as is (`whsec_` + base64): the server needs it to sign every delivery, so it cannot be hashed.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Subscribed event names (batch.completed, batch.failed, audit.completed). */
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    /**
     * The secret a rotation replaced (ADR 049): deliveries are signed with it as well, as a second
     * `v1,` signature, until `previousSecretExpiresAt`; after that it is never used again.
     */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('webhook_endpoints_user_id_idx').on(table.userId, table.createdAt)],
);

/**
 * One event for one endpoint, sent by the `webhooks.deliver` job until a 2xx or until its retries
 * run out. `subject` is what the event is about (a batch id): one delivery per endpoint, event and
 * subject, so emitting twice sends once. Every attempt counts in `attempts` and leaves its status
 * code or error.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    subject: text('subject').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: webhookDeliveryStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('webhook_deliveries_endpoint_event_subject_idx').on(
      table.endpointId,
      table.event,
      table.subject,
    ),
    index('webhook_deliveries_endpoint_created_at_idx').on(table.endpointId, table.createdAt),
    check('webhook_deliveries_attempts_nonnegative', sql`${table.attempts} >= 0`),
  ],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
