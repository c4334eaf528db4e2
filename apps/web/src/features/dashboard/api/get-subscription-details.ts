import { subscriptionDetailsResponseSchema } from '@altwise/contracts/billing';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /users/subscription-details: current plan, raw payment status, next renewal date. */
export function getSubscriptionDetails() {
  return api.get('/users/subscription-details', { schema: subscriptionDetailsResponseSchema });
}

export const subscriptionDetailsQuery = queryOptions({
  queryKey: ['subscription'],
  queryFn: getSubscriptionDetails,
  staleTime: 0,
});

export function useSubscriptionDetails() {
  return useQuery(subscriptionDetailsQuery);
}
