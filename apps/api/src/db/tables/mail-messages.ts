import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const mailStatuses = ['queued', 'sent', 'failed'] as const;
export type MailStatus = (typeof mailStatuses)[number];

/**
 * Every email the product sends, stored before it is sent. With the embedded outbox (no SMTP_URL)
 * this table is the mailbox: `sent` there means written to the log and kept here.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What the mail is for: confirm-email, reset-password, welcome, contact-message. */
    kind: text('kind').notNull(),
    to: text('to').notNull(),
    /** Where replies go instead of MAIL_FROM: the sender of a contact message. */
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    status: text('status', { enum: mailStatuses }).notNull().default('queued'),
    /** smtp or outbox: the transport that delivered it. */
    transport: text('transport'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [index('mail_messages_created_at_idx').on(table.createdAt)],
);

export type MailMessage = typeof mailMessages.$inferSelect;
export type NewMailMessage = typeof mailMessages.$inferInsert;
