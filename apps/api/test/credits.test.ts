import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger } from '../src/db/tables/credit-ledger.ts';
import { users } from '../src/db/tables/users.ts';
import { getCreditBalance, grantCredits, SIGNUP_BONUS_REFERENCE } from '../src/modules/credits/service.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;
let userId = '';

beforeAll(async () => {
  t = await buildTestApp();
  const [user] = await t.app.deps.database.db
    .insert(users)
    .values({ email: 'ledger@example.com', username: 'ledger', firstName: 'L', lastName: 'E' })
    .returning();
  userId = user?.id ?? '';
});
afterAll(() => t.cleanup());

const db = () => t.app.deps.database.db;

describe('grantCredits', () => {
  it('writes a ledger row and the balance together, once per reference', async () => {
    const first = await db().transaction((tx) =>
      grantCredits(tx, userId, 25, 'grant', SIGNUP_BONUS_REFERENCE),
    );
    expect(first).toEqual({ applied: true, balance: 25 });
    const replay = await db().transaction((tx) =>
      grantCredits(tx, userId, 25, 'grant', SIGNUP_BONUS_REFERENCE),
    );
    expect(replay).toEqual({ applied: false, balance: 25 });
    const other = await db().transaction((tx) => grantCredits(tx, userId, 5, 'grant', 'goodwill-1'));
    expect(other).toEqual({ applied: true, balance: 30 });
    expect(await getCreditBalance(db(), userId)).toBe(30);
    const ledger = await db().select().from(creditLedger).where(eq(creditLedger.userId, userId));
    expect(ledger.map(({ delta, reference, balanceAfter }) => ({ delta, reference, balanceAfter }))).toEqual([
      { delta: 25, reference: 'signup-bonus', balanceAfter: 25 },
      { delta: 5, reference: 'goodwill-1', balanceAfter: 30 },
    ]);
  });

  it('rolls back with the caller’s transaction', async () => {
    await expect(
      db().transaction(async (tx) => {
        await grantCredits(tx, userId, 10, 'grant', 'rolled-back');
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await getCreditBalance(db(), userId)).toBe(30);
  });

  it('grants the same reference once even when two transactions race', async () => {
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => db().transaction((tx) => grantCredits(tx, userId, 7, 'grant', 'race-1'))),
    );
    const applied = results.filter((r) => r.status === 'fulfilled' && r.value.applied);
    expect(applied).toHaveLength(1);
    expect(await getCreditBalance(db(), userId)).toBe(37);
  });

  it('refuses non-positive amounts, and the database refuses a negative balance', async () => {
    await expect(db().transaction((tx) => grantCredits(tx, userId, 0, 'grant', 'zero'))).rejects.toThrow(
      /positive/,
    );
    await expect(
      db()
        .update(users)
        .set({ imageCredits: sql`${users.imageCredits} - 1000` })
        .where(eq(users.id, userId)),
    ).rejects.toThrow();
    expect(await getCreditBalance(db(), userId)).toBe(37);
  });
});
