import { findBillingProduct } from '@altwise/contracts/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../test/fake-stripe.ts';
import { WebhookVerificationError } from './standard-webhooks.ts';
import { createStripeCardProvider, type StripeCardProvider } from './stripe-provider.ts';

const WEBHOOK_SECRET = 'whsec_unit_test_secret';
let fake: FakeStripe;
let stripe: StripeCardProvider;
beforeAll(async () => {
  fake = await startFakeStripe();
  const base = new URL(fake.apiBase);
  stripe = createStripeCardProvider({
    secretKey: 'sk_test_unit',
    webhookSecret: WEBHOOK_SECRET,
    apiBase: { protocol: 'http', host: base.hostname, port: Number(base.port) },
  });
});
afterAll(() => fake?.close());

const pack = findBillingProduct('credit-pack');

describe('Stripe card provider (the official SDK against a local Stripe)', () => {
  it('creates a PaymentIntent in cents with our metadata, and reads it back', async () => {
    if (!pack) throw new Error('no pack');
    const { paymentId, clientSecret } = await stripe.createCardPayment({
      checkoutId: '00000000-0000-4000-8000-000000000001',
      userId: 'user-1',
      product: pack,
      quantity: 4,
      email: 'ada@example.com',
    });
    expect(clientSecret).toBe(fake.intents.get(paymentId)?.client_secret);
    expect(fake.requests.at(-1)?.body).toMatchObject({
      amount: '1200',
      currency: 'usd',
      metadata: { user_id: 'user-1', product_id: 'credit-pack', quantity: '4', credits: '200' },
    });
    fake.settle(paymentId, 'succeeded');
    expect(await stripe.retrieveCardPayment(paymentId)).toMatchObject({
      paymentId,
      status: 'succeeded',
      productId: 'credit-pack',
      quantity: 4,
      amountCents: 1200,
      currency: 'USD',
      userId: 'user-1',
      checkoutId: '00000000-0000-4000-8000-000000000001',
    });
    expect(await stripe.retrieveCardPayment('pi_unknown')).toBeNull();
    expect(stripe.ownsPaymentId(paymentId)).toBe(true);
    expect(stripe.ownsPaymentId('pay_sandbox123')).toBe(false);
    expect(stripe.ownsPaymentId('pi_../../v1/customers')).toBe(false);
  });

  it('verifies Stripe-Signature and maps payment_intent events; refuses anything else', async () => {
    if (!pack) throw new Error('no pack');
    const { paymentId } = await stripe.createCardPayment({
      checkoutId: '00000000-0000-4000-8000-000000000002',
      userId: 'user-2',
      product: pack,
      quantity: 1,
      email: 'ada@example.com',
    });
    const intent = fake.settle(paymentId, 'succeeded');
    const signed = fake.signedEvent('payment_intent.succeeded', intent, WEBHOOK_SECRET, 'evt_1');
    expect(stripe.parseWebhook(signed.body, signed.headers)).toMatchObject({
      eventId: 'evt_1',
      type: 'payment.succeeded',
      payment: { paymentId, amountCents: 300, subscriptionId: null },
    });
    const other = fake.signedEvent('charge.refunded', intent, WEBHOOK_SECRET, 'evt_2');
    expect(stripe.parseWebhook(other.body, other.headers)).toEqual({
      eventId: 'evt_2',
      type: 'charge.refunded',
    });
    const forged = fake.signedEvent('payment_intent.succeeded', intent, 'whsec_other');
    expect(() => stripe.parseWebhook(forged.body, forged.headers)).toThrow(WebhookVerificationError);
    expect(() => stripe.parseWebhook(signed.body, {})).toThrow('Missing Stripe-Signature header');
  });
});
