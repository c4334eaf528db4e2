import { type BillingProduct, findBillingProduct } from '@altwise/contracts/billing';
import { errorCodes } from '@altwise/contracts/errors';
import type { Database } from '../../db/client.ts';
import type { CheckoutSession } from '../../db/tables/checkout-sessions.ts';
import { AppError, badGateway, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { findContactOf } from '../accounts/queries.ts';
import { claimCheckoutSession, findCheckoutSession, releaseCheckoutSession } from './repository.ts';
import type { SandboxCharge, SandboxChargeResult, SandboxProvider } from './sandbox-provider.ts';

/** What the hosted sandbox page shows: all of it from the checkout session, none from the link. */
export type HostedCheckout = {
  checkoutId: string;
  product: BillingProduct;
  quantity: number;
  buyer: { firstName: string; lastName: string; email: string };
};

/** Why a checkout cannot be claimed for a payment now. */
const alreadyPaid = (status: string) =>
  status === 'completed'
    ? 'This payment has already been made.'
    : 'A payment for this checkout is already being processed.';

/**
 * Paying a checkout with the sandbox's test cards, from its two front doors: the hosted page at
 * /buy/{productId} (authorised by the checkout token made for the session's creator) and the
 * legacy card form's POST /payments/sandbox/confirm (authorised by the client secret). Either way
 * the account, product and quantity come from the checkout session, and one checkout is charged
 * at most once, however many attempts race (ADR 020).
 */
export function createSandboxPaymentService({ db, sandbox }: { db: Database; sandbox: SandboxProvider }) {
  /** Claims the checkout, charges the card once and gives the claim back when nothing was charged. */
  async function chargeCheckout(
    checkoutId: string,
    card: SandboxCharge['card'],
    expectedProduct?: BillingProduct,
  ): Promise<{ checkout: CheckoutSession; result: SandboxChargeResult }> {
    const existing = await findCheckoutSession(db, checkoutId);
    if (!existing || (expectedProduct && existing.productId !== expectedProduct.id))
      throw notFound('This checkout does not exist.');
    // Of any number of concurrent attempts, one claims the checkout; the others are refused.
    const checkout = await claimCheckoutSession(db, checkoutId);
    if (!checkout) throw conflict(alreadyPaid(existing.status));
    const product = findBillingProduct(checkout.productId);
    const buyer = await findContactOf(db, checkout.userId);
    if (!product || !buyer) {
      await releaseCheckoutSession(db, checkoutId);
      throw notFound('This checkout does not exist.');
    }
    const result = await sandbox.charge({
      product,
      quantity: checkout.quantity,
      checkoutId,
      email: buyer.email,
      name: `${buyer.firstName} ${buyer.lastName}`.trim(),
      card,
    });
    // Nothing was charged: the checkout can be paid again. After a 'delivery' failure the card was
    // charged, so the checkout stays claimed.
    if (!result.ok && result.reason !== 'delivery') await releaseCheckoutSession(db, checkoutId);
    return { checkout, result };
  }

  /** The checkout the link names, when its token is ours, unexpired, and it can still be paid. */
  async function authorise(productId: string, checkoutId: string, token: string): Promise<HostedCheckout> {
    const product = findBillingProduct(productId);
    if (!product) throw notFound('This product does not exist.');
    const check = checkoutId && token ? sandbox.checkCheckoutToken(checkoutId, token) : 'invalid';
    if (check === 'expired')
      throw forbidden('This checkout link has expired. Start the checkout again from the pricing page.');
    if (check !== 'valid')
      throw forbidden(
        'This checkout link is not valid. Start the checkout from the pricing page while signed in.',
      );
    const checkout = await findCheckoutSession(db, checkoutId);
    const buyer = checkout ? await findContactOf(db, checkout.userId) : null;
    if (!checkout || !buyer || checkout.productId !== product.id)
      throw notFound('This checkout does not exist.');
    if (checkout.status !== 'pending' && checkout.status !== 'failed')
      throw conflict(alreadyPaid(checkout.status));
    return {
      checkoutId,
      product,
      quantity: product.kind === 'pack' ? checkout.quantity : 1,
      buyer,
    };
  }

  return {
    /** GET /buy/{productId}: the order and buyer to show. Throws 403/404/409 AppErrors. */
    openHostedCheckout(productId: string, checkoutId: string, token: string) {
      return authorise(productId, checkoutId, token);
    },

    /** POST /buy/{productId}: pays the authorised checkout with a test card. */
    async payHostedCheckout(
      productId: string,
      checkoutId: string,
      token: string,
      card: SandboxCharge['card'],
    ): Promise<{ checkout: HostedCheckout; result: SandboxChargeResult }> {
      const checkout = await authorise(productId, checkoutId, token);
      const { result } = await chargeCheckout(checkoutId, card, checkout.product);
      return { checkout, result };
    },

    /** POST /payments/sandbox/confirm: charges a test card for the checkout the client secret names. */
    async confirmCardPayment(request: {
      clientSecret: string;
      cardNumber: string;
      expiry: string;
      cvc: string;
    }) {
      const checkoutId = sandbox.checkoutIdFromClientSecret(request.clientSecret);
      if (!checkoutId || !(await findCheckoutSession(db, checkoutId)))
        throw badRequest('This payment link is not valid.');
      const { result } = await chargeCheckout(checkoutId, {
        number: request.cardNumber,
        expiry: request.expiry,
        cvc: request.cvc,
      });
      if (result.ok) return { status: 'succeeded' as const, paymentIntentId: result.paymentId };
      if (result.reason === 'declined') throw new AppError(errorCodes.paymentDeclined, result.message);
      if (result.reason === 'invalid') throw badRequest(result.message);
      throw badGateway(result.message);
    },
  };
}

export type SandboxPaymentService = ReturnType<typeof createSandboxPaymentService>;
