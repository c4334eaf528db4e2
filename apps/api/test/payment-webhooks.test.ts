import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../src/modules/billing/standard-webhooks.ts';
import { resolveSandboxWebhookSecret } from '../src/modules/billing/webhook-secret.ts';
import { balanceOf, createUser, postWebhook, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.cleanup());

const get = (url: string, user: TestUser) =>
  t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: user.auth });
const history = async (user: TestUser, page = 1) =>
  (await get(`/users/billing-history?page=${page}`, user)).json();
const details = async (user: TestUser) =>
  (await get('/users/subscription-details', user)).json().subscription;

async function startCheckout(user: TestUser, productId: string, quantity?: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/create-checkout-session',
    headers: user.auth,
    payload: { productId, ...(quantity ? { quantity } : {}) },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { checkoutId: string; checkoutUrl: string };
}

const paymentData = (over: Record<string, unknown>) => ({
  payload_type: 'Payment',
  payment_id: `pay_${randomUUID().slice(0, 8)}`,
  subscription_id: null,
  status: 'succeeded',
  total_amount: 900,
  currency: 'USD',
  customer: { email: 'nobody@example.com' },
  metadata: {},
  product_cart: [{ product_id: 'credit-pack', quantity: 3 }],
  ...over,
});

const subscriptionData = (over: Record<string, unknown>) => ({
  payload_type: 'Subscription',
  subscription_id: 'sub_x',
  product_id: 'growth-monthly',
  quantity: 1,
  status: 'active',
  previous_billing_date: '2026-01-01T00:00:00.000Z',
  next_billing_date: '2026-02-01T00:00:00.000Z',
  cancel_at_next_billing_date: false,
  customer: { email: 'nobody@example.com' },
  metadata: {},
  ...over,
});

describe('POST /payments/create-checkout-session', () => {
  it('records the checkout for the caller and answers the hosted checkout URL with the product spec parameters', async () => {
    const user = await createUser(t);
    const { checkoutUrl, checkoutId } = await startCheckout(user, 'credit-pack', 3);
    const url = new URL(checkoutUrl, 'http://altwise.test');
    expect(url.pathname).toBe('/buy/credit-pack');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      quantity: '3',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: user.email,
      redirect_url: '/dashboard',
      metadata_checkout_id: checkoutId,
    });
  });

  it('refuses another user’s id, unknown products and a quantity below 1', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const post = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/payments/create-checkout-session',
        headers: user.auth,
        payload,
      });
    expect((await post({ productId: 'growth-monthly', userId: other.id })).statusCode).toBe(403);
    expect((await post({ productId: 'growth-monthly', userId: user.id })).statusCode).toBe(200);
    expect((await post({ productId: 'gold-monthly' })).statusCode).toBe(400);
    expect((await post({ productId: 'credit-pack', quantity: 0 })).statusCode).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/payments/create-checkout-session',
          payload: { productId: 'credit-pack' },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('POST /webhooks/payments: signatures and replays', () => {
  it('answers 401 and changes nothing for an unsigned, wrongly signed, stale or tampered event', async () => {
    const user = await createUser(t);
    const { checkoutId } = await startCheckout(user, 'credit-pack', 1);
    const body = JSON.stringify({
      type: 'payment.succeeded',
      data: paymentData({
        metadata: { checkout_id: checkoutId },
        product_cart: [{ product_id: 'credit-pack', quantity: 1 }],
      }),
    });
    const send = (headers: Record<string, string>, payload = body) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks/payments',
        headers: { 'content-type': 'application/json', ...headers },
        payload,
      });
    const secret = await resolveSandboxWebhookSecret(undefined, t.config.dataDir);
    const headers = signWebhook(secret, 'evt_good', body);
    expect((await send({})).statusCode).toBe(401);
    expect((await send({ ...headers, 'webhook-signature': 'v1,AAAA' })).statusCode).toBe(401);
    expect(
      (await send(signWebhook('whsec_d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==', 'evt_good', body))).statusCode,
    ).toBe(401);
    // A signature over another body or another event id does not carry over.
    expect((await send(headers, body.replace('"quantity":1', '"quantity":9'))).statusCode).toBe(401);
    expect((await send({ ...headers, 'webhook-id': 'evt_other' })).statusCode).toBe(401);
    // Outside the five-minute window.
    expect(
      (await send(signWebhook(secret, 'evt_old', body, new Date(Date.now() - 10 * 60 * 1000)))).statusCode,
    ).toBe(401);
    const unauth = await send({});
    expect(unauth.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await balanceOf(t, user)).toBe(0);
    expect((await history(user)).history).toEqual([]);
    // The right signature on the same body works.
    expect((await send(headers)).statusCode).toBe(200);
    expect(await balanceOf(t, user)).toBe(50);
  });

  it('applies an event id once: a replay answers 200 and changes nothing', async () => {
    const user = await createUser(t);
    const { checkoutId } = await startCheckout(user, 'credit-pack', 2);
    const data = paymentData({
      metadata: { checkout_id: checkoutId },
      product_cart: [{ product_id: 'credit-pack', quantity: 2 }],
    });
    const first = await postWebhook(t, 'payment.succeeded', data);
    expect(first.res.json()).toEqual({ received: true, duplicate: false });
    const replay = await postWebhook(t, 'payment.succeeded', data, { eventId: first.eventId });
    expect(replay.res.statusCode).toBe(200);
    expect(replay.res.json()).toEqual({ received: true, duplicate: true });
    // The same payment under a new event id still credits once (the ledger reference is the payment).
    const again = await postWebhook(t, 'payment.succeeded', data);
    expect(again.res.json().duplicate).toBe(false);
    expect(await balanceOf(t, user)).toBe(100);
    expect((await history(user)).history).toHaveLength(1);
  });
  it('credits once when the same payment arrives concurrently, under one event id or several', async () => {
    const user = await createUser(t);
    const data = paymentData({ payment_id: 'pay_race', customer: { email: user.email } });
    const eventId = `evt_${randomUUID()}`;
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => postWebhook(t, 'payment.succeeded', data, { eventId })),
      ...Array.from({ length: 5 }, () => postWebhook(t, 'payment.succeeded', data)),
    ]);
    expect(results.map((r) => r.res.statusCode)).toEqual(Array(10).fill(200));
    expect(await balanceOf(t, user)).toBe(150);
    expect((await history(user)).history).toHaveLength(1);
  });
});

describe('webhook events', () => {
  it('payment.succeeded for packs credits quantity × 50 and records the history', async () => {
    const user = await createUser(t, 25);
    const { checkoutId } = await startCheckout(user, 'credit-pack', 3);
    const data = paymentData({ metadata: { checkout_id: checkoutId } });
    await postWebhook(t, 'payment.succeeded', data);
    expect(await balanceOf(t, user)).toBe(25 + 150);
    const { history: items, pagination } = await history(user);
    expect(pagination).toEqual({ currentPage: 1, totalPages: 1 });
    expect(items).toEqual([
      {
        title: 'Credit Pack × 3 (one-time)',
        status: 'succeeded',
        date: expect.any(String),
        transactionId: data.payment_id,
        creditsAdded: 150,
      },
    ]);
    const verify = await t.app.inject({
      method: 'POST',
      url: `/api/v1/stripe/verify-payment/${data.payment_id}`,
      headers: user.auth,
    });
    expect(verify.json()).toMatchObject({
      success: true,
      status: 'succeeded',
      message: 'Payment Successful',
      transactionId: data.payment_id,
      creditsAdded: 150,
      amount: 9,
    });
  });

  it('a late payment.failed does not turn a paid payment into a failed one', async () => {
    const user = await createUser(t);
    const data = paymentData({ payment_id: 'pay_late_fail', customer: { email: user.email } });
    await postWebhook(t, 'payment.succeeded', data);
    await postWebhook(t, 'payment.failed', { ...data, status: 'failed' });
    expect(await balanceOf(t, user)).toBe(150);
    expect((await history(user)).history).toEqual([
      expect.objectContaining({ transactionId: 'pay_late_fail', status: 'succeeded', creditsAdded: 150 }),
    ]);
  });

  it('payment.failed records a failed payment and credits nothing', async () => {
    const user = await createUser(t, 5);
    const { checkoutId } = await startCheckout(user, 'credit-pack', 1);
    const data = paymentData({ status: 'failed', metadata: { checkout_id: checkoutId } });
    await postWebhook(t, 'payment.failed', data);
    expect(await balanceOf(t, user)).toBe(5);
    expect((await history(user)).history[0]).toMatchObject({ status: 'failed', creditsAdded: 0 });
    const verify = await t.app.inject({
      method: 'POST',
      url: `/api/v1/stripe/verify-payment/${data.payment_id}`,
      headers: user.auth,
    });
    expect(verify.json()).toMatchObject({ success: false, message: 'Payment verification failed' });
  });

  it('a plan: first payment and subscription.active credit one period once; renewed periods credit again; status events follow', async () => {
    const user = await createUser(t);
    expect(await details(user)).toMatchObject({
      current_plan: 'Trial',
      payment_status: 'Not Subscribed',
      next_renewal_date: null,
    });
    const { checkoutId } = await startCheckout(user, 'growth-monthly');
    const sub = `sub_${randomUUID().slice(0, 8)}`;
    const meta = { metadata: { checkout_id: checkoutId }, subscription_id: sub };
    await postWebhook(t, 'subscription.active', subscriptionData(meta));
    await postWebhook(
      t,
      'payment.succeeded',
      paymentData({
        ...meta,
        payment_id: 'pay_p1',
        total_amount: 1900,
        product_cart: [{ product_id: 'growth-monthly', quantity: 1 }],
      }),
    );
    expect(await balanceOf(t, user)).toBe(500);
    expect(await details(user)).toEqual({
      current_plan: 'Growth Monthly',
      payment_status: 'active',
      next_renewal_date: '2026-02-01T00:00:00.000Z',
      cancel_at_period_end: false,
      current_period_end: '2026-02-01T00:00:00.000Z',
    });
    // A second plan while this one renews would bill twice.
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/create-checkout-session',
      headers: user.auth,
      payload: { productId: 'pro-yearly' },
    });
    expect(second.statusCode).toBe(409);

    // Renewal: the payment (no product cart, as Dodo may send it) credits the period; renewed updates dates.
    const renewal = { subscription_id: sub, customer: { email: user.email } };
    await postWebhook(
      t,
      'payment.succeeded',
      paymentData({ ...renewal, payment_id: 'pay_p2', product_cart: null, total_amount: 1900 }),
    );
    await postWebhook(
      t,
      'subscription.renewed',
      subscriptionData({
        ...renewal,
        previous_billing_date: '2026-02-01T00:00:00.000Z',
        next_billing_date: '2026-03-01T00:00:00.000Z',
      }),
    );
    expect(await balanceOf(t, user)).toBe(1000);
    expect((await details(user)).next_renewal_date).toBe('2026-03-01T00:00:00.000Z');
    expect((await history(user)).history.map((h: { creditsAdded: number }) => h.creditsAdded)).toEqual([
      500, 500,
    ]);

    for (const [type, status] of [
      ['subscription.on_hold', 'on_hold'],
      ['subscription.failed', 'failed'],
      ['subscription.active', 'active'],
      ['subscription.cancelled', 'cancelled'],
      ['subscription.expired', 'expired'],
    ] as const) {
      await postWebhook(t, type, subscriptionData({ subscription_id: sub, status }));
      expect((await details(user)).payment_status).toBe(status);
    }
    expect((await details(user)).next_renewal_date).toBeNull();
    // Status events never move credits.
    expect(await balanceOf(t, user)).toBe(1000);
  });

  it('a renewal payment whose plan is not known yet answers 503 so the provider retries, and applies later', async () => {
    const user = await createUser(t);
    const data = paymentData({
      subscription_id: 'sub_unknown',
      product_cart: null,
      customer: { email: user.email },
    });
    const first = await postWebhook(t, 'payment.succeeded', data);
    expect(first.res.statusCode).toBe(503);
    await postWebhook(
      t,
      'subscription.active',
      subscriptionData({ subscription_id: 'sub_unknown', customer: { email: user.email } }),
    );
    const retry = await postWebhook(t, 'payment.succeeded', data, { eventId: first.eventId });
    expect(retry.res.json()).toEqual({ received: true, duplicate: false });
    expect(await balanceOf(t, user)).toBe(500);
  });

  it('ignores events of other types and events for nobody we know', async () => {
    const user = await createUser(t);
    expect((await postWebhook(t, 'refund.succeeded', { payment_id: 'pay_r' })).res.statusCode).toBe(200);
    expect(
      (
        await postWebhook(
          t,
          'payment.succeeded',
          paymentData({ customer: { email: 'stranger@example.com' } }),
        )
      ).res.statusCode,
    ).toBe(200);
    expect(await balanceOf(t, user)).toBe(0);
  });
});

describe('cancel renewal', () => {
  it('stops renewal at the end of the period, keeps the credits, and refuses a second cancel', async () => {
    const user = await createUser(t);
    const { checkoutId } = await startCheckout(user, 'starter-yearly');
    const meta = { metadata: { checkout_id: checkoutId }, subscription_id: 'sub_cancel' };
    await postWebhook(
      t,
      'payment.succeeded',
      paymentData({ ...meta, product_cart: [{ product_id: 'starter-yearly', quantity: 1 }] }),
    );
    await postWebhook(
      t,
      'subscription.active',
      subscriptionData({
        ...meta,
        product_id: 'starter-yearly',
        next_billing_date: '2027-01-01T00:00:00.000Z',
      }),
    );
    expect(await balanceOf(t, user)).toBe(1200);

    const cancel = () =>
      t.app.inject({ method: 'PATCH', url: '/api/v1/users/cancel-subscription', headers: user.auth });
    const res = await cancel();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Subscription cancelled successfully' });
    expect(await details(user)).toEqual({
      current_plan: 'Starter Yearly',
      payment_status: 'cancelled',
      next_renewal_date: null,
      cancel_at_period_end: true,
      current_period_end: '2027-01-01T00:00:00.000Z',
    });
    expect(await balanceOf(t, user)).toBe(1200);
    // A late 'active' does not bring renewal back.
    await postWebhook(t, 'subscription.active', subscriptionData({ ...meta, product_id: 'starter-yearly' }));
    expect((await details(user)).payment_status).toBe('cancelled');
    expect((await cancel()).statusCode).toBe(404);
    // Now a new plan may be bought.
    expect((await startCheckout(user, 'pro-monthly')).checkoutUrl).toContain('/buy/pro-monthly');
  });

  it('answers 404 without a paid plan', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/cancel-subscription',
      headers: user.auth,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('You have no active subscription to cancel.');
  });
});

describe('billing history pages, free plan, ownership', () => {
  it('pages the history on the server, newest first', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 23; i++) {
      await postWebhook(
        t,
        'payment.succeeded',
        paymentData({
          payment_id: `pay_h${i}`,
          customer: { email: user.email },
          product_cart: [{ product_id: 'credit-pack', quantity: 1 }],
        }),
      );
    }
    const one = await history(user, 1);
    expect(one.pagination).toEqual({ currentPage: 1, totalPages: 3 });
    expect(one.history).toHaveLength(10);
    const three = await history(user, 3);
    expect(three.pagination).toEqual({ currentPage: 3, totalPages: 3 });
    expect(three.history).toHaveLength(3);
    const all = [...one.history, ...(await history(user, 2)).history, ...three.history].map(
      (h) => h.transactionId,
    );
    expect(new Set(all).size).toBe(23);
    expect((await history(user, 99)).pagination.currentPage).toBe(3);
    expect((await get('/users/billing-history?page=abc', user)).json().pagination.currentPage).toBe(1);
    expect(await balanceOf(t, user)).toBe(23 * 50);
  });

  it('the free plan grants nothing and shows as Free; it is refused while a paid plan renews', async () => {
    const user = await createUser(t, 25);
    const free = () => t.app.inject({ method: 'POST', url: '/api/v1/stripe/free-plan', headers: user.auth });
    const res = await free();
    expect(res.json()).toEqual({ success: true, message: 'Plan has been upgraded' });
    expect((await free()).statusCode).toBe(200);
    expect(await balanceOf(t, user)).toBe(25);
    expect(await details(user)).toMatchObject({ current_plan: 'Free', payment_status: 'Not Subscribed' });

    const { checkoutId } = await startCheckout(user, 'growth-monthly');
    await postWebhook(
      t,
      'subscription.active',
      subscriptionData({ subscription_id: 'sub_free', metadata: { checkout_id: checkoutId } }),
    );
    const refused = await free();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'CONFLICT',
      error: expect.stringContaining('active paid plan'),
    });
  });

  it('one user cannot read another’s payment', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const data = paymentData({ payment_id: 'pay_private', customer: { email: owner.email } });
    await postWebhook(t, 'payment.succeeded', data);
    const verify = (user: TestUser) =>
      t.app.inject({ method: 'POST', url: '/api/v1/stripe/verify-payment/pay_private', headers: user.auth });
    expect((await verify(owner)).statusCode).toBe(200);
    const foreign = await verify(other);
    expect(foreign.statusCode).toBe(200);
    expect(foreign.json()).toMatchObject({
      success: false,
      status: 'pending',
      title: '',
      creditsAdded: 0,
      amount: 0,
    });
    expect((await history(other)).history).toEqual([]);
  });
});
