import { type BillingProduct, findBillingProduct } from '@altwise/contracts/billing';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from '../../db/client.ts';
import { unavailable } from '../../errors.ts';
import { findUserIdByEmail } from '../accounts/queries.ts';
import { grantCredits } from '../credits/service.ts';
import type { ProviderPayment, ProviderSubscription } from './payment-provider.ts';
import {
  countSucceededSubscriptionPayments,
  findCheckoutPayment,
  findCheckoutSession,
  findSubscriptionByProviderId,
  insertSubscription,
  setCheckoutSessionStatus,
  updateSubscription,
  upsertPayment,
} from './repository.ts';
import { addPeriod } from './sandbox-provider.ts';

export const subscriptionStatusByEvent: Record<string, string> = {
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
 * What a provider's payment or subscription event does to our records, whichever path reported it
 * (a webhook of any provider, or /stripe/verify-payment asking Stripe). Every credit movement goes
 * through modules/credits in the caller's transaction.
 */
export function createPaymentRecorder({ logger }: { logger: FastifyBaseLogger }) {
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

  return {
    /** Records a payment and credits a succeeded one once (ledger reference `payment:{provider}:{id}`). */
    async applyPayment(tx: Transaction, providerName: string, type: string, payment: ProviderPayment) {
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
      const checkoutPaid = checkout && !isRenewal ? await findCheckoutSession(tx, checkout.id, true) : null;
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
      if (checkoutPaid)
        await setCheckoutSessionStatus(tx, checkoutPaid.id, succeeded ? 'completed' : 'failed');
    },

    /** Moves a plan's status, dates and renewal; never credits (payments do). */
    async applySubscription(
      tx: Transaction,
      providerName: string,
      type: string,
      event: ProviderSubscription,
    ) {
      const { userId, checkout } = await resolveUser(tx, providerName, {
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
          provider: providerName,
          providerSubscriptionId: event.subscriptionId,
          productId,
          status,
          currentPeriodStart: event.periodStart,
          currentPeriodEnd: event.periodEnd,
          cancelAtPeriodEnd: event.cancelAtPeriodEnd,
        });
      }
      const existing = await findSubscriptionByProviderId(tx, providerName, event.subscriptionId, true);
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
    },
  };
}

export type PaymentRecorder = ReturnType<typeof createPaymentRecorder>;
