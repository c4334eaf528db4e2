import type { DbExecutor, Transaction } from '../../db/client.ts';
import {
  addToCreditBalance,
  findCreditBalance,
  insertLedgerEntry,
  lockCreditBalance,
  sumCreditsSpent,
} from './repository.ts';

/** Why credits moved. The billing issue adds 'purchase', 'deduct', 'refund'. */
export type CreditReason = 'grant';

/** The reference of the free credits every account gets once (SPEC.md §9). */
export const SIGNUP_BONUS_REFERENCE = 'signup-bonus';

export type CreditChange = { applied: boolean; balance: number };

/**
 * Gives `amount` credits to a user, inside the caller's transaction (STYLE.md habit 4): a ledger row
 * and the balance change commit together. `reference` is unique per user, so granting the same thing
 * twice (a replayed confirmation link, a retried job) leaves the balance as it was and answers
 * `applied: false`.
 */
export async function grantCredits(
  tx: Transaction,
  userId: string,
  amount: number,
  reason: CreditReason,
  reference: string,
): Promise<CreditChange> {
  if (!Number.isInteger(amount) || amount <= 0)
    throw new Error(`grantCredits needs a positive whole amount, got ${amount}`);
  const current = await lockCreditBalance(tx, userId);
  if (current === null) throw new Error(`grantCredits: no user ${userId}`);
  const inserted = await insertLedgerEntry(tx, {
    userId,
    delta: amount,
    reason,
    reference,
    balanceAfter: current + amount,
  });
  if (!inserted) return { applied: false, balance: current };
  const balance = await addToCreditBalance(tx, userId, amount);
  return { applied: true, balance: balance ?? current + amount };
}

export function getCreditBalance(db: DbExecutor, userId: string): Promise<number | null> {
  return findCreditBalance(db, userId);
}

export function getCreditsSpent(db: DbExecutor, userId: string): Promise<number> {
  return sumCreditsSpent(db, userId);
}
