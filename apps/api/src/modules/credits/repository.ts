import { and, eq, sql } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { creditLedger } from '../../db/tables/credit-ledger.ts';
import { creditReservations } from '../../db/tables/credit-reservations.ts';
import { users } from '../../db/tables/users.ts';

/** Adds `delta` to the balance; the CHECK constraint refuses a balance below zero. */
export async function addToCreditBalance(
  db: DbExecutor,
  userId: string,
  delta: number,
): Promise<number | null> {
  const [row] = await db
    .update(users)
    .set({ imageCredits: sql`${users.imageCredits} + ${delta}`, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning({ balance: users.imageCredits });
  return row?.balance ?? null;
}

/** False when this user already has an entry with this reference. */
export async function insertLedgerEntry(
  db: DbExecutor,
  entry: { userId: string; delta: number; reason: string; reference: string; balanceAfter: number },
): Promise<boolean> {
  const rows = await db
    .insert(creditLedger)
    .values(entry)
    .onConflictDoNothing({ target: [creditLedger.userId, creditLedger.reference] })
    .returning({ id: creditLedger.id });
  return rows.length > 0;
}

/**
 * The balance, with the user's row locked until the transaction ends (serialises credit changes).
 * `no key update` rather than `update`: it still excludes every other credit change, but not the
 * key-share locks that inserts referencing the user take for their foreign keys (a library row, a
 * ledger row). With `for update`, a refund waiting on a batch row held by an insert that waits on
 * this user row would deadlock (seen on Postgres with concurrent batch images).
 */
export async function lockCreditBalance(tx: DbExecutor, userId: string): Promise<number | null> {
  const [row] = await tx
    .select({ balance: users.imageCredits })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update')
    .limit(1);
  return row?.balance ?? null;
}

export async function findCreditBalance(db: DbExecutor, userId: string): Promise<number | null> {
  const [row] = await db
    .select({ balance: users.imageCredits })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.balance ?? null;
}

/** Credits spent so far (the sum of negative entries), for the profile's apiRequestCount. */
export async function sumCreditsSpent(db: DbExecutor, userId: string): Promise<number> {
  const [row] = await db
    .select({
      spent: sql<string>`coalesce(sum(-${creditLedger.delta}) filter (where ${creditLedger.delta} < 0), 0)`,
    })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId));
  return Number(row?.spent ?? 0);
}

export async function insertReservation(
  tx: DbExecutor,
  reservation: { userId: string; amount: number; purpose: string },
): Promise<string> {
  const [row] = await tx
    .insert(creditReservations)
    .values(reservation)
    .returning({ id: creditReservations.id });
  if (!row) throw new Error('insertReservation returned no row');
  return row.id;
}

/** The user's reservation, locked until the transaction ends; null when unknown or another user's. */
export async function lockReservation(
  tx: DbExecutor,
  userId: string,
  reservationId: string,
): Promise<{ amount: number; refunded: number } | null> {
  const [row] = await tx
    .select({ amount: creditReservations.amount, refunded: creditReservations.refunded })
    .from(creditReservations)
    .where(and(eq(creditReservations.id, reservationId), eq(creditReservations.userId, userId)))
    .for('update')
    .limit(1);
  return row ?? null;
}

export async function addToReservationRefunded(tx: DbExecutor, reservationId: string, amount: number) {
  await tx
    .update(creditReservations)
    .set({ refunded: sql`${creditReservations.refunded} + ${amount}` })
    .where(eq(creditReservations.id, reservationId));
}
