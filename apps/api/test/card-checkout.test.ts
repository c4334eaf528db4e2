import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productForAmount } from '../src/modules/billing/card-service.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.cleanup());

const cardCheckout = (user: TestUser, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/v1/stripe/checkout', headers: user.auth, payload });
const confirm = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/v1/payments/sandbox/confirm', payload });
const card = (cardNumber: string) => ({ cardNumber, expiry: '12/40', cvc: '123' });

describe('legacy card form: POST /stripe/checkout then the sandbox confirm', () => {
  it('reads the product from the plan and the amount; our prices decide', () => {
    expect(productForAmount('growth', 19)?.product.id).toBe('growth-monthly');
    expect(productForAmount('Growth', 189)?.product.id).toBe('growth-yearly');
    expect(productForAmount('pro-yearly', 489)?.product.id).toBe('pro-yearly');
    expect(productForAmount('credit-pack', 9)).toMatchObject({ quantity: 3 });
    expect(productForAmount('growth', 1)).toBeNull();
    expect(productForAmount('credit-pack', 4)).toBeNull();
  });

  it('pays a 2-pack with 4242…: credits, history, and /success can verify it', async () => {
    const user = await createUser(t);
    const res = await cardCheckout(user, { amount: 6, subscriptionPlan: 'credit-pack' });
    expect(res.statusCode).toBe(200);
    const { clientSecret } = res.json();
    const paid = await confirm({ clientSecret, ...card('4242 4242 4242 4242') });
    expect(paid.statusCode).toBe(200);
    const { paymentIntentId } = paid.json();
    expect(await balanceOf(t, user)).toBe(100);
    const verify = await t.app.inject({
      method: 'POST',
      url: `/api/v1/stripe/verify-payment/${paymentIntentId}`,
      headers: user.auth,
    });
    expect(verify.json()).toMatchObject({
      success: true,
      creditsAdded: 100,
      title: 'Credit Pack × 2 (one-time)',
    });
    // The same client secret cannot pay twice.
    expect((await confirm({ clientSecret, ...card('4242424242424242') })).statusCode).toBe(409);
    expect(await balanceOf(t, user)).toBe(100);
  });

  it('a declined card answers 402 with the provider’s message and changes nothing', async () => {
    const user = await createUser(t, 25);
    const { clientSecret } = (await cardCheckout(user, { amount: 5, subscriptionPlan: 'starter' })).json();
    const declined = await confirm({ clientSecret, ...card('4000 0000 0000 0002') });
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({ message: 'Your card was declined.', code: 'PAYMENT_DECLINED' });
    expect(await balanceOf(t, user)).toBe(25);
    // It can still be paid with a good card.
    expect((await confirm({ clientSecret, ...card('4242424242424242') })).statusCode).toBe(200);
    expect(await balanceOf(t, user)).toBe(125);
  });

  it('refuses a forged client secret, a wrong amount, and answers errors with `error`', async () => {
    const user = await createUser(t);
    expect(
      (
        await confirm({
          clientSecret: '00000000-0000-4000-8000-000000000000_secret_forged',
          ...card('4242424242424242'),
        })
      ).statusCode,
    ).toBe(400);
    const wrong = await cardCheckout(user, { amount: 1, subscriptionPlan: 'growth' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: "The amount does not match the plan's price." });
    expect(await balanceOf(t, user)).toBe(0);
  });

  it('without STRIPE_SECRET_KEY a Stripe-signed webhook is refused with 401', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/payments',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
      payload: JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded', data: { object: {} } }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('findCurrentPlanLabel', () => {
  it('reads Trial, then the plan bought', async () => {
    const { findCurrentPlanLabel } = await import('../src/modules/billing/service.ts');
    const user = await createUser(t);
    const db = t.app.deps.database.db;
    expect(await findCurrentPlanLabel(db, user.id)).toBe('Trial');
    const { clientSecret } = (await cardCheckout(user, { amount: 49, subscriptionPlan: 'starter' })).json();
    await confirm({ clientSecret, ...card('4242424242424242') });
    expect(await findCurrentPlanLabel(db, user.id)).toBe('Starter Yearly');
  });
});
