import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { mailMessages } from './mail-messages.ts';

/**
 * Every message sent with the contact form, stored before anything is mailed: the support address
 * is emailed from `mail_messages` (linked here), so a message survives a mail server that is down.
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    /** The notification to the support address, queued in the same transaction. */
    mailMessageId: uuid('mail_message_id').references(() => mailMessages.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('contact_messages_created_at_idx').on(table.createdAt)],
);

export type ContactMessage = typeof contactMessages.$inferSelect;
export type NewContactMessage = typeof contactMessages.$inferInsert;
