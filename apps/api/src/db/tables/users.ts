import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * Accounts. The email keeps the casing the person typed; uniqueness and look-ups go through
 * lower(email). `passwordHash` is null for accounts made with Google sign-in only. Every session
 * token carries `sessionVersion`; bumping it (password change or reset) ends all earlier sessions.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** argon2id in PHC string form (algorithm, parameters, salt and hash). */
    passwordHash: text('password_hash'),
    googleSub: text('google_sub').unique(),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    sessionVersion: integer('session_version').notNull().default(1),
    /** Kept in step with credit_ledger by modules/credits, in the same transaction. */
    imageCredits: integer('image_credits').notNull().default(0),
    /** When the one welcome notification (POST /email/registration) was queued. */
    welcomeMailSentAt: timestamp('welcome_mail_sent_at', { withTimezone: true }),
    /** BCP 47 tag alt text is written in when a request names none; null: the engine's default. */
    defaultLanguage: text('default_language'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${table.email})`),
    check('users_image_credits_non_negative', sql`${table.imageCredits} >= 0`),
  ],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
