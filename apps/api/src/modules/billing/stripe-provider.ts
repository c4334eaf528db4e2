import { type BillingProduct, findBillingProduct } from '@altwise/contracts/billing';
import Stripe from 'stripe';
import type {
  CardPayment,
  CardPaymentInput,
  CardPaymentProvider,
  ProviderPayment,
} from './payment-provider.ts';
import {
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookHeaders,
  WebhookVerificationError,
} from './standard-webhooks.ts';

/**
 * The legacy card form's provider with STRIPE_SECRET_KEY (POST /stripe/checkout → Stripe.js
 * confirmCardPayment): one PaymentIntent per checkout, in US cents from our catalogue. Only the card
 * routes use it; the hosted checkout stays with PAYMENT_PROVIDER. A plan bought this way is one paid
 * period (a PaymentIntent does not renew).
 */
export interface StripeCardProvider extends CardPaymentProvider {
  readonly name: 'stripe';
  createCardPayment(input: CardPaymentInput): Promise<{ paymentId: string; clientSecret: string }>;
}

/** config.ts's `stripe` (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE). */
export type StripeCardOptions = {
  secretKey: string;
  webhookSecret: string;
  /** A Stripe-compatible server (tests), as the SDK's host/port/protocol; null: api.stripe.com. */
  apiBase: { protocol: 'http' | 'https'; host: string; port: number } | null;
};

/** What a checkout costs in cents: the catalogue's price, never the client's amount. */
export const amountCentsFor = (product: BillingProduct, quantity: number) =>
  Math.round(product.amount * 100) * (product.kind === 'pack' ? quantity : 1);

const eventTypes: Record<string, string> = {
  'payment_intent.succeeded': 'payment.succeeded',
  'payment_intent.payment_failed': 'payment.failed',
};

function headerOf(headers: WebhookHeaders, name: string): string | null {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function toCardPayment(intent: Stripe.PaymentIntent): CardPayment {
  const metadata = intent.metadata ?? {};
  const product = metadata.product_id ? findBillingProduct(metadata.product_id) : undefined;
  const quantity = Number(metadata.quantity);
  return {
    paymentId: intent.id,
    status: intent.status,
    subscriptionId: null,
    productId: product?.id ?? null,
    quantity: Number.isInteger(quantity) && quantity >= 1 ? quantity : 1,
    amountCents: intent.status === 'succeeded' ? intent.amount_received || intent.amount : intent.amount,
    currency: (intent.currency ?? 'usd').toUpperCase(),
    customerEmail: intent.receipt_email ?? null,
    checkoutId: metadata.checkout_id ?? null,
    errorMessage: intent.last_payment_error?.message ?? null,
    userId: metadata.user_id ?? null,
  };
}

/**
 * A Stripe payment we made for one of our checkouts, for the catalogue's price. Anything else on
 * the Stripe account (another integration's payment, an edited amount) is never credited.
 */
export function isOurCardPayment(payment: ProviderPayment): boolean {
  const product = payment.productId ? findBillingProduct(payment.productId) : undefined;
  return (
    product !== undefined &&
    payment.checkoutId !== null &&
    payment.amountCents === amountCentsFor(product, payment.quantity)
  );
}

export function createStripeCardProvider(config: StripeCardOptions): StripeCardProvider {
  const stripe = new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(config.apiBase ?? {}),
  });

  return {
    name: 'stripe',

    async createCardPayment({ checkoutId, userId, product, quantity, email }) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: amountCentsFor(product, quantity),
          currency: 'usd',
          // The card form pays with a card only: nothing that would redirect the buyer away.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          receipt_email: email,
          description:
            product.kind === 'plan' ? `Altwise ${product.label}` : `Altwise credit pack × ${quantity}`,
          metadata: {
            user_id: userId,
            checkout_id: checkoutId,
            product_id: product.id,
            quantity: String(quantity),
            credits: String(product.credits * (product.kind === 'pack' ? quantity : 1)),
          },
        },
        // A retried request for the same checkout makes no second PaymentIntent.
        { idempotencyKey: `altwise-checkout-${checkoutId}` },
      );
      if (!intent.client_secret) throw new Error(`Stripe answered no client_secret for ${intent.id}`);
      return { paymentId: intent.id, clientSecret: intent.client_secret };
    },

    signsWebhook: (headers) => headers['stripe-signature'] !== undefined,

    isOurPayment: isOurCardPayment,

    ownsPaymentId: (paymentId) => /^pi_[A-Za-z0-9]{1,200}$/.test(paymentId),

    async retrieveCardPayment(paymentId) {
      try {
        return toCardPayment(await stripe.paymentIntents.retrieve(paymentId));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw error;
      }
    },

    parseWebhook(rawBody, headers) {
      const signature = headerOf(headers, 'stripe-signature');
      if (!signature) throw new WebhookVerificationError('Missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          config.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError)
          throw new WebhookVerificationError(error.message);
        throw new WebhookVerificationError('Webhook body is not a Stripe event');
      }
      const type = eventTypes[event.type];
      if (!type) return { eventId: event.id, type: event.type };
      return {
        eventId: event.id,
        type,
        payment: toCardPayment(event.data.object as Stripe.PaymentIntent),
      };
    },
  };
}
