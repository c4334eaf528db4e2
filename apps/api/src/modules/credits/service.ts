import { randomUUID } from 'node:crypto';
import { messages } from '@altwise/contracts/messages';
import type { Database, DbExecutor, Transaction } from '../../db/client.ts';
import { insufficientCredits, notFound } from '../../errors.ts';
import {
  addToCreditBalance,
  addToReservationRefunded,
  findCreditBalance,
  insertLedgerEntry,
  insertReservation,
  lockCreditBalance,
  lockReservation,
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

/** The reference of the free credits every account gets once (SPEC.md §9). */
export const SIGNUP_BONUS_REFERENCE = 'signup-bonus';

export type CreditChange = { applied: boolean; balance: number };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function assertPositiveWhole(name: string, amount: number) {
  if (!Number.isInteger(amount) || amount <= 0)
    throw new Error(`${name} needs a positive whole amount, got ${amount}`);
}

/**
 * Adds `delta` (either sign) to a user's balance with a ledger row, inside the caller's transaction
 * (STYLE.md habit 4). `reference` is unique per user, so applying the same thing twice (a replayed
 * webhook, a retried job) leaves the balance as it was and answers `applied: false`. A change that
 * would take the balance below zero throws 402 INSUFFICIENT_CREDITS and writes nothing.
 */
async function changeCredits(
  tx: Transaction,
  userId: string,
  delta: number,
  reason: CreditReason,
  reference: string,
): Promise<CreditChange> {
  // Locking the user's row first serialises every credit change of this user.
  const current = await lockCreditBalance(tx, userId);
  if (current === null) throw new Error(`credits: no user ${userId}`);
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

/**
 * Takes `amount` credits for one piece of work and returns the reservation a refund must name.
 * Throws 402 INSUFFICIENT_CREDITS ('Insufficient credits') when the balance is short; nothing is
 * written then. Call it inside the transaction of the work it pays for, so both commit or neither.
 */
export async function reserveCredits(
  tx: Transaction,
  userId: string,
  amount: number,
  purpose: string,
): Promise<Reservation> {
  assertPositiveWhole('reserveCredits', amount);
  const current = await lockCreditBalance(tx, userId);
  if (current === null) throw new Error(`reserveCredits: no user ${userId}`);
  if (current < amount) throw insufficientCredits(messages.credits.insufficient);
  const reservationId = await insertReservation(tx, { userId, amount, purpose });
  const change = await changeCredits(tx, userId, -amount, 'spend', `reservation:${reservationId}`);
  return { reservationId, balance: change.balance };
}

export type Refund = { refunded: number; balance: number };

/**
 * Gives back up to `amount` of what the user's reservation took and has not got back yet (more is
 * clamped; an exhausted reservation refunds 0). A reservation that is unknown or another user's
 * answers 404 and changes nothing.
 */
export async function refundReservation(
  tx: Transaction,
  userId: string,
  reservationId: string,
  amount: number,
): Promise<Refund> {
  assertPositiveWhole('refundReservation', amount);
  const reservationMissing = () => notFound('No such credit reservation for this account.');
  if (!uuidPattern.test(reservationId)) throw reservationMissing();
  // Same lock order as reserveCredits (user row, then reservation): no deadlock between the two.
  const current = await lockCreditBalance(tx, userId);
  if (current === null) throw new Error(`refundReservation: no user ${userId}`);
  const reservation = await lockReservation(tx, userId, reservationId);
  if (!reservation) throw reservationMissing();
  const refundable = Math.min(amount, reservation.amount - reservation.refunded);
  if (refundable <= 0) return { refunded: 0, balance: current };
  await addToReservationRefunded(tx, reservationId, refundable);
  const change = await changeCredits(
    tx,
    userId,
    refundable,
    'refund',
    `refund:${reservationId}:${randomUUID()}`,
  );
  return { refunded: refundable, balance: change.balance };
}

export function getCreditBalance(db: DbExecutor, userId: string): Promise<number | null> {
  return findCreditBalance(db, userId);
}

export function getCreditsSpent(db: DbExecutor, userId: string): Promise<number> {
  return sumCreditsSpent(db, userId);
}

/** The HTTP face of the ledger (POST /credits/deduct and /refund), each call its own transaction. */
export function createCreditsService(db: Database) {
  return {
    async remaining(userId: string) {
      return { success: true as const, imageCredits: (await getCreditBalance(db, userId)) ?? 0 };
    },
    async deduct(userId: string, usedCredits: number) {
      const { reservationId, balance } = await db.transaction((tx) =>
        reserveCredits(tx, userId, usedCredits, 'api'),
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
        refundReservation(tx, userId, reservationId, refundCredits),
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
