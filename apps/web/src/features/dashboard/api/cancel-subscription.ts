import { cancelSubscriptionResponseSchema } from '@altwise/contracts/billing';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { subscriptionQueryKey } from '../../../lib/subscription.ts';
import { billingHistoryKey } from './get-billing-history.ts';

/** PATCH /users/cancel-subscription: renewal stops at the end of the paid period. */
export function cancelSubscription() {
  return api.patch('/users/cancel-subscription', undefined, { schema: cancelSubscriptionResponseSchema });
}

/** Refetches the subscription (and the history) whether the cancel worked or not. */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionQueryKey }),
        queryClient.invalidateQueries({ queryKey: billingHistoryKey }),
      ]),
  });
}
