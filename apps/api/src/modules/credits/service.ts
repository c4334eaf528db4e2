import { randomUUID } from 'node:crypto';
import { messages } from '@altwise/contracts/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbExecutor, Transaction } from '../../db/client.ts';
import { insufficientCredits, notFound } from '../../errors.ts';
import { isUuid } from '../../lib/ids.ts';
import {
  addToCreditBalance,
  addToReservationRefunded,
  closeReservation,
  findCreditBalance,
  findReservationOwner,
  insertLedgerEntry,
  insertReservation,
  listAbandonedReservations,
  lockCreditBalance,
  lockReservation,
  prepareCreditBalance,
  sumCreditsSpent,
} from './repository.ts';

/**
 * Why credits moved; one ledger row each.
 * - grant: free credits (the 25 at confirmation)
 * - purchase: a paid credit pack or a plan's first period
 * - renewal: a subscription's next paid period
 * - spend: a deduct (a reservation)
 * - refund: credits given back against a reservation
 * - adjustment: an operator's correction, either sign
 */
export type CreditReason = 'grant' | 'purchase' | 'renewal' | 'spend' | 'refund' | 'adjustment';

/** The reference of the free credits every account gets once (the product spec §9). */
export const SIGNUP_BONUS_REFERENCE = 'signup-bonus';

export type CreditChange = { applied: boolean; balance: number };

function assertPositiveWhole(name: string, amount: number) {
  if (!Number.isInteger(amount) || amount <= 0)
    throw new Error(`${name} needs a positive whole amount, got ${amount}`);
}

/**
 * Adds `delta` (either sign) to a user's balance with a ledger row, inside the caller's transaction
 * (docs/contributing.md, habit 4), the user's row already locked by the caller (`current` is the balance it read
 * then): one lock per change. `reference` is unique per user, so applying the same thing twice (a
 * replayed webhook, a retried job, a second refund of one reservation) leaves the balance as it was
 * and answers `applied: false`. A change that would take the balance below zero throws 402
 * INSUFFICIENT_CREDITS and writes nothing.
 */
async function applyLockedChange(
  tx: Transaction,
  userId: string,
  current: number,
  delta: number,
  reason: CreditReason,
  reference: string,
): Promise<CreditChange> {
  if (current + delta < 0) throw insufficientCredits(messages.credits.insufficient);
  const inserted = await insertLedgerEntry(tx, {
    userId,
    delta,
    reason,
    reference,
    balanceAfter: current + delta,
  });
  if (!inserted) return { applied: false, balance: current };
  const balance = await addToCreditBalance(tx, userId, delta);
  return { applied: true, balance: balance ?? current + delta };
}

/** Locks the user's row (serialising every credit change of this user), then applies the change. */
async function changeCredits(
  tx: Transaction,
  userId: string,
  delta: number,
  reason: CreditReason,
  reference: string,
): Promise<CreditChange> {
  const current = await lockCreditBalance(tx, userId);
  if (current === null) throw new Error(`credits: no user ${userId}`);
  return applyLockedChange(tx, userId, current, delta, reason, reference);
}

/** Gives `amount` credits (grant, purchase, renewal), once per `reference`. */
export async function grantCredits(
  tx: Transaction,
  userId: string,
  amount: number,
  reason: Extract<CreditReason, 'grant' | 'purchase' | 'renewal'>,
  reference: string,
): Promise<CreditChange> {
  assertPositiveWhole('grantCredits', amount);
  return changeCredits(tx, userId, amount, reason, reference);
}

/** An operator's correction (positive or negative), once per reference; never below zero. */
export async function adjustCredits(
  tx: Transaction,
  userId: string,
  delta: number,
  reference: string,
): Promise<CreditChange> {
  if (!Number.isInteger(delta) || delta === 0) throw new Error(`adjustCredits needs a non-zero whole delta`);
  return changeCredits(tx, userId, delta, 'adjustment', reference);
}

export type Reservation = { reservationId: string; balance: number };

export type ReserveOptions = {
  /**
   * How long the work may take before an open reservation counts as abandoned and the
   * credits.recover-abandoned job refunds it (a stopped process). Null (the default): never by time,
   * for work whose own durable job ends it (a batch) or that the browser settles (POST /credits/deduct).
   */
  leaseSeconds?: number | null;
};

/**
 * The paid-work primitive (ADR 024), step 1: takes `amount` credits for one piece of work and
 * records it as an open reservation, whose id later settles or refunds it. Throws 402
 * INSUFFICIENT_CREDITS ('Insufficient credits') when the balance is short; nothing is written then.
 * Call it inside the transaction that records the work, so both commit or neither.
 */
export async function reserveCredits(
  tx: Transaction,
  userId: string,
  amount: number,
  purpose: string,
  options: ReserveOptions = {},
): Promise<Reservation> {
  assertPositiveWhole('reserveCredits', amount);
  const current = await lockCreditBalance(tx, userId);
  if (current === null) throw new Error(`reserveCredits: no user ${userId}`);
  if (current < amount) throw insufficientCredits(messages.credits.insufficient);
  const leaseSeconds = options.leaseSeconds ?? null;
  if (leaseSeconds !== null) assertPositiveWhole('reserveCredits lease', leaseSeconds);
  const reservationId = await insertReservation(tx, { userId, amount, purpose, leaseSeconds });
  const change = await applyLockedChange(
    tx,
    userId,
    current,
    -amount,
    'spend',
    `reservation:${reservationId}`,
  );
  return { reservationId, balance: change.balance };
}

/**
 * Step 2 on success: the work landed, the reservation keeps what it took (less any parts already
 * given back). Once: false when it had already ended (refunded by a failure or the recovery job).
 * Moves no credits, so it takes no balance lock; call it in the transaction that lands the work.
 */
export async function settleReservation(tx: DbExecutor, reservationId: string): Promise<boolean> {
  return closeReservation(tx, reservationId, { status: 'settled' });
}

export type Refund = { refunded: number; balance: number };

/**
 * Step 2 on failure: ends the reservation as refunded and gives back everything it took and has not
 * given back yet. Exactly once: the status changes only from `open`, and the ledger reference
 * `refund:{reservationId}` is unique per user, so a second call (a late failure after the recovery
 * job, two runners) answers `ended: false` and moves nothing.
 */
export async function refundReservationInFull(
  tx: Transaction,
  reservationId: string,
  error: string | null,
): Promise<Refund & { ended: boolean }> {
  const userId = await findReservationOwner(tx, reservationId);
  if (!userId) return { ended: false, refunded: 0, balance: 0 };
  // Lock order everywhere: the user's balance, then the reservation.
  const current = await lockCreditBalance(tx, userId);
  if (current === null) throw new Error(`refundReservationInFull: no user ${userId}`);
  const reservation = await lockReservation(tx, userId, reservationId);
  if (reservation?.status !== 'open') return { ended: false, refunded: 0, balance: current };
  if (
    !(await closeReservation(tx, reservationId, { status: 'refunded', error: error?.slice(0, 1000) ?? null }))
  )
    return { ended: false, refunded: 0, balance: current };
  const rest = reservation.amount - reservation.refunded;
  if (rest <= 0) return { ended: true, refunded: 0, balance: current };
  const change = await applyLockedChange(tx, userId, current, rest, 'refund', `refund:${reservationId}`);
  return { ended: true, refunded: change.applied ? rest : 0, balance: change.balance };
}

/**
 * Gives back part of an open reservation: up to `amount` of what it took and has not given back
 * yet (more is clamped; an exhausted or ended reservation refunds 0). A reservation that is unknown
 * or another user's answers 404 and changes nothing. `part` names the part (a batch's image), so
 * refunding the same part twice gives nothing the second time; without it every call is a new part
 * (the browser's POST /credits/refund). With `purpose`, a reservation made for other work refunds 0:
 * the browser may only give back its own deducts, never the server's paid work.
 */
export async function refundReservation(
  tx: Transaction,
  userId: string,
  reservationId: string,
  amount: number,
  options: { part?: string; purpose?: string } = {},
): Promise<Refund> {
  assertPositiveWhole('refundReservation', amount);
  const reservationMissing = () => notFound('No such credit reservation for this account.');
  if (!isUuid(reservationId)) throw reservationMissing();
  // Same lock order as reserveCredits (user row, then reservation): no deadlock between the two.
  const current = await lockCreditBalance(tx, userId);
  if (current === null) throw new Error(`refundReservation: no user ${userId}`);
  const reservation = await lockReservation(tx, userId, reservationId);
  if (!reservation) throw reservationMissing();
  const refundable = Math.min(amount, reservation.amount - reservation.refunded);
  const otherWork = options.purpose !== undefined && reservation.purpose !== options.purpose;
  if (refundable <= 0 || reservation.status !== 'open' || otherWork) return { refunded: 0, balance: current };
  const change = await applyLockedChange(
    tx,
    userId,
    current,
    refundable,
    'refund',
    `refund:${reservationId}:${options.part ?? randomUUID()}`,
  );
  if (!change.applied) return { refunded: 0, balance: current };
  await addToReservationRefunded(tx, reservationId, refundable);
  return { refunded: refundable, balance: change.balance };
}

/** What the recovery tells the person (and the reservation keeps) about interrupted work. */
export const INTERRUPTED_WORK = 'The work was interrupted.';

/**
 * Step 3, the credits.recover-abandoned job: refunds every open reservation whose lease ran out
 * (its process stopped before settling or refunding), each in its own transaction and exactly once
 * (a work that ends meanwhile wins or loses the same conditional update).
 */
export async function recoverAbandonedReservations(
  db: Database,
  options: { now?: Date; limit?: number } = {},
): Promise<{ refunded: number }> {
  const abandoned = await listAbandonedReservations(db, options.now ?? new Date(), options.limit ?? 100);
  let refunded = 0;
  for (const reservation of abandoned) {
    const result = await db.transaction((tx) =>
      refundReservationInFull(tx, reservation.id, INTERRUPTED_WORK),
    );
    if (result.ended) refunded++;
  }
  return { refunded };
}

export function getCreditBalance(db: DbExecutor, userId: string): Promise<number | null> {
  return findCreditBalance(db, userId);
}

export function getCreditsSpent(db: DbExecutor, userId: string): Promise<number> {
  return sumCreditsSpent(db, userId);
}

/** The purpose of the browser's own deducts (POST /credits/deduct), the only ones it may refund. */
const API_PURPOSE = 'api';

/** The HTTP face of the ledger (POST /credits/deduct and /refund), each call its own transaction. */
export function createCreditsService(db: Database, logger?: FastifyBaseLogger) {
  const readBalance = prepareCreditBalance(db);
  return {
    /** The credits.recover-abandoned job: refunds paid work a stopped process left open. */
    async recoverAbandoned(options: { now?: Date; limit?: number } = {}) {
      const result = await recoverAbandonedReservations(db, options);
      if (result.refunded > 0)
        logger?.warn(result, 'credits: refunded paid work a stopped process left open');
      return result;
    },
    async remaining(userId: string) {
      return { success: true as const, imageCredits: (await readBalance(userId)) ?? 0 };
    },
    async deduct(userId: string, usedCredits: number) {
      const { reservationId, balance } = await db.transaction((tx) =>
        reserveCredits(tx, userId, usedCredits, API_PURPOSE),
      );
      return {
        success: true as const,
        remainingCredits: balance,
        reservationId,
        message: `${usedCredits} credit${usedCredits === 1 ? '' : 's'} deducted`,
      };
    },
    async refund(userId: string, reservationId: string, refundCredits: number) {
      const { refunded, balance } = await db.transaction((tx) =>
        refundReservation(tx, userId, reservationId, refundCredits, { purpose: API_PURPOSE }),
      );
      return {
        success: true as const,
        remainingCredits: balance,
        refundedCredits: refunded,
        message:
          refunded === 0
            ? 'Nothing left to refund on this reservation'
            : `${refunded} credit${refunded === 1 ? '' : 's'} refunded`,
      };
    },
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;
