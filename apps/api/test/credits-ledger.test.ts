import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger } from '../src/db/tables/credit-ledger.ts';
import { adjustCredits, refundReservation, reserveCredits } from '../src/modules/credits/service.ts';
import { balanceOf, createUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.cleanup());

const deduct = (auth: Record<string, string>, body: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/v1/credits/deduct', headers: auth, payload: body as object });
const refund = (auth: Record<string, string>, body: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/v1/credits/refund', headers: auth, payload: body as object });

describe('GET /credits/remaining', () => {
  it('answers the balance of the signed-in user only', async () => {
    const user = await createUser(t, 25);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/credits/remaining', headers: user.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, imageCredits: 25 });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/credits/remaining' })).statusCode).toBe(401);
  });
});

describe('POST /credits/deduct and /credits/refund', () => {
  it('deducts, names a reservation, and refunds at most what that reservation took', async () => {
    const user = await createUser(t, 20);
    const d = await deduct(user.auth, { usedCredits: 5 });
    expect(d.statusCode).toBe(200);
    const { reservationId, remainingCredits, success, message } = d.json();
    expect({ success, remainingCredits }).toEqual({ success: true, remainingCredits: 15 });
    expect(message).toMatch(/5 credits deducted/);

    const r1 = await refund(user.auth, { refundCredits: 2, reservationId });
    expect(r1.json()).toMatchObject({ success: true, refundedCredits: 2, remainingCredits: 17 });
    // Asking for more than is left gives back only the rest.
    const r2 = await refund(user.auth, { refundCredits: 10, reservationId });
    expect(r2.json()).toMatchObject({ success: true, refundedCredits: 3, remainingCredits: 20 });
    // An exhausted reservation refunds nothing: a retried refund is harmless.
    const r3 = await refund(user.auth, { refundCredits: 1, reservationId });
    expect(r3.json()).toMatchObject({ success: true, refundedCredits: 0, remainingCredits: 20 });
    expect(await balanceOf(t, user)).toBe(20);
  });

  it('refuses a deduct beyond the balance with 402 Insufficient credits and changes nothing', async () => {
    const user = await createUser(t, 3);
    const res = await deduct(user.auth, { usedCredits: 4 });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: 'Insufficient credits', code: 'INSUFFICIENT_CREDITS' });
    expect(await balanceOf(t, user)).toBe(3);
  });

  it('rejects amounts that are not positive whole numbers', async () => {
    const user = await createUser(t, 10);
    for (const usedCredits of [0, -5, 1.5, '3', null]) {
      expect((await deduct(user.auth, { usedCredits })).statusCode).toBe(400);
    }
    expect((await refund(user.auth, { refundCredits: -1, reservationId: 'x' })).statusCode).toBe(400);
    expect(await balanceOf(t, user)).toBe(10);
  });

  it('a refund needs a reservation of the same user: none, unknown or another user’s changes nothing', async () => {
    const owner = await createUser(t, 10);
    const thief = await createUser(t, 0);
    const { reservationId } = (await deduct(owner.auth, { usedCredits: 4 })).json();

    const missing = await refund(thief.auth, { refundCredits: 4 });
    expect(missing.statusCode).toBe(400);
    const foreign = await refund(thief.auth, { refundCredits: 4, reservationId });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('NOT_FOUND');
    const unknown = await refund(thief.auth, {
      refundCredits: 4,
      reservationId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    expect((await refund(thief.auth, { refundCredits: 4, reservationId: 'not-a-uuid' })).statusCode).toBe(
      404,
    );

    expect(await balanceOf(t, thief)).toBe(0);
    expect(await balanceOf(t, owner)).toBe(6);
    // The owner can still get them back.
    expect((await refund(owner.auth, { refundCredits: 4, reservationId })).json().remainingCredits).toBe(10);
  });

  it('ignores a userId in the body: the token decides whose credits move', async () => {
    const a = await createUser(t, 10);
    const b = await createUser(t, 10);
    const res = await deduct(a.auth, { usedCredits: 2, userId: b.id });
    expect(res.statusCode).toBe(200);
    expect(await balanceOf(t, a)).toBe(8);
    expect(await balanceOf(t, b)).toBe(10);
  });

  it('100 simultaneous deducts of 1 on a balance of 50: exactly 50 succeed, 50 are refused, balance 0', async () => {
    const user = await createUser(t, 50);
    const results = await Promise.all(
      Array.from({ length: 100 }, () => deduct(user.auth, { usedCredits: 1 })),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode === 402);
    expect(ok).toHaveLength(50);
    expect(refused).toHaveLength(50);
    for (const r of refused)
      expect(r.json()).toEqual({ message: 'Insufficient credits', code: 'INSUFFICIENT_CREDITS' });
    expect(new Set(ok.map((r) => r.json().reservationId)).size).toBe(50);
    expect(await balanceOf(t, user)).toBe(0);
    const ledger = await t.app.deps.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, user.id));
    expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(0);
    expect(Math.min(...ledger.map((row) => row.balanceAfter))).toBe(0);
  });
});

describe('credits service for server-side features', () => {
  it('reserves and refunds inside the caller’s transaction, rolling back with it', async () => {
    const user = await createUser(t, 30);
    const db = t.app.deps.database.db;
    await expect(
      db.transaction(async (tx) => {
        await reserveCredits(tx, user.id, 25, 'image-edit');
        throw new Error('the edit failed before commit');
      }),
    ).rejects.toThrow('the edit failed');
    expect(await balanceOf(t, user)).toBe(30);

    const { reservationId, balance } = await db.transaction((tx) =>
      reserveCredits(tx, user.id, 25, 'image-edit'),
    );
    expect(balance).toBe(5);
    const back = await db.transaction((tx) => refundReservation(tx, user.id, reservationId, 25));
    expect(back).toEqual({ refunded: 25, balance: 30 });
  });

  it('adjusts once per reference and never below zero', async () => {
    const user = await createUser(t, 5);
    const db = t.app.deps.database.db;
    expect(await db.transaction((tx) => adjustCredits(tx, user.id, 7, 'support-ticket-1'))).toEqual({
      applied: true,
      balance: 12,
    });
    expect((await db.transaction((tx) => adjustCredits(tx, user.id, 7, 'support-ticket-1'))).applied).toBe(
      false,
    );
    await expect(
      db.transaction((tx) => adjustCredits(tx, user.id, -13, 'support-ticket-2')),
    ).rejects.toMatchObject({
      statusCode: 402,
    });
    expect(await balanceOf(t, user)).toBe(12);
  });
});
