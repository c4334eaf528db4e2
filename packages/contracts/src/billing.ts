import { z } from 'zod';
import { errorResponseSchema } from './errors.ts';
import { DEFAULT_PAYMENT_STATUS, DEFAULT_PLAN_LABEL, NOT_AVAILABLE } from './limits.ts';
import { messages } from './messages.ts';
import { type BillingPeriod, billingPeriods, creditPack, findPlan, type Plan, plans } from './plans.ts';

/**
 * Billing calls of the product spec §3 and §7 (credits, checkout, subscription, history, free plan, payment
 * verification) and the payment-status display of §4. Every route of apps/api validates with these,
 * and the browser reads the same types.
 */

// ---------------------------------------------------------------------------------------------
// Product catalogue: one product id per plan × period, and one for the credit pack.
// The browser sends these ids as `productId`; the server maps them to the provider's own ids.
// ---------------------------------------------------------------------------------------------

export type PlanProductId = `${Plan['id']}-${BillingPeriod}`;
export type ProductId = PlanProductId | typeof creditPack.id;

export type BillingProduct =
  | {
      kind: 'plan';
      id: PlanProductId;
      plan: Plan;
      period: BillingPeriod;
      /** Credits granted per paid period. */
      credits: number;
      /** US dollars charged per period. */
      amount: number;
      /** The label current_plan carries, e.g. 'Growth Monthly' (its 'Monthly'/'Yearly' sets the cycle). */
      label: string;
    }
  | {
      kind: 'pack';
      id: typeof creditPack.id;
      /** Credits per pack; a checkout of quantity q grants q × credits. */
      credits: number;
      /** US dollars per pack. */
      amount: number;
      label: string;
    };

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function planProductId(planId: Plan['id'], period: BillingPeriod): PlanProductId {
  return `${planId}-${period}`;
}

export const billingProducts: readonly BillingProduct[] = [
  ...plans.flatMap((p) =>
    billingPeriods.map(
      (period): BillingProduct => ({
        kind: 'plan',
        id: planProductId(p.id, period),
        plan: p,
        period,
        credits: period === 'monthly' ? p.monthlyCredits : p.yearlyCredits,
        amount: period === 'monthly' ? p.monthlyAmount : p.yearlyAmount,
        label: `${p.name} ${capitalised(period)}`,
      }),
    ),
  ),
  {
    kind: 'pack',
    id: creditPack.id,
    credits: creditPack.credits,
    amount: creditPack.amount,
    label: 'Credit Pack',
  },
];

export const productIds = billingProducts.map((p) => p.id) as [ProductId, ...ProductId[]];

export function findBillingProduct(id: string): BillingProduct | undefined {
  return billingProducts.find((p) => p.id === id);
}

/** Whether a plan id from the URL (/checkout/{plan}) names a plan at all; the product spec §5: invalid ids send nothing. */
export function isKnownPlanId(id: string): boolean {
  return findPlan(id) !== undefined;
}

/** Largest pack quantity one checkout accepts (a typo guard, not a business rule). */
export const MAX_PACK_QUANTITY = 1000;
/** Largest single deduct or refund (a typo guard: no feature spends more at once). */
export const MAX_CREDITS_PER_CALL = 100_000;
/** Billing history page size (the product spec leaves it open). */
export const BILLING_HISTORY_PAGE_SIZE = 10;

// ---------------------------------------------------------------------------------------------
// Credits
// ---------------------------------------------------------------------------------------------

const creditCount = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`)
    .max(MAX_CREDITS_PER_CALL, `${label} must be at most ${MAX_CREDITS_PER_CALL}`);

/** GET /credits/remaining */
export const creditsRemainingResponseSchema = z.object({
  success: z.literal(true),
  imageCredits: z.number().int(),
});
export type CreditsRemainingResponse = z.infer<typeof creditsRemainingResponseSchema>;

/** POST /credits/deduct. Extra fields (e.g. a userId) are ignored: the user is the token's. */
export const deductCreditsRequestSchema = z.object({ usedCredits: creditCount('usedCredits') });
export type DeductCreditsRequest = z.infer<typeof deductCreditsRequestSchema>;

/**
 * 200 on success. Not enough credits: 402 `{message: 'Insufficient credits', code: 'INSUFFICIENT_CREDITS'}`
 * and nothing changes. Keep `reservationId`: a refund must name it.
 */
export const deductCreditsResponseSchema = z.object({
  success: z.literal(true),
  remainingCredits: z.number().int(),
  reservationId: z.string(),
  message: z.string(),
});
export type DeductCreditsResponse = z.infer<typeof deductCreditsResponseSchema>;

/**
 * POST /credits/refund. Gives back up to `refundCredits` of what the named reservation took and has
 * not yet got back (more is clamped; an exhausted reservation refunds 0 and still succeeds, so a
 * retried refund is harmless). A reservation that is unknown or another user's: 404 NOT_FOUND,
 * nothing changes.
 */
export const refundCreditsRequestSchema = z.object({
  refundCredits: creditCount('refundCredits'),
  reservationId: z
    .string({ error: 'reservationId is required' })
    .min(1, 'reservationId is required')
    .max(100),
});
export type RefundCreditsRequest = z.infer<typeof refundCreditsRequestSchema>;

export const refundCreditsResponseSchema = z.object({
  success: z.literal(true),
  remainingCredits: z.number().int().optional(),
  /** What was actually given back (≤ refundCredits). */
  refundedCredits: z.number().int(),
  message: z.string(),
});
export type RefundCreditsResponse = z.infer<typeof refundCreditsResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Checkout
// ---------------------------------------------------------------------------------------------

/**
 * POST /payments/create-checkout-session. `userId` is accepted for the product spec's browser but must be
 * the signed-in user's (403 otherwise); `quantity` only matters for the credit pack (default 1).
 */
/**
 * Where the checkout sends the buyer back: a path on this site only (`/audit/…`), never another
 * origin — no scheme, no `//host`, no backslash or whitespace that a browser could read as one.
 */
export const returnPathSchema = z
  .string()
  .max(500, 'The return address must be at most 500 characters')
  .regex(/^\/(?![/\\])[^\s\\]*$/, 'The return address must be a path on this site, such as /audit');

/** The `returnTo` parameter of /plans, or null when it is missing or not a path on this site. */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value) return null;
  const parsed = returnPathSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export const createCheckoutSessionRequestSchema = z.object({
  productId: z.enum(productIds, { error: 'Unknown product' }),
  /** Where to come back to after paying; /dashboard when left out. */
  returnPath: returnPathSchema.optional(),
  userId: z.string().optional(),
  quantity: z.coerce
    .number({ error: 'Quantity must be a number' })
    .int('Quantity must be a whole number')
    .min(creditPack.minQuantity, `Quantity must be at least ${creditPack.minQuantity}`)
    .max(MAX_PACK_QUANTITY, `Quantity must be at most ${MAX_PACK_QUANTITY}`)
    .optional(),
});
export type CreateCheckoutSessionRequest = z.infer<typeof createCheckoutSessionRequestSchema>;

/**
 * `checkoutUrl` is the provider's hosted checkout, complete with every the product spec §7 query parameter
 * (`/buy/{providerProductId}?quantity&firstName&lastName&email&redirect_url`, email locked, redirect
 * to /dashboard). The browser just does `window.location.assign(checkoutUrl)` — it never builds the
 * URL itself. With the sandbox provider it is a same-origin path on this server.
 */
export const createCheckoutSessionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  checkoutUrl: z.string(),
  /** Our id of the pending checkout; payments made through it carry it back in the webhook. */
  checkoutId: z.string(),
});
export type CreateCheckoutSessionResponse = z.infer<typeof createCheckoutSessionResponseSchema>;

/** The hosted checkout's query parameters (the product spec §7), for the sandbox page. */
export const hostedCheckoutQuerySchema = z.object({
  quantity: z.coerce.number().int().min(1).max(MAX_PACK_QUANTITY).catch(1),
  firstName: z.string().max(200).optional(),
  lastName: z.string().max(200).optional(),
  email: z.string().max(300).optional(),
  redirect_url: z.string().max(2000).optional(),
  /** Our checkout id, echoed back in the webhook's metadata (Dodo's metadata_* convention). */
  metadata_checkout_id: z.string().max(100).optional(),
});

// ---------------------------------------------------------------------------------------------
// Subscription
// ---------------------------------------------------------------------------------------------

/**
 * Raw statuses the server stores and sends as `payment_status` and history `status`
 * (the provider's words); `paymentStatusLabel` turns them into the product spec §4's texts.
 */
export const paymentStatuses = [
  'active',
  'succeeded',
  'on_hold',
  'failed',
  'cancelled',
  'expired',
  'pending',
  'Payment Processing (Credits Added)',
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/** GET /users/subscription-details. Without any plan: 'Trial', 'Not Subscribed', null. */
export const subscriptionDetailsResponseSchema = z.object({
  subscription: z.object({
    /** 'Trial', 'Free', or a plan label such as 'Growth Monthly' / 'Pro Yearly'. */
    current_plan: z.string(),
    /** Raw status (see paymentStatuses) or 'Not Subscribed'. */
    payment_status: z.string(),
    /** ISO 8601 date-time of the next renewal; null when nothing renews (no plan, cancelled, expired). */
    next_renewal_date: z.string().nullable(),
    /** True after Cancel Renewal: the plan runs to `current_period_end`, then stops. */
    cancel_at_period_end: z.boolean(),
    current_period_end: z.string().nullable(),
  }),
});
export type SubscriptionDetailsResponse = z.infer<typeof subscriptionDetailsResponseSchema>;
export type SubscriptionDetails = SubscriptionDetailsResponse['subscription'];

export const defaultSubscriptionDetails: SubscriptionDetails = {
  current_plan: DEFAULT_PLAN_LABEL,
  payment_status: DEFAULT_PAYMENT_STATUS,
  next_renewal_date: null,
  cancel_at_period_end: false,
  current_period_end: null,
};

/**
 * PATCH /users/cancel-subscription. 200 `{success: true, message: 'Subscription cancelled successfully'}`;
 * 404 NOT_FOUND when there is no active paid plan to cancel. Credits already granted stay.
 */
export const cancelSubscriptionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});

// ---------------------------------------------------------------------------------------------
// Billing history
// ---------------------------------------------------------------------------------------------

export const billingHistoryQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1),
});

export const billingHistoryItemSchema = z.object({
  /** e.g. 'Growth Monthly (subscription)', 'Credit Pack × 3 (one-time)'; the browser strips the parentheses. */
  title: z.string(),
  /** Raw status: succeeded, failed, … */
  status: z.string(),
  /** ISO 8601. */
  date: z.string(),
  transactionId: z.string(),
  creditsAdded: z.number().int(),
});
export type BillingHistoryItem = z.infer<typeof billingHistoryItemSchema>;

/** GET /users/billing-history?page=N: newest first, BILLING_HISTORY_PAGE_SIZE per page; totalPages ≥ 1. */
export const billingHistoryResponseSchema = z.object({
  history: z.array(billingHistoryItemSchema),
  pagination: z.object({ currentPage: z.number().int(), totalPages: z.number().int() }),
});
export type BillingHistoryResponse = z.infer<typeof billingHistoryResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Legacy card routes
// ---------------------------------------------------------------------------------------------

/**
 * POST /stripe/free-plan → 200 `{success: true, message: 'Plan has been upgraded'}`. Grants nothing
 * (the 25 free credits come once, at email confirmation). Failure: 4xx with the usual
 * `{message, code}` plus `error` (same text) because the product spec's browser reads `error`.
 */
export const freePlanResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export const legacyErrorResponseSchema = errorResponseSchema.extend({
  error: z.string(),
});

/**
 * POST /stripe/verify-payment/{paymentId}: the stored payment of the signed-in user. `{paymentId}`
 * is what the /success page gets as `payment_intent` (the sandbox and Dodo redirects add
 * `payment_id`, the same value). A payment not recorded for this user (yet: a real provider may
 * redirect before its webhook arrives; or never: an unknown id or another user's) answers 200
 * `{success: false, status: 'pending'}` with empty details, so the page can ask again for a while
 * and nothing of another account is revealed.
 */
export const verifyPaymentResponseSchema = z.object({
  success: z.boolean(),
  /** succeeded | failed | pending */
  status: z.string(),
  message: z.string(),
  transactionId: z.string(),
  productId: z.string(),
  title: z.string(),
  creditsAdded: z.number().int(),
  /** US dollars. */
  amount: z.number(),
  date: z.string(),
});
export type VerifyPaymentResponse = z.infer<typeof verifyPaymentResponseSchema>;

/**
 * POST /stripe/checkout (the legacy card form at /checkout/{plan}?amount=…). `subscriptionPlan` is a
 * catalogue product id ('growth-monthly', 'credit-pack') or a plan id ('growth') whose period is
 * read from `amount` (19 → monthly, 189 → yearly); for the credit pack, `amount` / 3 is the quantity.
 * The server's price decides: an amount that matches nothing is 400. Answers `{clientSecret}`, which
 * the card form confirms with (sandbox: POST /payments/sandbox/confirm). 409 while another plan
 * renews; 404 when the configured provider has no card form (dodo: use the hosted checkout).
 */
export const legacyCheckoutRequestSchema = z.object({
  amount: z.coerce.number({ error: 'amount must be a number' }).positive('amount must be positive'),
  subscriptionPlan: z.string().min(1).max(100),
});
export const legacyCheckoutResponseSchema = z.object({ clientSecret: z.string() });

/**
 * POST /payments/sandbox/confirm: the sandbox provider's card confirmation (what Stripe.js'
 * confirmCardPayment does). No session needed: the client secret is the authority. 200
 * `{status: 'succeeded', paymentIntentId}` → go to `/success?payment_intent={paymentIntentId}`;
 * 402 PAYMENT_DECLINED or 400 with the provider's message (show it in red); nothing changes then.
 */
export const sandboxConfirmRequestSchema = z.object({
  clientSecret: z.string().min(1).max(300),
  cardNumber: z.string().max(40),
  expiry: z.string().max(10),
  cvc: z.string().max(10),
});
export const sandboxConfirmResponseSchema = z.object({
  status: z.literal('succeeded'),
  paymentIntentId: z.string(),
});

/** POST /webhooks/payments answers this on 200 (also for a replay). */
export const webhookAckResponseSchema = z.object({ received: z.literal(true), duplicate: z.boolean() });

// ---------------------------------------------------------------------------------------------
// Payment status display (the product spec §4), pure so the dashboard and its tests share it.
// ---------------------------------------------------------------------------------------------

export const PAYMENT_PROCESSING_STATUS = 'Payment Processing (Credits Added)';

export type PaymentStatusLabel =
  | 'Payment Successful'
  | 'Payment Failed'
  | 'Subscription Cancelled'
  | 'Plan Expired'
  | string;

export type PaymentStatusColour = 'red' | 'amber' | 'indigo';

/** active/succeeded → 'Payment Successful'; on_hold/failed → 'Payment Failed'; … ; others raw. */
export function paymentStatusLabel(status: string): PaymentStatusLabel {
  switch (status) {
    case 'active':
    case 'succeeded':
      return messages.payment.success;
    case 'on_hold':
    case 'failed':
      return 'Payment Failed';
    case 'cancelled':
      return 'Subscription Cancelled';
    case 'expired':
      return 'Plan Expired';
    default:
      return status;
  }
}

/** Failed red; cancelled, expired and processing amber; otherwise indigo (on the raw status). */
export function paymentStatusColour(status: string): PaymentStatusColour {
  const label = paymentStatusLabel(status);
  if (label === 'Payment Failed') return 'red';
  if (label === 'Subscription Cancelled' || label === 'Plan Expired' || label === PAYMENT_PROCESSING_STATUS)
    return 'amber';
  return 'indigo';
}

/** the product spec §4: Cancel Renewal only when the status reads 'Payment Successful'. */
export function canCancelRenewal(status: string): boolean {
  return paymentStatusLabel(status) === messages.payment.success;
}

/** the product spec §4: Add Credits (and Cancel Renewal) hidden while 'Payment Processing (Credits Added)'. */
export function showsAddCredits(status: string): boolean {
  return status !== PAYMENT_PROCESSING_STATUS;
}

/** 'Monthly' / 'Yearly' from a plan name containing that word (any case), else 'NA'. */
export function billingCycleLabel(currentPlan: string): 'Monthly' | 'Yearly' | typeof NOT_AVAILABLE {
  const lower = currentPlan.toLowerCase();
  if (lower.includes('monthly')) return 'Monthly';
  if (lower.includes('yearly')) return 'Yearly';
  return NOT_AVAILABLE;
}
