import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger } from '../src/db/tables/credit-ledger.ts';
import { payments } from '../src/db/tables/payments.ts';
import { balanceOf, createUser, postWebhook } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.cleanup());

const PARALLEL = 20;
const ROUNDS = 5;

describe('one sandbox checkout pays once, whatever the concurrency', () => {
  it(`${PARALLEL} parallel confirms of one client secret make one payment and one credit grant (${ROUNDS} rounds)`, async () => {
    const db = t.app.deps.database.db;
    for (let round = 0; round < ROUNDS; round++) {
      const user = await createUser(t);
      const checkout = await t.app.inject({
        method: 'POST',
        url: '/api/v1/stripe/checkout',
        headers: user.auth,
        payload: { amount: 6, subscriptionPlan: 'credit-pack' },
      });
      const { clientSecret } = checkout.json();
      const answers = await Promise.all(
        Array.from({ length: PARALLEL }, () =>
          t.app.inject({
            method: 'POST',
            url: '/api/v1/payments/sandbox/confirm',
            payload: { clientSecret, cardNumber: '4242424242424242', expiry: '12/40', cvc: '123' },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      // The others are told the checkout is paid or being paid, never a 5xx.
      expect(statuses.filter((status) => status === 409)).toHaveLength(PARALLEL - 1);
      expect(await db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);
      const grants = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
      expect(grants).toHaveLength(1);
      expect(await balanceOf(t, user)).toBe(100);
    }
  });

  it('a second payment reported for a paid checkout is acknowledged and credits nothing', async () => {
    const user = await createUser(t);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/create-checkout-session',
      headers: user.auth,
      payload: { productId: 'credit-pack', quantity: 2 },
    });
    const { checkoutId } = started.json();
    const payment = (paymentId: string) => ({
      payment_id: paymentId,
      status: 'succeeded',
      total_amount: 600,
      currency: 'USD',
      customer: { email: user.email },
      metadata: { checkout_id: checkoutId },
      product_cart: [{ product_id: 'credit-pack', quantity: 2 }],
    });
    const [first, second] = await Promise.all([
      postWebhook(t, 'payment.succeeded', payment('pay_first')),
      postWebhook(t, 'payment.succeeded', payment('pay_second')),
    ]);
    expect([first.res.statusCode, second.res.statusCode]).toEqual([200, 200]);
    expect(await balanceOf(t, user)).toBe(100);
    const rows = await t.app.deps.database.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(rows).toHaveLength(1);
  });
});
