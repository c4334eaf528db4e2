import { subscriptionDetailsResponseSchema } from '@altwise/contracts/billing';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

/**
 * The current plan query. The dashboard shows it and cancels it; claiming the free plan (pricing)
 * changes it, and features never import each other, so the one query and its key live here.
 * Import this only from lazy pages: it pulls in the billing contracts.
 */
export const subscriptionQueryKey = ['subscription'] as const;

/** GET /users/subscription-details: current plan, raw payment status, next renewal date. */
export function getSubscriptionDetails() {
  return api.get('/users/subscription-details', { schema: subscriptionDetailsResponseSchema });
}

export const subscriptionDetailsQuery = queryOptions({
  queryKey: subscriptionQueryKey,
  queryFn: getSubscriptionDetails,
  // A plan changes behind the page's back (webhooks, other tabs): never serve it from a stale cache.
  staleTime: 0,
});

export function useSubscriptionDetails() {
  return useQuery(subscriptionDetailsQuery);
}
