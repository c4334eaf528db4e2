import type { ProductId } from '@altwise/contracts/billing';
import DodoPayments from 'dodopayments';
import { badGateway } from '../../errors.ts';
import {
  hostedCheckoutQuery,
  type PaymentProvider,
  parseDodoFormatWebhook,
  signsStandardWebhook,
} from './payment-provider.ts';

const checkoutHosts = {
  test_mode: 'https://test.checkout.dodopayments.com',
  live_mode: 'https://checkout.dodopayments.com',
} as const;

export type DodoOptions = {
  apiKey: string;
  webhookSecret: string;
  environment: 'test_mode' | 'live_mode';
  productIds: Record<ProductId, string>;
};

/**
 * Dodo Payments: its static hosted checkout `/buy/{productId}` with the product spec §7's query parameters
 * (the checkout id rides along as `metadata_checkout_id` and comes back in every event's metadata),
 * the official SDK to cancel renewal, and Standard Webhooks signatures on events.
 */
export function createDodoProvider(
  options: DodoOptions,
  client?: Pick<DodoPayments, 'subscriptions'>,
): PaymentProvider {
  const sdk = client ?? new DodoPayments({ bearerToken: options.apiKey, environment: options.environment });
  const catalogueIdByDodoId = new Map(
    Object.entries(options.productIds).map(([ours, theirs]) => [theirs, ours]),
  );
  return {
    name: 'dodo',

    async createCheckout(input) {
      const dodoProductId = options.productIds[input.product.id];
      // Dodo's page is on its own origin: it sends the buyer back to an absolute URL of ours.
      const query = hostedCheckoutQuery(input, `${input.publicUrl}${input.returnPath}`);
      return {
        checkoutUrl: `${checkoutHosts[options.environment]}/buy/${encodeURIComponent(dodoProductId)}?${query}`,
      };
    },

    async cancelSubscription(providerSubscriptionId) {
      try {
        await sdk.subscriptions.update(providerSubscriptionId, { cancel_at_next_billing_date: true });
      } catch (error) {
        throw badGateway('The payment provider did not accept the cancellation. Please try again.', error);
      }
    },

    signsWebhook: signsStandardWebhook,

    // Dodo sends this business's events only; each names its checkout or subscription.
    isOurPayment: () => true,

    parseWebhook(rawBody, headers) {
      return parseDodoFormatWebhook(
        options.webhookSecret,
        rawBody,
        headers,
        (id) => catalogueIdByDodoId.get(id) ?? null,
      );
    },
  };
}
