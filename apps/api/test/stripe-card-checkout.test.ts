import { findBillingProduct } from '@altwise/contracts/billing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger } from '../src/db/tables/credit-ledger.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { type FakeStripe, startFakeStripe } from './fake-stripe.ts';
import { buildTestApp, type TestApp } from './helper.ts';

const SECRET_KEY = 'sk_test_altwise_fake';
const WEBHOOK_SECRET = 'whsec_altwise_test_signing_secret';

let t: TestApp;
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await buildTestApp({
    env: {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.apiBase,
    },
  });
});
afterAll(async () => {
  await t?.cleanup();
  await stripe?.close();
});

const post = (url: string, user: TestUser, payload?: object) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: user.auth, payload });
const checkout = (user: TestUser, payload: object) => post('/stripe/checkout', user, payload);
const verify = (user: TestUser, id: string) => post(`/stripe/verify-payment/${id}`, user);
const intentOf = (clientSecret: string) => clientSecret.split('_secret_')[0] ?? '';
const webhook = (payload: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/webhooks/payments', headers, payload });
const ledgerRows = (user: TestUser) =>
  t.app.deps.database.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
const history = async (user: TestUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/users/billing-history', headers: user.auth })).json()
    .history;

async function paidIntent(user: TestUser, payload: object) {
  const res = await checkout(user, payload);
  expect(res.statusCode).toBe(200);
  return stripe.settle(intentOf(res.json().clientSecret), 'succeeded');
}

describe('legacy card routes through Stripe (STRIPE_SECRET_KEY set)', () => {
  it('POST /stripe/checkout creates a PaymentIntent for the catalogue price and answers its client secret', async () => {
    const user = await createUser(t);
    const before = stripe.requests.length;
    const res = await checkout(user, { amount: 6, subscriptionPlan: 'credit-pack' });
    expect(res.statusCode).toBe(200);
    const [request] = stripe.requests.slice(before);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/payment_intents' });
    expect(request?.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(request?.headers['idempotency-key']).toMatch(/^altwise-checkout-/);
    expect(request?.body).toMatchObject({
      amount: '600',
      currency: 'usd',
      receipt_email: user.email,
      metadata: { user_id: user.id, product_id: 'credit-pack', quantity: '2', credits: '100' },
    });
    const intent = stripe.intents.get(intentOf(res.json().clientSecret));
    expect(res.json()).toEqual({ clientSecret: intent?.client_secret });

    const plan = await checkout(user, { amount: 189, subscriptionPlan: 'Growth' });
    expect(plan.statusCode).toBe(200);
    expect(stripe.requests.at(-1)?.body).toMatchObject({
      amount: '18900',
      metadata: {
        product_id: 'growth-yearly',
        quantity: '1',
        credits: String(findBillingProduct('growth-yearly')?.credits),
      },
    });
  });

  it('refuses an amount or plan the catalogue does not know, without asking Stripe', async () => {
    const user = await createUser(t);
    const before = stripe.requests.length;
    for (const payload of [
      { amount: 1, subscriptionPlan: 'growth' },
      { amount: 4, subscriptionPlan: 'credit-pack' },
      { amount: 19, subscriptionPlan: 'unicorn' },
    ]) {
      const res = await checkout(user, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: "The amount does not match the plan's price." });
    }
    expect(stripe.requests.length).toBe(before);
  });

  it('verify-payment asks Stripe, credits a succeeded payment once, and reports it', async () => {
    const user = await createUser(t, 25);
    const res = await checkout(user, { amount: 3, subscriptionPlan: 'credit-pack' });
    const id = intentOf(res.json().clientSecret);
    // Not paid yet: pending, nothing credited.
    expect((await verify(user, id)).json()).toMatchObject({ success: false, status: 'pending' });
    expect(await balanceOf(t, user)).toBe(25);

    stripe.settle(id, 'succeeded');
    const first = await verify(user, id);
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/payment_intents/${id}` });
    expect(first.json()).toMatchObject({
      success: true,
      status: 'succeeded',
      transactionId: id,
      productId: 'credit-pack',
      creditsAdded: 50,
      amount: 3,
      title: 'Credit Pack × 1 (one-time)',
    });
    const second = await verify(user, id);
    expect(second.json()).toMatchObject({ success: true, creditsAdded: 50 });
    expect(await balanceOf(t, user)).toBe(75);
    expect((await ledgerRows(user)).filter((row) => row.reason === 'purchase')).toHaveLength(1);
    expect(await history(user)).toMatchObject([{ transactionId: id, status: 'succeeded', creditsAdded: 50 }]);
  });

  it("another user's payment is refused: nothing credited, nothing revealed", async () => {
    const owner = await createUser(t);
    const intruder = await createUser(t);
    const intent = await paidIntent(owner, { amount: 3, subscriptionPlan: 'credit-pack' });
    const res = await verify(intruder, intent.id);
    expect(res.json()).toMatchObject({ success: false, status: 'pending', productId: '', creditsAdded: 0 });
    expect(await balanceOf(t, intruder)).toBe(0);
    expect(await balanceOf(t, owner)).toBe(0);
    expect(await history(intruder)).toEqual([]);
    // The owner still gets it.
    expect((await verify(owner, intent.id)).json()).toMatchObject({ success: true, creditsAdded: 50 });
    expect(await balanceOf(t, owner)).toBe(50);
  });

  it('an unknown PaymentIntent is pending, and a failed one reports failed', async () => {
    const user = await createUser(t);
    expect((await verify(user, 'pi_doesnotexist')).json()).toMatchObject({
      success: false,
      status: 'pending',
    });
    const res = await checkout(user, { amount: 3, subscriptionPlan: 'credit-pack' });
    const id = intentOf(res.json().clientSecret);
    stripe.settle(id, 'declined');
    expect((await verify(user, id)).json()).toMatchObject({ success: false, status: 'failed' });
    expect(await balanceOf(t, user)).toBe(0);
  });

  it('a signed payment_intent.succeeded credits once; replays and a verify afterwards change nothing', async () => {
    const user = await createUser(t);
    const intent = await paidIntent(user, { amount: 9, subscriptionPlan: 'credit-pack' });
    const event = stripe.signedEvent('payment_intent.succeeded', intent, WEBHOOK_SECRET);
    const first = await webhook(event.body, event.headers);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect(await balanceOf(t, user)).toBe(150);

    const replay = await webhook(event.body, event.headers);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    // The same payment under another event id, and /success asking after it: still once.
    const again = stripe.signedEvent('payment_intent.succeeded', intent, WEBHOOK_SECRET);
    expect((await webhook(again.body, again.headers)).json()).toEqual({ received: true, duplicate: false });
    expect((await verify(user, intent.id)).json()).toMatchObject({ success: true, creditsAdded: 150 });
    expect(await balanceOf(t, user)).toBe(150);
    expect(await history(user)).toMatchObject([
      { transactionId: intent.id, title: 'Credit Pack × 3 (one-time)', creditsAdded: 150 },
    ]);
  });

  it('a wrong or missing signature gets 401 and changes nothing', async () => {
    const user = await createUser(t);
    const intent = await paidIntent(user, { amount: 3, subscriptionPlan: 'credit-pack' });
    const forged = stripe.signedEvent('payment_intent.succeeded', intent, 'whsec_someone_else');
    const wrong = await webhook(forged.body, forged.headers);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    // A body changed after signing.
    const signed = stripe.signedEvent('payment_intent.succeeded', intent, WEBHOOK_SECRET);
    const tampered = await webhook(signed.body.replace('"amount":300', '"amount":30000'), signed.headers);
    expect(tampered.statusCode).toBe(401);
    const unsigned = await webhook(signed.body, { 'content-type': 'application/json' });
    expect(unsigned.statusCode).toBe(401);
    expect(await balanceOf(t, user)).toBe(0);
    expect(await history(user)).toEqual([]);
    // The genuine event is still applied afterwards: the refused ones were not recorded as handled.
    expect((await webhook(signed.body, signed.headers)).statusCode).toBe(200);
    expect(await balanceOf(t, user)).toBe(50);
  });

  it('a plan bought by card is the current plan for one paid period; a failed payment is recorded, not credited', async () => {
    const user = await createUser(t);
    const intent = await paidIntent(user, { amount: 19, subscriptionPlan: 'growth' });
    const event = stripe.signedEvent('payment_intent.succeeded', intent, WEBHOOK_SECRET);
    expect((await webhook(event.body, event.headers)).statusCode).toBe(200);
    expect(await balanceOf(t, user)).toBe(500);
    const details = (
      await t.app.inject({ method: 'GET', url: '/api/v1/users/subscription-details', headers: user.auth })
    ).json().subscription;
    expect(details).toMatchObject({
      current_plan: 'Growth Monthly',
      payment_status: 'active',
      cancel_at_period_end: true,
      next_renewal_date: null,
    });

    const buyer = await createUser(t);
    const res = await checkout(buyer, { amount: 3, subscriptionPlan: 'credit-pack' });
    const declined = stripe.settle(intentOf(res.json().clientSecret), 'declined');
    const failed = stripe.signedEvent('payment_intent.payment_failed', declined, WEBHOOK_SECRET);
    expect((await webhook(failed.body, failed.headers)).statusCode).toBe(200);
    expect(await balanceOf(t, buyer)).toBe(0);
    expect(await history(buyer)).toMatchObject([
      { transactionId: declined.id, status: 'failed', creditsAdded: 0 },
    ]);
  });

  it('a Stripe event for no checkout of ours is acknowledged and credits nobody', async () => {
    const user = await createUser(t);
    const intent = await paidIntent(user, { amount: 3, subscriptionPlan: 'credit-pack' });
    const foreign = { ...intent, id: 'pi_otherintegration', metadata: {} };
    const event = stripe.signedEvent('payment_intent.succeeded', foreign, WEBHOOK_SECRET);
    expect((await webhook(event.body, event.headers)).statusCode).toBe(200);
    // Our metadata with an amount that is not the catalogue's price: not credited either.
    const edited = { ...intent, amount: 1, amount_received: 1 };
    const cheap = stripe.signedEvent('payment_intent.succeeded', edited, WEBHOOK_SECRET);
    expect((await webhook(cheap.body, cheap.headers)).statusCode).toBe(200);
    expect(await balanceOf(t, user)).toBe(0);
  });
});
