import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../db/client.ts';
import { creditLedger } from '../../db/tables/credit-ledger.ts';
import { creditReservations, type ReservationStatus } from '../../db/tables/credit-reservations.ts';
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

/**
 * The balance read as a prepared statement (built once; on Postgres parsed once per connection):
 * `GET /credits/remaining` is among the most frequent calls.
 */
export function prepareCreditBalance(db: Database): (userId: string) => Promise<number | null> {
  const query = db
    .select({ balance: users.imageCredits })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('credits_balance');
  return async (userId) => {
    const [row] = await query.execute({ userId });
    return row?.balance ?? null;
  };
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
  reservation: { userId: string; amount: number; purpose: string; leaseSeconds: number | null },
): Promise<string> {
  const { leaseSeconds, ...values } = reservation;
  const [row] = await tx
    .insert(creditReservations)
    .values({
      ...values,
      leaseExpiresAt: leaseSeconds === null ? null : sql`now() + make_interval(secs => ${leaseSeconds})`,
    })
    .returning({ id: creditReservations.id });
  if (!row) throw new Error('insertReservation returned no row');
  return row.id;
}

/** Whose reservation this is (unlocked; the caller locks the balance next); null when unknown. */
export async function findReservationOwner(db: DbExecutor, reservationId: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: creditReservations.userId })
    .from(creditReservations)
    .where(eq(creditReservations.id, reservationId))
    .limit(1);
  return row?.userId ?? null;
}

/** The user's reservation, locked until the transaction ends; null when unknown or another user's. */
export async function lockReservation(
  tx: DbExecutor,
  userId: string,
  reservationId: string,
): Promise<{ amount: number; refunded: number; status: ReservationStatus; purpose: string } | null> {
  const [row] = await tx
    .select({
      purpose: creditReservations.purpose,
      amount: creditReservations.amount,
      refunded: creditReservations.refunded,
      status: creditReservations.status,
    })
    .from(creditReservations)
    .where(and(eq(creditReservations.id, reservationId), eq(creditReservations.userId, userId)))
    .for('update')
    .limit(1);
  return row ?? null;
}

/** Counts `amount` more as given back, only while the reservation is open; false otherwise. */
export async function addToReservationRefunded(
  tx: DbExecutor,
  reservationId: string,
  amount: number,
): Promise<boolean> {
  const rows = await tx
    .update(creditReservations)
    .set({ refunded: sql`${creditReservations.refunded} + ${amount}`, updatedAt: sql`now()` })
    .where(and(eq(creditReservations.id, reservationId), eq(creditReservations.status, 'open')))
    .returning({ id: creditReservations.id });
  return rows.length === 1;
}

/**
 * Ends an open reservation: `settled`, or `refunded` with everything counted as given back. The
 * condition on `open` makes this happen once: false when it had already ended (or is unknown).
 */
export async function closeReservation(
  tx: DbExecutor,
  reservationId: string,
  outcome: { status: 'settled' } | { status: 'refunded'; error: string | null },
): Promise<boolean> {
  const rows = await tx
    .update(creditReservations)
    .set({
      status: outcome.status,
      ...(outcome.status === 'refunded'
        ? { refunded: sql`${creditReservations.amount}`, error: outcome.error }
        : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(creditReservations.id, reservationId), eq(creditReservations.status, 'open')))
    .returning({ id: creditReservations.id });
  return rows.length === 1;
}

/** Open reservations whose lease ran out before `now`: their process stopped. Oldest first. */
export async function listAbandonedReservations(
  db: DbExecutor,
  now: Date,
  limit: number,
): Promise<{ id: string; userId: string; purpose: string }[]> {
  return db
    .select({
      id: creditReservations.id,
      userId: creditReservations.userId,
      purpose: creditReservations.purpose,
    })
    .from(creditReservations)
    .where(
      and(
        eq(creditReservations.status, 'open'),
        isNotNull(creditReservations.leaseExpiresAt),
        lt(creditReservations.leaseExpiresAt, now),
      ),
    )
    .orderBy(creditReservations.leaseExpiresAt)
    .limit(limit);
}
