import {
  type BillingProduct,
  billingProducts,
  findBillingProduct,
  type VerifyPaymentResponse,
} from '@altwise/contracts/billing';
import { messages } from '@altwise/contracts/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { badGateway, badRequest, notFound, unauthorized } from '../../errors.ts';
import { findContactOf } from '../accounts/queries.ts';
import type { CardPaymentProvider } from './payment-provider.ts';
import type { PaymentRecorder } from './payment-recording.ts';
import { assertNoRenewingPlan } from './plan-service.ts';
import { findUserPayment, insertCheckoutSession } from './repository.ts';

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
 * The legacy card form (POST /stripe/checkout) and the /success page's check of a payment
 * (POST /stripe/verify-payment/{id}), on whichever card provider runs: Stripe with
 * STRIPE_SECRET_KEY, else the sandbox, else none (404).
 */
export function createCardService({
  db,
  card,
  recorder,
  logger,
}: {
  db: Database;
  card: CardPaymentProvider | null;
  recorder: PaymentRecorder;
  logger: FastifyBaseLogger;
}) {
  return {
    /**
     * POST /stripe/checkout: the legacy card form's checkout, for the catalogue's price (with Stripe
     * a PaymentIntent, with the sandbox its client secret). The client's amount only picks a product.
     */
    async createCardCheckout(userId: string, request: { amount: number; subscriptionPlan: string }) {
      if (!card)
        throw notFound('Card checkout is not available with this payment provider; use the hosted checkout.');
      const resolved = productForAmount(request.subscriptionPlan, request.amount);
      if (!resolved) throw badRequest("The amount does not match the plan's price.");
      const { product, quantity } = resolved;
      if (product.kind === 'plan') await assertNoRenewingPlan(db, userId);
      const checkoutId = await insertCheckoutSession(db, {
        userId,
        provider: card.name,
        productId: product.id,
        quantity,
      });
      const buyer = await findContactOf(db, userId);
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
        logger.error({ err: error, checkoutId }, 'creating a card payment failed');
        throw badGateway('The card payment could not be started. Please try again in a moment.', error);
      }
    },

    /**
     * The payment behind /success, only the caller's own ('pending' otherwise). A card payment not
     * yet settled here is asked of its provider (Stripe) and, when it succeeded, credited now through the webhook's
     * path (once per payment id, whichever comes first).
     */
    async verifyPayment(userId: string, paymentId: string): Promise<VerifyPaymentResponse> {
      let payment = await findUserPayment(db, userId, paymentId);
      let unsettled: 'pending' | 'failed' = 'pending';
      if (card && payment?.status !== 'succeeded' && card.ownsPaymentId(paymentId)) {
        const current = await card.retrieveCardPayment(paymentId).catch((error: unknown) => {
          logger.error({ err: error, paymentId }, 'retrieving a card payment failed');
          throw badGateway(
            'The payment could not be checked with the card provider. Please try again.',
            error,
          );
        });
        // Another account's payment is treated as unknown: nothing is credited or revealed.
        if (current && current.userId === userId) {
          if (current.status === 'succeeded' && card.isOurPayment(current)) {
            await db.transaction((tx) => recorder.applyPayment(tx, card.name, 'payment.succeeded', current));
            payment = await findUserPayment(db, userId, paymentId);
          } else if (current.status === 'succeeded')
            logger.error({ paymentId }, 'card payment does not match its checkout; not credited');
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
