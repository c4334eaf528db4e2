import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type BillingProduct, findBillingProduct } from '@altwise/contracts/billing';
import {
  type CardPaymentProvider,
  hostedCheckoutQuery,
  type PaymentProvider,
  parseDodoFormatWebhook,
  signsStandardWebhook,
} from './payment-provider.ts';
import { signWebhook } from './standard-webhooks.ts';

/** Test cards the sandbox knows (the usual card-network test numbers). */
export const SANDBOX_SUCCESS_CARD = '4242424242424242';
export const SANDBOX_DECLINED_CARD = '4000000000000002';
const SANDBOX_INSUFFICIENT_FUNDS_CARD = '4000000000009995';

/** Sends one signed webhook to this app's own endpoint; resolves to the HTTP status it answered. */
export type WebhookDelivery = (headers: Record<string, string>, body: string) => Promise<number>;

export type SandboxCharge = {
  product: BillingProduct;
  quantity: number;
  checkoutId: string | null;
  email: string;
  name: string;
  card: { number: string; expiry: string; cvc: string };
};

export type SandboxChargeResult =
  | { ok: true; paymentId: string }
  /** The buyer's mistake or a decline: shown on the page; nothing was charged or sent. */
  | { ok: false; reason: 'declined' | 'invalid'; message: string }
  /** Charged, but the store did not take the webhook (the page says so). */
  | { ok: false; reason: 'delivery'; message: string; paymentId: string };

/** How long a hosted checkout link can be used after the session was created. */
export const CHECKOUT_TOKEN_TTL_SECONDS = 60 * 60;

/** A hosted checkout link's token: valid, past its hour, or not one this sandbox made. */
export type CheckoutTokenCheck = 'valid' | 'expired' | 'invalid';

const providerId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export function addPeriod(from: Date, period: 'monthly' | 'yearly'): Date {
  const next = new Date(from);
  if (period === 'monthly') next.setUTCMonth(next.getUTCMonth() + 1);
  else next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Checks the card as a card form would; null when it may be charged. */
export function checkSandboxCard(card: SandboxCharge['card'], now = new Date()): SandboxChargeResult | null {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number))
    return { ok: false, reason: 'invalid', message: 'Your card number is invalid.' };
  const expiry = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(card.expiry.trim());
  const month = Number(expiry?.[1]);
  const year = expiry?.[2]?.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry?.[2]);
  if (!expiry || month < 1 || month > 12)
    return { ok: false, reason: 'invalid', message: "Your card's expiration date is invalid." };
  if (new Date(Date.UTC(year, month, 1)) <= now)
    return { ok: false, reason: 'invalid', message: "Your card's expiration date is in the past." };
  if (!/^\d{3,4}$/.test(card.cvc.trim()))
    return { ok: false, reason: 'invalid', message: "Your card's security code is invalid." };
  if (number === SANDBOX_DECLINED_CARD)
    return { ok: false, reason: 'declined', message: 'Your card was declined.' };
  if (number === SANDBOX_INSUFFICIENT_FUNDS_CARD)
    return { ok: false, reason: 'declined', message: 'Your card has insufficient funds.' };
  if (number !== SANDBOX_SUCCESS_CARD)
    return {
      ok: false,
      reason: 'declined',
      message: 'Your card was declined. This is a sandbox: use the test card 4242 4242 4242 4242.',
    };
  return null;
}

/**
 * The embedded payment provider: this server hosts the checkout page (/buy/{productId}), "charges"
 * test cards and then behaves like Dodo Payments, sending Dodo-format events signed with the
 * Standard Webhooks scheme to POST /api/v1/webhooks/payments. Product ids are the catalogue's own.
 */
export function createSandboxProvider(options: { secret: string; deliver: WebhookDelivery }) {
  const { secret, deliver } = options;

  async function send(type: string, data: Record<string, unknown>, now: Date): Promise<number> {
    const body = JSON.stringify({ business_id: 'sandbox', type, timestamp: now.toISOString(), data });
    const headers = {
      'content-type': 'application/json',
      ...signWebhook(secret, providerId('evt'), body, now),
    };
    // A real provider retries for days; the sandbox tries a few times before telling the buyer.
    let status = 0;
    for (let attempt = 0; attempt < 3 && (status < 200 || status >= 300); attempt++) {
      status = await deliver(headers, body).catch(() => 0);
    }
    return status;
  }

  const clientSecretTag = (checkoutId: string) =>
    createHmac('sha256', secret).update(`client-secret:${checkoutId}`).digest('base64url').slice(0, 32);
  const checkoutTokenTag = (checkoutId: string, expires: number) =>
    createHmac('sha256', secret).update(`checkout-token:${checkoutId}:${expires}`).digest('base64url');
  const sameText = (a: string, b: string) => {
    const left = Buffer.from(a);
    const right = Buffer.from(b);
    return left.length === right.length && timingSafeEqual(left, right);
  };

  const provider: PaymentProvider &
    CardPaymentProvider & {
      readonly name: 'sandbox';
      charge(charge: SandboxCharge, now?: Date): Promise<SandboxChargeResult>;
      /** The card form's authority to pay one checkout (like a payment intent's client secret). */
      clientSecretFor(checkoutId: string): string;
      /** The checkout a client secret pays, or null when it was not made by this sandbox. */
      checkoutIdFromClientSecret(clientSecret: string): string | null;
      /**
       * The hosted checkout page's authority to show and pay one checkout, made when its signed-in
       * creator starts it (ADR 020): `{expiry}.{HMAC of the checkout id and expiry}`.
       */
      checkoutTokenFor(checkoutId: string, now?: Date): string;
      checkCheckoutToken(checkoutId: string, token: string, now?: Date): CheckoutTokenCheck;
    } = {
    name: 'sandbox',

    async createCheckout(input) {
      // The sandbox's page is on this origin, so a path is enough (and works behind Vite's proxy).
      const query = hostedCheckoutQuery(input, input.returnPath, {
        checkout_token: provider.checkoutTokenFor(input.checkoutId),
      });
      return { checkoutUrl: `/buy/${encodeURIComponent(input.product.id)}?${query}` };
    },

    async cancelSubscription() {
      // Nothing renews by itself in the sandbox, so there is nothing to stop on its side.
    },

    signsWebhook: signsStandardWebhook,

    // Only this server signs the sandbox's events, and only for checkouts it charged.
    isOurPayment: () => true,

    // The legacy card form on the sandbox: the client secret is the form's authority to pay the
    // checkout (POST /payments/sandbox/confirm); the payment then arrives by webhook.
    async createCardPayment({ checkoutId }) {
      return { clientSecret: provider.clientSecretFor(checkoutId) };
    },

    // Its payments are settled by its own webhooks before the confirm answers: nothing to ask.
    ownsPaymentId: () => false,

    async retrieveCardPayment() {
      return null;
    },

    parseWebhook(rawBody, headers) {
      return parseDodoFormatWebhook(secret, rawBody, headers, (id) => (findBillingProduct(id) ? id : null));
    },

    clientSecretFor(checkoutId) {
      return `${checkoutId}_secret_${clientSecretTag(checkoutId)}`;
    },

    checkoutIdFromClientSecret(clientSecret) {
      const [checkoutId, tag] = clientSecret.split('_secret_', 2);
      if (!checkoutId || !tag) return null;
      return sameText(tag, clientSecretTag(checkoutId)) ? checkoutId : null;
    },

    checkoutTokenFor(checkoutId, now = new Date()) {
      const expires = Math.floor(now.getTime() / 1000) + CHECKOUT_TOKEN_TTL_SECONDS;
      return `${expires}.${checkoutTokenTag(checkoutId, expires)}`;
    },

    checkCheckoutToken(checkoutId, token, now = new Date()) {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{1,100})$/.exec(token);
      if (!match) return 'invalid';
      const expires = Number(match[1]);
      if (!sameText(match[2] ?? '', checkoutTokenTag(checkoutId, expires))) return 'invalid';
      return expires * 1000 > now.getTime() ? 'valid' : 'expired';
    },

    async charge(charge, now = new Date()) {
      const refused = checkSandboxCard(charge.card, now);
      if (refused) return refused;
      const { product } = charge;
      const quantity = product.kind === 'pack' ? charge.quantity : 1;
      const paymentId = providerId('pay');
      const subscriptionId = product.kind === 'plan' ? providerId('sub') : null;
      const customer = { customer_id: 'cus_sandbox', email: charge.email, name: charge.name };
      const metadata = charge.checkoutId ? { checkout_id: charge.checkoutId } : {};
      const statuses = [
        await send(
          'payment.succeeded',
          {
            payload_type: 'Payment',
            payment_id: paymentId,
            subscription_id: subscriptionId,
            status: 'succeeded',
            total_amount: Math.round(product.amount * 100) * quantity,
            currency: 'USD',
            customer,
            metadata,
            product_cart: [{ product_id: product.id, quantity }],
            created_at: now.toISOString(),
          },
          now,
        ),
      ];
      if (product.kind === 'plan' && subscriptionId) {
        statuses.push(
          await send(
            'subscription.active',
            {
              payload_type: 'Subscription',
              subscription_id: subscriptionId,
              product_id: product.id,
              quantity: 1,
              status: 'active',
              previous_billing_date: now.toISOString(),
              next_billing_date: addPeriod(now, product.period).toISOString(),
              cancel_at_next_billing_date: false,
              recurring_pre_tax_amount: Math.round(product.amount * 100),
              currency: 'USD',
              customer,
              metadata,
              created_at: now.toISOString(),
            },
            now,
          ),
        );
      }
      if (statuses.some((status) => status < 200 || status >= 300))
        return {
          ok: false,
          reason: 'delivery',
          paymentId,
          message: `Your payment ${paymentId} went through, but the store has not confirmed it yet. Please contact support with this payment id.`,
        };
      return { ok: true, paymentId };
    },
  };
  return provider;
}

export type SandboxProvider = ReturnType<typeof createSandboxProvider>;
