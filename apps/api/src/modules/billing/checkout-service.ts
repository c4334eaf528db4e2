import {
  type CreateCheckoutSessionRequest,
  type CreateCheckoutSessionResponse,
  findBillingProduct,
} from '@altwise/contracts/billing';
import type { Database } from '../../db/client.ts';
import { notFound, unauthorized } from '../../errors.ts';
import { findContactOf } from '../accounts/queries.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { assertNoRenewingPlan } from './plan-service.ts';
import { insertCheckoutSession } from './repository.ts';

/**
 * Where a provider sends the buyer back to after paying, unless the request named a path on this
 * site (the contract refuses anything else, so the checkout can never redirect off-site).
 */
const RETURN_PATH = '/dashboard';

/**
 * The hosted checkout (POST /payments/create-checkout-session): records the signed-in user's
 * checkout and answers the configured provider's checkout URL. The payment arrives by webhook.
 */
export function createCheckoutService({
  db,
  provider,
  publicUrl,
}: {
  db: Database;
  provider: PaymentProvider;
  publicUrl: string;
}) {
  return {
    async createCheckoutSession(
      userId: string,
      request: CreateCheckoutSessionRequest,
    ): Promise<CreateCheckoutSessionResponse> {
      const product = findBillingProduct(request.productId);
      if (!product) throw notFound('Unknown product');
      const buyer = await findContactOf(db, userId);
      if (!buyer) throw unauthorized();
      if (product.kind === 'plan') await assertNoRenewingPlan(db, userId);
      const quantity = product.kind === 'pack' ? (request.quantity ?? 1) : 1;
      const checkoutId = await insertCheckoutSession(db, {
        userId,
        provider: provider.name,
        productId: product.id,
        quantity,
      });
      const { checkoutUrl } = await provider.createCheckout({
        checkoutId,
        product,
        quantity,
        customer: buyer,
        returnPath: request.returnPath ?? RETURN_PATH,
        publicUrl,
      });
      return { success: true, message: 'Checkout session created', checkoutUrl, checkoutId };
    },
  };
}
