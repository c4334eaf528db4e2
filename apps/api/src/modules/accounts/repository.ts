import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../db/client.ts';
import {
  type AccountToken,
  type AccountTokenPurpose,
  accountTokens,
} from '../../db/tables/account-tokens.ts';
import { type NewUser, type User, users } from '../../db/tables/users.ts';

export async function findUserById(db: DbExecutor, id: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/**
 * What authenticating a session reads of its user (ADR 039): three columns, as a prepared statement
 * (built once; on Postgres parsed once per connection), as `prepareCreditBalance` does.
 */
export function prepareSessionUserLookup(
  db: Database,
): (id: string) => Promise<{ id: string; email: string; sessionVersion: number } | undefined> {
  const query = db
    .select({ id: users.id, email: users.email, sessionVersion: users.sessionVersion })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('session_user_by_id');
  return async (id) => {
    const [row] = await query.execute({ id });
    return row;
  };
}

/** Case-insensitive, like the unique index on lower(email). */
export async function findUserByEmail(db: DbExecutor, email: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
  return row;
}

export async function findUserByGoogleSub(db: DbExecutor, sub: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.googleSub, sub)).limit(1);
  return row;
}

export async function insertUser(db: DbExecutor, user: NewUser): Promise<User> {
  const [row] = await db.insert(users).values(user).returning();
  if (!row) throw new Error('insert into users returned no row');
  return row;
}

export async function updateUser(
  db: DbExecutor,
  id: string,
  changes: Partial<
    Pick<
      User,
      'firstName' | 'lastName' | 'googleSub' | 'emailConfirmedAt' | 'passwordHash' | 'defaultLanguage'
    >
  >,
): Promise<User | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Sets (or clears) the password and ends every session issued so far. */
export async function replacePassword(
  db: DbExecutor,
  id: string,
  passwordHash: string | null,
): Promise<User | undefined> {
  const [row] = await db
    .update(users)
    .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** True once per account: the first caller marks the welcome mail as sent. */
export async function claimWelcomeMail(db: DbExecutor, id: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ welcomeMailSentAt: new Date() })
    .where(and(eq(users.id, id), isNull(users.welcomeMailSentAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function insertAccountToken(
  db: DbExecutor,
  token: { userId: string; purpose: AccountTokenPurpose; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(accountTokens).values(token);
}

/** Locks the token row, so two clicks on the same link cannot both use it. */
export async function findAccountTokenForUpdate(
  db: DbExecutor,
  tokenHash: string,
  purpose: AccountTokenPurpose,
): Promise<AccountToken | undefined> {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, tokenHash), eq(accountTokens.purpose, purpose)))
    .for('update')
    .limit(1);
  return row;
}

export async function markAccountTokenUsed(db: DbExecutor, id: string): Promise<void> {
  await db.update(accountTokens).set({ usedAt: new Date() }).where(eq(accountTokens.id, id));
}

/** Spends every outstanding token of this purpose (after a password change, older reset links die). */
export async function spendAccountTokens(
  db: DbExecutor,
  userId: string,
  purpose: AccountTokenPurpose,
): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: new Date() })
    .where(
      and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)),
    );
}
