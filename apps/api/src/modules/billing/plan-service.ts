import {
  BILLING_HISTORY_PAGE_SIZE,
  type BillingHistoryResponse,
  defaultSubscriptionDetails,
  findBillingProduct,
  type SubscriptionDetails,
} from '@altwise/contracts/billing';
import { DEFAULT_PAYMENT_STATUS } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { freePlan } from '@altwise/contracts/plans';
import type { Database } from '../../db/client.ts';
import type { Subscription } from '../../db/tables/subscriptions.ts';
import { conflict, notFound } from '../../errors.ts';
import type { PaymentProvider } from './payment-provider.ts';
import {
  countUserPayments,
  findCurrentSubscription,
  findSubscriptionByProviderId,
  insertSubscription,
  listUserPayments,
  updateSubscription,
} from './repository.ts';

/** The free plan's row in `subscriptions` (provider 'free'). */
const FREE_PROVIDER = 'free';
/** Paid plans in these states still renew (or try to): a second plan would bill twice. */
const liveStatuses = new Set(['active', 'on_hold', 'pending']);

function isRenewing(subscription: Subscription): boolean {
  return (
    subscription.provider !== FREE_PROVIDER &&
    liveStatuses.has(subscription.status) &&
    !subscription.cancelAtPeriodEnd
  );
}

/** 409 while a paid plan still renews: a second plan, by any path, would bill twice. */
export async function assertNoRenewingPlan(db: Database, userId: string) {
  const current = await findCurrentSubscription(db, userId);
  if (current && isRenewing(current))
    throw conflict(
      `You already have an active plan (${findBillingProduct(current.productId)?.label ?? current.productId}). Cancel its renewal before choosing another.`,
    );
}

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

/** The current plan, cancel renewal, the free plan and the billing history. */
export function createPlanService({ db, provider }: { db: Database; provider: PaymentProvider }) {
  return {
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
  };
}
