import {
  type CreateCheckoutSessionRequest,
  createCheckoutSessionResponseSchema,
} from '@altwise/contracts/billing';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * POST /payments/create-checkout-session. The server records the pending checkout for the signed-in
 * person and answers the provider's hosted checkout URL, complete with its query parameters.
 */
export function createCheckoutSession(body: CreateCheckoutSessionRequest) {
  return api.post('/payments/create-checkout-session', body, { schema: createCheckoutSessionResponseSchema });
}

/** Leaving for the hosted checkout is a full page load; an object so tests can replace it. */
export const hostedCheckout = {
  open(url: string): void {
    window.location.assign(url);
  },
};

/**
 * Creates the checkout session and, on success, sends the browser to the provider's hosted checkout
 * (the product spec §4 "Pricing checkout"). Callers show the failure ('Failed to initiate checkout').
 */
export function useCreateCheckoutSession() {
  return useMutation({
    mutationFn: createCheckoutSession,
    onSuccess: (response) => hostedCheckout.open(response.checkoutUrl),
  });
}
