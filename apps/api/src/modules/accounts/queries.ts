import { eq, sql } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { users } from '../../db/tables/users.ts';

/**
 * What other modules may read of an account, by name (ADR 079): the accounts module owns `users`,
 * and these reads are the only way in from outside it. Nothing here writes.
 */

/** A person's name and address, for a checkout or a notice. */
export async function findContactOf(db: DbExecutor, userId: string) {
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/** The account with this email address, in any case; null when there is none. */
export async function findUserIdByEmail(db: DbExecutor, email: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row?.id ?? null;
}

/** The language the account writes alt text in when a request names none. */
export async function findDefaultLanguage(db: DbExecutor, userId: string): Promise<string | null> {
  const [row] = await db.select({ language: users.defaultLanguage }).from(users).where(eq(users.id, userId));
  return row?.language ?? null;
}

/**
 * Locks the account's row until the caller's transaction ends, so one person's concurrent starts
 * (audits, API keys) take turns and their limits hold. `update` is for deleting the account: it also
 * waits for rows being added that point at the person. Answers whether the account exists.
 */
export async function lockUser(
  db: DbExecutor,
  userId: string,
  mode: 'no key update' | 'update' = 'no key update',
): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for(mode);
  return rows.length === 1;
}
