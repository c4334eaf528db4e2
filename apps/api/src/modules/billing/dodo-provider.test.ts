import { findBillingProduct, type ProductId, productIds } from '@altwise/contracts/billing';
import { describe, expect, it } from 'vitest';
import { createDodoProvider } from './dodo-provider.ts';
import { signWebhook, WebhookVerificationError } from './standard-webhooks.ts';

const secret = 'whsec_c2VjcmV0LWZvci1kb2RvLXdlYmhvb2stdGVzdHM=';
const productIdsConfig = Object.fromEntries(productIds.map((id) => [id, `pdt_${id}`])) as Record<
  ProductId,
  string
>;

function provider(updates: unknown[] = []) {
  const client = {
    subscriptions: {
      update: async (id: string, body: unknown) => {
        updates.push({ id, body });
        return {};
      },
    },
  } as never;
  return createDodoProvider(
    { apiKey: 'key', webhookSecret: secret, environment: 'test_mode', productIds: productIdsConfig },
    client,
  );
}

describe('dodo provider', () => {
  it('sends the buyer to Dodo’s hosted /buy/{productId} with the product spec query parameters', async () => {
    const product = findBillingProduct('credit-pack');
    if (!product) throw new Error('no pack');
    const { checkoutUrl } = await provider().createCheckout({
      checkoutId: 'chk-1',
      product,
      quantity: 3,
      customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
      returnPath: '/dashboard',
      publicUrl: 'https://altwise.example',
    });
    const url = new URL(checkoutUrl);
    expect(url.origin).toBe('https://test.checkout.dodopayments.com');
    expect(url.pathname).toBe('/buy/pdt_credit-pack');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      quantity: '3',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      disableEmail: 'true',
      redirect_url: 'https://altwise.example/dashboard',
      metadata_checkout_id: 'chk-1',
    });
  });

  it('cancels renewal at the next billing date through the SDK', async () => {
    const updates: unknown[] = [];
    await provider(updates).cancelSubscription('sub_1');
    expect(updates).toEqual([{ id: 'sub_1', body: { cancel_at_next_billing_date: true } }]);
  });

  it('verifies Standard Webhooks signatures and maps Dodo product ids back to the catalogue', () => {
    const body = JSON.stringify({
      type: 'subscription.renewed',
      data: {
        subscription_id: 'sub_1',
        product_id: 'pdt_growth-yearly',
        status: 'active',
        next_billing_date: '2027-01-01T00:00:00Z',
        previous_billing_date: '2026-01-01T00:00:00Z',
        metadata: { checkout_id: 'chk-1' },
      },
    });
    const event = provider().parseWebhook(body, signWebhook(secret, 'evt_1', body));
    expect(event).toMatchObject({
      eventId: 'evt_1',
      type: 'subscription.renewed',
      subscription: { subscriptionId: 'sub_1', productId: 'growth-yearly', checkoutId: 'chk-1' },
    });
    expect(() =>
      provider().parseWebhook(body, signWebhook('whsec_b3RoZXItc2VjcmV0LWZvci1kb2RvLXRlc3Rz', 'evt_1', body)),
    ).toThrow(WebhookVerificationError);
  });
});
