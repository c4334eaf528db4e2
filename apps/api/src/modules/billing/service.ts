import {
  BILLING_HISTORY_PAGE_SIZE,
  type BillingHistoryResponse,
  type BillingProduct,
  billingProducts,
  type CreateCheckoutSessionRequest,
  type CreateCheckoutSessionResponse,
  defaultSubscriptionDetails,
  findBillingProduct,
  type SubscriptionDetails,
  type VerifyPaymentResponse,
} from '@altwise/contracts/billing';
import { DEFAULT_PAYMENT_STATUS } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { freePlan } from '@altwise/contracts/plans';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client.ts';
import type { Subscription } from '../../db/tables/subscriptions.ts';
import {
  badGateway,
  badRequest,
  conflict,
  forbidden,
  notFound,
  unauthorized,
  unavailable,
} from '../../errors.ts';
import { grantCredits } from '../credits/service.ts';
import type {
  PaymentEvent,
  PaymentProvider,
  ProviderPayment,
  ProviderSubscription,
} from './payment-provider.ts';
import {
  countSucceededSubscriptionPayments,
  countUserPayments,
  findBuyer,
  findCheckoutPayment,
  findCheckoutSession,
  findCurrentSubscription,
  findSubscriptionByProviderId,
  findUserIdByEmail,
  findUserPayment,
  insertCheckoutSession,
  insertSubscription,
  insertWebhookEvent,
  listUserPayments,
  lockCheckoutSession,
  setCheckoutSessionStatus,
  updateSubscription,
  upsertPayment,
} from './repository.ts';
import { createSandboxPaymentService } from './sandbox-payment-service.ts';
import { addPeriod, type SandboxProvider } from './sandbox-provider.ts';
import { type WebhookHeaders, WebhookVerificationError } from './standard-webhooks.ts';
import { amountCentsFor, type CardPaymentProvider } from './stripe-provider.ts';

/** The free plan's row in `subscriptions` (provider 'free'). */
const FREE_PROVIDER = 'free';
/** Paid plans in these states still renew (or try to): a second plan would bill twice. */
const liveStatuses = new Set(['active', 'on_hold', 'pending']);

const subscriptionStatusByEvent: Record<string, string> = {
  'subscription.active': 'active',
  'subscription.renewed': 'active',
  'subscription.on_hold': 'on_hold',
  'subscription.failed': 'failed',
  'subscription.cancelled': 'cancelled',
  'subscription.expired': 'expired',
};

function paymentTitle(product: BillingProduct, quantity: number): string {
  return product.kind === 'plan'
    ? `${product.label} Plan (subscription)`
    : `Credit Pack × ${quantity} (one-time)`;
}

/**
 * The legacy card form sends `{amount, subscriptionPlan}`: a product id, or a plan id whose period
 * the amount tells; for the pack the amount is a multiple of its price. Our prices decide.
 */
export function productForAmount(
  subscriptionPlan: string,
  amount: number,
): { product: BillingProduct; quantity: number } | null {
  const key = subscriptionPlan.trim().toLowerCase();
  const direct = findBillingProduct(key);
  if (direct?.kind === 'pack') {
    const quantity = amount / direct.amount;
    return Number.isInteger(quantity) && quantity >= 1 ? { product: direct, quantity } : null;
  }
  const candidates = direct
    ? [direct]
    : billingProducts.filter((p) => p.kind === 'plan' && p.plan.id === key);
  const product = candidates.find((p) => p.amount === amount);
  return product ? { product, quantity: 1 } : null;
}

/**
 * A Stripe payment we made for one of our checkouts, for the catalogue's price. Anything else on
 * the Stripe account (another integration's payment, an edited amount) is never credited.
 */
function isOurCardPayment(payment: ProviderPayment): boolean {
  const product = payment.productId ? findBillingProduct(payment.productId) : undefined;
  return (
    product !== undefined &&
    payment.checkoutId !== null &&
    payment.amountCents === amountCentsFor(product, payment.quantity)
  );
}

function isRenewing(subscription: Subscription): boolean {
  return (
    subscription.provider !== FREE_PROVIDER &&
    liveStatuses.has(subscription.status) &&
    !subscription.cancelAtPeriodEnd
  );
}

export type BillingServiceDeps = {
  db: Database;
  provider: PaymentProvider;
  /** The embedded provider when it is the configured one: it also backs the legacy card form. */
  sandbox: SandboxProvider | null;
  /** Stripe when STRIPE_SECRET_KEY is set: then it, not the sandbox, backs the legacy card form. */
  card?: CardPaymentProvider | null;
  publicUrl: string;
  logger: FastifyBaseLogger;
};

/**
 * Checkout, provider webhooks, the current plan, cancel, billing history and payment verification.
 * Every credit movement goes through modules/credits in the transaction that records its cause.
 */
export function createBillingService({
  db,
  provider,
  sandbox,
  card = null,
  publicUrl,
  logger,
}: BillingServiceDeps) {
  const sandboxPayments = sandbox ? createSandboxPaymentService({ db, sandbox }) : null;

  async function assertNoRenewingPlan(userId: string) {
    const current = await findCurrentSubscription(db, userId);
    if (current && isRenewing(current))
      throw conflict(
        `You already have an active plan (${findBillingProduct(current.productId)?.label ?? current.productId}). Cancel its renewal before choosing another.`,
      );
  }

  /** Who a provider event belongs to: our checkout id, a known subscription, then the buyer's email. */
  async function resolveUser(
    tx: Transaction,
    providerName: string,
    refs: { checkoutId: string | null; subscriptionId: string | null; email: string | null },
  ) {
    const checkout = refs.checkoutId ? await findCheckoutSession(tx, refs.checkoutId) : null;
    const subscription = refs.subscriptionId
      ? await findSubscriptionByProviderId(tx, providerName, refs.subscriptionId)
      : null;
    const userId =
      subscription?.userId ??
      checkout?.userId ??
      (refs.email ? await findUserIdByEmail(tx, refs.email) : null);
    return { userId, checkout, subscription };
  }

  /** Records a payment and credits a succeeded one once (ledger reference `payment:{provider}:{id}`). */
  async function applyPayment(tx: Transaction, providerName: string, type: string, payment: ProviderPayment) {
    const { userId, checkout, subscription } = await resolveUser(tx, providerName, {
      checkoutId: payment.checkoutId,
      subscriptionId: payment.subscriptionId,
      email: payment.customerEmail,
    });
    if (!userId) {
      logger.error({ paymentId: payment.paymentId }, 'payment webhook for no known user; nothing recorded');
      return;
    }
    const succeeded = type === 'payment.succeeded';
    const isRenewal =
      succeeded &&
      payment.subscriptionId !== null &&
      (await countSucceededSubscriptionPayments(tx, providerName, payment.subscriptionId)) > 0;
    // A checkout is paid once. Renewals carry the metadata of the checkout that started the
    // subscription but are the subscription's payments, not the checkout's.
    const checkoutPaid = checkout && !isRenewal ? await lockCheckoutSession(tx, checkout.id) : null;
    if (checkoutPaid && succeeded) {
      const paid = await findCheckoutPayment(tx, checkoutPaid.id);
      if (paid && paid.providerPaymentId !== payment.paymentId) {
        logger.error(
          { paymentId: payment.paymentId, checkoutId: checkoutPaid.id, paidBy: paid.providerPaymentId },
          'a second payment for a checkout already paid; not credited',
        );
        return;
      }
    }
    const productId = payment.productId ?? subscription?.productId ?? checkout?.productId ?? '';
    const product = findBillingProduct(productId);
    // Not knowable yet (e.g. a renewal whose subscription event has not arrived): the provider retries.
    if (!product) throw unavailable('The product of this payment is not known yet; retry later.');
    const quantity = product.kind === 'pack' ? payment.quantity : 1;
    const credits = succeeded ? product.credits * quantity : 0;
    await upsertPayment(tx, {
      userId,
      provider: providerName,
      providerPaymentId: payment.paymentId,
      checkoutSessionId: checkoutPaid?.id ?? null,
      providerSubscriptionId: payment.subscriptionId,
      productId: product.id,
      quantity,
      title: paymentTitle(product, quantity),
      status: succeeded ? 'succeeded' : 'failed',
      amountCents: payment.amountCents,
      currency: payment.currency,
      creditsAdded: credits,
    });
    if (succeeded) {
      // One paid period or pack = one payment id = one ledger reference: credited exactly once.
      await grantCredits(
        tx,
        userId,
        credits,
        isRenewal ? 'renewal' : 'purchase',
        `payment:${providerName}:${payment.paymentId}`,
      );
      // A plan paid without a provider subscription (a Stripe PaymentIntent) is one paid period that
      // does not renew: it is the current plan until its end, already marked as ending there.
      if (product.kind === 'plan' && payment.subscriptionId === null) {
        const start = new Date();
        await insertSubscription(tx, {
          userId,
          provider: providerName,
          providerSubscriptionId: payment.paymentId,
          productId: product.id,
          status: 'active',
          currentPeriodStart: start,
          currentPeriodEnd: addPeriod(start, product.period),
          cancelAtPeriodEnd: true,
        });
      }
    }
    if (checkoutPaid) await setCheckoutSessionStatus(tx, checkoutPaid.id, succeeded ? 'completed' : 'failed');
  }

  async function applySubscription(tx: Transaction, type: string, event: ProviderSubscription) {
    const { userId, checkout } = await resolveUser(tx, provider.name, {
      checkoutId: event.checkoutId,
      subscriptionId: event.subscriptionId,
      email: event.customerEmail,
    });
    const status = subscriptionStatusByEvent[type];
    if (!userId || !status) {
      logger.error(
        { subscriptionId: event.subscriptionId },
        'subscription webhook for no known user; ignored',
      );
      return;
    }
    const productId = event.productId ?? checkout?.productId ?? null;
    if (productId && findBillingProduct(productId)?.kind === 'plan') {
      await insertSubscription(tx, {
        userId,
        provider: provider.name,
        providerSubscriptionId: event.subscriptionId,
        productId,
        status,
        currentPeriodStart: event.periodStart,
        currentPeriodEnd: event.periodEnd,
        cancelAtPeriodEnd: event.cancelAtPeriodEnd,
      });
    }
    const existing = await findSubscriptionByProviderId(tx, provider.name, event.subscriptionId, true);
    if (!existing) {
      logger.error(
        { subscriptionId: event.subscriptionId },
        'subscription webhook for an unknown plan; ignored',
      );
      return;
    }
    // After Cancel Renewal a late 'active' must not bring renewal back; a paid 'renewed' period may.
    const keepCancel = existing.cancelAtPeriodEnd && type === 'subscription.active';
    await updateSubscription(tx, existing.id, {
      status: keepCancel ? existing.status : status,
      cancelAtPeriodEnd: keepCancel ? true : event.cancelAtPeriodEnd || status === 'cancelled',
      currentPeriodStart: event.periodStart ?? existing.currentPeriodStart,
      currentPeriodEnd: event.periodEnd ?? existing.currentPeriodEnd,
      ...(productId && findBillingProduct(productId)?.kind === 'plan' ? { productId } : {}),
    });
  }

  return {
    async createCheckoutSession(
      userId: string,
      request: CreateCheckoutSessionRequest,
    ): Promise<CreateCheckoutSessionResponse> {
      if (request.userId !== undefined && request.userId !== userId)
        throw forbidden('You can only start a checkout for your own account.');
      const product = findBillingProduct(request.productId);
      if (!product) throw notFound('Unknown product');
      const buyer = await findBuyer(db, userId);
      if (!buyer) throw unauthorized();
      if (product.kind === 'plan') await assertNoRenewingPlan(userId);
      const quantity = product.kind === 'pack' ? (request.quantity ?? 1) : 1;
      const checkoutId = await insertCheckoutSession(db, {
        userId,
        provider: provider.name,
        productId: product.id,
        quantity,
      });
      // The sandbox checkout is on this origin, so a path is enough (and works behind Vite's proxy).
      const redirectUrl = provider.name === 'sandbox' ? '/dashboard' : `${publicUrl}/dashboard`;
      const { checkoutUrl } = await provider.createCheckout({
        checkoutId,
        product,
        quantity,
        customer: buyer,
        redirectUrl,
      });
      return { success: true, message: 'Checkout session created', checkoutUrl, checkoutId };
    },

    /**
     * POST /stripe/checkout: the legacy card form's checkout. With Stripe, a PaymentIntent for the
     * catalogue's price; otherwise paid through the sandbox. The client's amount only picks a product.
     */
    async createCardCheckout(userId: string, request: { amount: number; subscriptionPlan: string }) {
      if (!card && !sandbox)
        throw notFound('Card checkout is not available with this payment provider; use the hosted checkout.');
      const resolved = productForAmount(request.subscriptionPlan, request.amount);
      if (!resolved) throw badRequest("The amount does not match the plan's price.");
      const { product, quantity } = resolved;
      if (product.kind === 'plan') await assertNoRenewingPlan(userId);
      const checkoutId = await insertCheckoutSession(db, {
        userId,
        provider: card?.name ?? provider.name,
        productId: product.id,
        quantity,
      });
      if (!card) return { clientSecret: (sandbox as SandboxProvider).clientSecretFor(checkoutId) };
      const buyer = await findBuyer(db, userId);
      if (!buyer) throw unauthorized();
      try {
        const { clientSecret } = await card.createCardPayment({
          checkoutId,
          userId,
          product,
          quantity,
          email: buyer.email,
        });
        return { clientSecret };
      } catch (error) {
        logger.error({ err: error, checkoutId }, 'creating a Stripe PaymentIntent failed');
        throw badGateway('The card payment could not be started. Please try again in a moment.', error);
      }
    },

    /** The sandbox's test-card payments (hosted page and card form); null with another provider. */
    sandboxPayments,

    /** POST /payments/sandbox/confirm: charges a test card for the checkout the client secret names. */
    async confirmSandboxPayment(request: {
      clientSecret: string;
      cardNumber: string;
      expiry: string;
      cvc: string;
    }) {
      if (!sandboxPayments) throw badRequest('This payment link is not valid.');
      return sandboxPayments.confirmCardPayment(request);
    },

    /** POST /webhooks/payments: 401 for a bad signature; a replayed event id changes nothing. */
    /**
     * POST /webhooks/payments: 401 for a bad signature; a replayed event id changes nothing. A
     * request with a Stripe-Signature header is Stripe's (only when STRIPE_SECRET_KEY is set).
     */
    async handleWebhook(rawBody: string, headers: WebhookHeaders) {
      const fromStripe = headers['stripe-signature'] !== undefined;
      let event: PaymentEvent;
      try {
        if (fromStripe && !card) throw new WebhookVerificationError('Stripe webhooks are not configured');
        event = (fromStripe && card ? card : provider).parseWebhook(rawBody, headers);
      } catch (error) {
        if (error instanceof WebhookVerificationError) throw unauthorized(error.message);
        throw error;
      }
      const source = fromStripe && card ? card.name : provider.name;
      const fresh = await db.transaction(async (tx) => {
        const inserted = await insertWebhookEvent(tx, {
          provider: source,
          eventId: event.eventId,
          type: event.type,
        });
        if (!inserted) return false;
        if (fromStripe && event.payment && !isOurCardPayment(event.payment)) {
          logger.warn(
            { paymentId: event.payment.paymentId },
            'Stripe event for no checkout of ours; ignored',
          );
          return true;
        }
        if (event.payment && (event.type === 'payment.succeeded' || event.type === 'payment.failed'))
          await applyPayment(tx, source, event.type, event.payment);
        else if (!fromStripe && event.subscription && event.type in subscriptionStatusByEvent)
          await applySubscription(tx, event.type, event.subscription);
        return true;
      });
      logger.info(
        { provider: source, eventId: event.eventId, type: event.type, duplicate: !fresh },
        'payment webhook',
      );
      return { received: true as const, duplicate: !fresh };
    },

    async subscriptionDetails(userId: string): Promise<{ subscription: SubscriptionDetails }> {
      const current = await findCurrentSubscription(db, userId);
      if (!current) return { subscription: defaultSubscriptionDetails };
      if (current.provider === FREE_PROVIDER)
        return {
          subscription: {
            ...defaultSubscriptionDetails,
            current_plan: freePlan.name,
            payment_status: DEFAULT_PAYMENT_STATUS,
          },
        };
      const renewing = isRenewing(current) && current.status === 'active';
      return {
        subscription: {
          current_plan: findBillingProduct(current.productId)?.label ?? current.productId,
          payment_status: current.status,
          next_renewal_date: renewing ? (current.currentPeriodEnd?.toISOString() ?? null) : null,
          cancel_at_period_end: current.cancelAtPeriodEnd,
          current_period_end: current.currentPeriodEnd?.toISOString() ?? null,
        },
      };
    },

    /** Renewal stops at the end of the paid period; credits already granted stay. */
    async cancelSubscription(userId: string) {
      const current = await findCurrentSubscription(db, userId);
      if (!current || !isRenewing(current)) throw notFound('You have no active subscription to cancel.');
      if (current.provider !== provider.name)
        throw conflict(
          'This subscription belongs to another payment provider; contact support to cancel it.',
        );
      await provider.cancelSubscription(current.providerSubscriptionId);
      await updateSubscription(db, current.id, { status: 'cancelled', cancelAtPeriodEnd: true });
      return { success: true as const, message: messages.subscription.cancelSuccess };
    },

    async billingHistory(userId: string, page: number): Promise<BillingHistoryResponse> {
      const total = await countUserPayments(db, userId);
      const totalPages = Math.max(1, Math.ceil(total / BILLING_HISTORY_PAGE_SIZE));
      const currentPage = Math.min(Math.max(1, page), totalPages);
      const rows = await listUserPayments(
        db,
        userId,
        BILLING_HISTORY_PAGE_SIZE,
        (currentPage - 1) * BILLING_HISTORY_PAGE_SIZE,
      );
      return {
        history: rows.map((row) => ({
          title: row.title,
          status: row.status,
          date: row.createdAt.toISOString(),
          transactionId: row.providerPaymentId,
          creditsAdded: row.creditsAdded,
        })),
        pagination: { currentPage, totalPages },
      };
    },

    /** Sets the free plan; grants nothing (the 25 free credits come once, at email confirmation). */
    async selectFreePlan(userId: string) {
      const current = await findCurrentSubscription(db, userId);
      if (current && isRenewing(current))
        throw conflict('You have an active paid plan. Cancel its renewal before switching to the free plan.');
      await db.transaction(async (tx) => {
        const providerSubscriptionId = `free:${userId}`;
        await insertSubscription(tx, {
          userId,
          provider: FREE_PROVIDER,
          providerSubscriptionId,
          productId: freePlan.id,
          status: 'active',
        });
        const row = await findSubscriptionByProviderId(tx, FREE_PROVIDER, providerSubscriptionId, true);
        // Choosing it again makes it the current plan again.
        if (row) await updateSubscription(tx, row.id, { status: 'active', createdAt: new Date() });
      });
      return { success: true as const, message: messages.freePlan.success };
    },

    /**
     * The payment behind /success, only the caller's own ('pending' otherwise). A Stripe payment not
     * yet settled here is asked of Stripe and, when it succeeded, credited now through the webhook's
     * path (once per payment id, whichever comes first).
     */
    async verifyPayment(userId: string, paymentId: string): Promise<VerifyPaymentResponse> {
      let payment = await findUserPayment(db, userId, paymentId);
      let unsettled: 'pending' | 'failed' = 'pending';
      if (card && payment?.status !== 'succeeded' && card.ownsPaymentId(paymentId)) {
        const current = await card.retrieveCardPayment(paymentId).catch((error: unknown) => {
          logger.error({ err: error, paymentId }, 'retrieving a Stripe PaymentIntent failed');
          throw badGateway(
            'The payment could not be checked with the card provider. Please try again.',
            error,
          );
        });
        // Another account's payment is treated as unknown: nothing is credited or revealed.
        if (current && current.userId === userId) {
          if (current.status === 'succeeded' && isOurCardPayment(current)) {
            await db.transaction((tx) => applyPayment(tx, card.name, 'payment.succeeded', current));
            payment = await findUserPayment(db, userId, paymentId);
          } else if (current.status === 'succeeded')
            logger.error({ paymentId }, 'Stripe payment does not match its checkout; not credited');
          else if (
            current.status === 'canceled' ||
            (current.status === 'requires_payment_method' && current.errorMessage)
          )
            unsettled = 'failed';
        }
      }
      if (!payment)
        return {
          success: false,
          status: unsettled,
          message: unsettled === 'failed' ? messages.payment.verificationFailed : messages.payment.verifying,
          transactionId: paymentId,
          productId: '',
          title: '',
          creditsAdded: 0,
          amount: 0,
          date: new Date().toISOString(),
        };
      const succeeded = payment.status === 'succeeded';
      return {
        success: succeeded,
        status: payment.status,
        message: succeeded ? messages.payment.success : messages.payment.verificationFailed,
        transactionId: payment.providerPaymentId,
        productId: payment.productId,
        title: payment.title,
        creditsAdded: payment.creditsAdded,
        amount: payment.amountCents / 100,
        date: payment.createdAt.toISOString(),
      };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;

/**
 * The current plan's label ('Trial', 'Free', 'Growth Monthly', …) for other modules (the profile's
 * `subscriptionPlan`), without building the billing service.
 */
export async function findCurrentPlanLabel(db: Database, userId: string): Promise<string> {
  const current = await findCurrentSubscription(db, userId);
  if (!current) return defaultSubscriptionDetails.current_plan;
  if (current.provider === FREE_PROVIDER) return freePlan.name;
  return findBillingProduct(current.productId)?.label ?? current.productId;
}
