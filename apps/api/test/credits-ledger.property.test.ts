import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger } from '../src/db/tables/credit-ledger.ts';
import { creditReservations } from '../src/db/tables/credit-reservations.ts';
import { users } from '../src/db/tables/users.ts';
import { AppError } from '../src/errors.ts';
import {
  grantCredits,
  recoverAbandonedReservations,
  refundReservation,
  refundReservationInFull,
  reserveCredits,
  settleReservation,
} from '../src/modules/credits/service.ts';
import { createUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * The ledger's invariants under any interleaving of the paid-work primitive (ADR 024): reserve,
 * settle, refund in full, refund a part (also the same part twice), purchase (also a replayed one)
 * and the recovery job, many of them at once. Whatever happens, the balance is the sum of the
 * ledger and never below zero, every reservation has got back exactly what its refund rows say, and
 * each reservation ends at most once.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.cleanup());

type Op =
  | { kind: 'reserve'; amount: number; leased: boolean }
  | { kind: 'settle'; pick: number }
  | { kind: 'refund'; pick: number }
  | { kind: 'refundPart'; pick: number; amount: number; part: number }
  | { kind: 'purchase'; amount: number; payment: number }
  | { kind: 'recover' };

const pick = fc.nat(40);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('reserve' as const),
    amount: fc.integer({ min: 1, max: 6 }),
    leased: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('settle' as const), pick }),
  fc.record({ kind: fc.constant('refund' as const), pick }),
  fc.record({
    kind: fc.constant('refundPart' as const),
    pick,
    amount: fc.integer({ min: 1, max: 3 }),
    part: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({
    kind: fc.constant('purchase' as const),
    amount: fc.integer({ min: 1, max: 10 }),
    payment: fc.integer({ min: 0, max: 3 }),
  }),
  fc.constant({ kind: 'recover' as const }),
);
/** Steps run one after another; the operations within a step run at the same time. */
const scenario = fc.record({
  start: fc.integer({ min: 0, max: 8 }),
  steps: fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 10 }),
});

describe('the credit ledger under any interleaving of paid work', () => {
  it('keeps balance = sum of the ledger, never below zero, and ends each reservation at most once', async () => {
    const db = t.app.deps.database.db;
    const afterEveryLease = () => new Date(Date.now() + 3_600_000);

    await fc.assert(
      fc.asyncProperty(scenario, async ({ start, steps }) => {
        const user = await createUser(t, start);
        const run = randomUUID().slice(0, 8);
        const reservations: string[] = [];
        /** How many calls ended each reservation (settle or full refund answering true). */
        const endings = new Map<string, number>();
        const ended = (id: string) => endings.set(id, (endings.get(id) ?? 0) + 1);
        const chosen = (index: number) =>
          reservations.length === 0 ? null : reservations[index % reservations.length];

        const perform = async (step: Op) => {
          switch (step.kind) {
            case 'reserve': {
              try {
                const { reservationId } = await db.transaction((tx) =>
                  reserveCredits(tx, user.id, step.amount, step.leased ? 'studio:test' : 'api', {
                    leaseSeconds: step.leased ? 60 : null,
                  }),
                );
                reservations.push(reservationId);
              } catch (error) {
                // The only refusal allowed: too few credits, with nothing written.
                expect(error).toBeInstanceOf(AppError);
                expect((error as AppError).statusCode).toBe(402);
              }
              return;
            }
            case 'settle': {
              const id = chosen(step.pick);
              if (id && (await settleReservation(db, id))) ended(id);
              return;
            }
            case 'refund': {
              const id = chosen(step.pick);
              if (id && (await db.transaction((tx) => refundReservationInFull(tx, id, 'failed'))).ended)
                ended(id);
              return;
            }
            case 'refundPart': {
              const id = chosen(step.pick);
              if (id)
                await db.transaction((tx) =>
                  refundReservation(tx, user.id, id, step.amount, { part: `p${step.part}` }),
                );
              return;
            }
            case 'purchase': {
              // A replayed payment (same reference) must credit once.
              await db.transaction((tx) =>
                grantCredits(tx, user.id, step.amount, 'purchase', `payment:${run}:${step.payment}`),
              );
              return;
            }
            case 'recover': {
              // Other runs' users may be recovered too; endings are counted from the rows below.
              await recoverAbandonedReservations(db, { now: afterEveryLease() });
              return;
            }
          }
        };

        for (const step of steps) await Promise.all(step.map(perform));
        // The process "stops" here: two recovery runs at once take back every leased work still open.
        await Promise.all([perform({ kind: 'recover' }), perform({ kind: 'recover' })]);

        const [row] = await db
          .select({ balance: users.imageCredits })
          .from(users)
          .where(eq(users.id, user.id));
        const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
        const balance = row?.balance ?? -1;
        expect(balance).toBe(ledger.reduce((sum, entry) => sum + entry.delta, 0));
        expect(balance).toBeGreaterThanOrEqual(0);
        for (const entry of ledger) expect(entry.balanceAfter).toBeGreaterThanOrEqual(0);

        const rows = await db.select().from(creditReservations).where(eq(creditReservations.userId, user.id));
        expect(rows.map((reservation) => reservation.id).sort()).toEqual([...reservations].sort());
        for (const reservation of rows) {
          const spend = ledger.filter((entry) => entry.reference === `reservation:${reservation.id}`);
          expect(spend.map((entry) => entry.delta)).toEqual([-reservation.amount]);
          const refunds = ledger.filter((entry) => entry.reference.startsWith(`refund:${reservation.id}`));
          const givenBack = refunds.reduce((sum, entry) => sum + entry.delta, 0);
          // Exactly what the reservation says came back, never more than it took.
          expect(givenBack).toBe(reservation.refunded);
          expect(reservation.refunded).toBeLessThanOrEqual(reservation.amount);
          if (reservation.status === 'refunded') expect(reservation.refunded).toBe(reservation.amount);
          // Ended at most once, by whichever call came first (the recovery job's endings are not
          // counted in `endings`, so an ended reservation was ended by a call or by recovery).
          const calls = endings.get(reservation.id) ?? 0;
          expect(calls).toBeLessThanOrEqual(1);
          if (reservation.status === 'open') expect(calls).toBe(0);
          if (reservation.status === 'settled') expect(calls).toBe(1);
          // After the final recovery, no leased work is left open.
          if (reservation.leaseExpiresAt !== null) expect(reservation.status).not.toBe('open');
        }
      }),
      { seed: 20261123, numRuns: 150, endOnFailure: true },
    );
  }, 60_000);
});
