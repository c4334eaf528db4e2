import type { BillingProduct } from '@altwise/contracts/billing';
import { z } from 'zod';
import { verifyWebhook, type WebhookHeaders, WebhookVerificationError } from './standard-webhooks.ts';

/**
 * What every provider that posts to POST /webhooks/payments offers: it recognises its own signature
 * scheme, verifies and parses its events, and says which payments it reports are ours to credit.
 */
export interface PaymentWebhookSource {
  readonly name: string;
  /** Whether the request carries this provider's signature headers (so this provider verifies it). */
  signsWebhook(headers: WebhookHeaders): boolean;
  /** Verifies the signature (throws WebhookVerificationError) and turns the body into an event. */
  parseWebhook(rawBody: string, headers: WebhookHeaders): PaymentEvent;
  /** Whether a payment it reports is one of our checkouts, paid at the catalogue's price. */
  isOurPayment(payment: ProviderPayment): boolean;
}

/**
 * A hosted-checkout payment provider (docs/contributing.md, habit 7): hosted checkout, subscription cancel,
 * webhooks. `sandbox` is the embedded default (offline, this server plays the provider); `dodo` is
 * Dodo Payments. Both speak Dodo's webhook format, so one parser serves both.
 */
export interface PaymentProvider extends PaymentWebhookSource {
  readonly name: 'sandbox' | 'dodo';
  /** The hosted checkout URL the browser goes to (the product spec §7 `/buy/{productId}?…`). */
  createCheckout(input: CheckoutInput): Promise<{ checkoutUrl: string }>;
  /** Stops renewal at the end of the paid period; credits already granted stay. */
  cancelSubscription(providerSubscriptionId: string): Promise<void>;
}

/**
 * The legacy card form's provider (POST /stripe/checkout, then the client confirms the card with
 * the client secret): Stripe when STRIPE_SECRET_KEY is set, otherwise the sandbox.
 */
export interface CardPaymentProvider extends PaymentWebhookSource {
  readonly name: 'stripe' | 'sandbox';
  /** Starts a card payment for a checkout we recorded; the client secret lets the browser pay it. */
  createCardPayment(input: CardPaymentInput): Promise<{ clientSecret: string }>;
  /** Whether an id can be one of this provider's payments that is worth asking the provider about. */
  ownsPaymentId(paymentId: string): boolean;
  /** The payment as the provider sees it now; null when the provider does not know it. */
  retrieveCardPayment(paymentId: string): Promise<CardPayment | null>;
}

export type CardPaymentInput = {
  checkoutId: string;
  userId: string;
  product: BillingProduct;
  quantity: number;
  email: string;
};

/** A provider payment plus the user our server wrote into its metadata. */
export type CardPayment = ProviderPayment & { userId: string | null };

export type CheckoutInput = {
  checkoutId: string;
  product: BillingProduct;
  quantity: number;
  customer: { firstName: string; lastName: string; email: string };
  /** Where on our site the provider sends the buyer back to, e.g. `/dashboard`. */
  returnPath: string;
  /** This site's public origin (PUBLIC_URL), for providers on another origin. */
  publicUrl: string;
};

/**
 * The query of a hosted checkout page (Dodo's `/buy/{productId}?…`, which the sandbox's page copies):
 * who buys, how many, where the buyer comes back to, and our checkout id for the webhook. `extra`
 * adds what only one page reads.
 */
export function hostedCheckoutQuery(
  { checkoutId, product, quantity, customer }: CheckoutInput,
  redirectUrl: string,
  extra: Record<string, string> = {},
): URLSearchParams {
  return new URLSearchParams({
    quantity: String(product.kind === 'pack' ? quantity : 1),
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    disableEmail: 'true',
    redirect_url: redirectUrl,
    metadata_checkout_id: checkoutId,
    ...extra,
  });
}

/** Standard Webhooks (Dodo and the sandbox): the request carries `webhook-id` / `webhook-signature`. */
export const signsStandardWebhook = (headers: WebhookHeaders) =>
  headers['webhook-signature'] !== undefined || headers['webhook-id'] !== undefined;

export type ProviderPayment = {
  paymentId: string;
  status: string;
  subscriptionId: string | null;
  /** Catalogue product id, when the provider's product is one of ours. */
  productId: string | null;
  quantity: number;
  amountCents: number;
  currency: string;
  customerEmail: string | null;
  checkoutId: string | null;
  errorMessage: string | null;
};

export type ProviderSubscription = {
  subscriptionId: string;
  status: string;
  productId: string | null;
  quantity: number;
  /** Start of the paid period this event is about (Dodo: previous_billing_date). */
  periodStart: Date | null;
  /** Next billing date (end of the paid period). */
  periodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  customerEmail: string | null;
  checkoutId: string | null;
};

export type PaymentEvent = {
  /** The provider's event id (webhook-id): the idempotency key. */
  eventId: string;
  type: string;
  payment?: ProviderPayment;
  subscription?: ProviderSubscription;
};

/** The events we act on; any other type is acknowledged and ignored. */
export const handledEventTypes = [
  'payment.succeeded',
  'payment.failed',
  'subscription.active',
  'subscription.renewed',
  'subscription.on_hold',
  'subscription.failed',
  'subscription.cancelled',
  'subscription.expired',
] as const;

const metadataSchema = z.record(z.string(), z.unknown()).nullish();
const customerSchema = z.object({ email: z.string().nullish() }).loose().nullish();
const dateText = z
  .string()
  .nullish()
  .transform((value) => {
    if (!value) return null;
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  });

const eventSchema = z
  .object({
    type: z.string(),
    data: z
      .object({
        payment_id: z.string().nullish(),
        subscription_id: z.string().nullish(),
        status: z.string().nullish(),
        total_amount: z.number().nullish(),
        recurring_pre_tax_amount: z.number().nullish(),
        currency: z.string().nullish(),
        customer: customerSchema,
        metadata: metadataSchema,
        product_cart: z
          .array(z.object({ product_id: z.string(), quantity: z.number().int().positive() }).loose())
          .nullish(),
        product_id: z.string().nullish(),
        quantity: z.number().int().positive().nullish(),
        previous_billing_date: dateText,
        next_billing_date: dateText,
        cancel_at_next_billing_date: z.boolean().nullish(),
        error_message: z.string().nullish(),
      })
      .loose(),
  })
  .loose();

const checkoutIdOf = (metadata: Record<string, unknown> | null | undefined) => {
  const value = metadata?.checkout_id;
  return typeof value === 'string' ? value : null;
};

/**
 * Verifies a Standard Webhooks signature and parses a Dodo-format event. `productIdFor` maps the
 * provider's product id back to the catalogue's.
 */
export function parseDodoFormatWebhook(
  secret: string,
  rawBody: string,
  headers: WebhookHeaders,
  productIdFor: (providerProductId: string) => string | null,
): PaymentEvent {
  const eventId = verifyWebhook(secret, rawBody, headers);
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new WebhookVerificationError('Webhook body is not JSON');
  }
  const parsed = eventSchema.safeParse(json);
  if (!parsed.success) return { eventId, type: 'unrecognised' };
  const { type, data } = parsed.data;
  const email = data.customer?.email ?? null;
  const checkoutId = checkoutIdOf(data.metadata);
  if (type.startsWith('payment.') && data.payment_id) {
    const line = data.product_cart?.[0];
    return {
      eventId,
      type,
      payment: {
        paymentId: data.payment_id,
        status: data.status ?? type.slice('payment.'.length),
        subscriptionId: data.subscription_id ?? null,
        productId: line ? productIdFor(line.product_id) : null,
        quantity: line?.quantity ?? 1,
        amountCents: Math.round(data.total_amount ?? 0),
        currency: data.currency ?? 'USD',
        customerEmail: email,
        checkoutId,
        errorMessage: data.error_message ?? null,
      },
    };
  }
  if (type.startsWith('subscription.') && data.subscription_id) {
    return {
      eventId,
      type,
      subscription: {
        subscriptionId: data.subscription_id,
        status: data.status ?? type.slice('subscription.'.length),
        productId: data.product_id ? productIdFor(data.product_id) : null,
        quantity: data.quantity ?? 1,
        periodStart: data.previous_billing_date,
        periodEnd: data.next_billing_date,
        cancelAtPeriodEnd: data.cancel_at_next_billing_date ?? false,
        customerEmail: email,
        checkoutId,
      },
    };
  }
  return { eventId, type };
}
