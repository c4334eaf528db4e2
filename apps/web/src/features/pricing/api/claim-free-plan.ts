import { freePlanResponseSchema } from '@altwise/contracts/billing';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { subscriptionQueryKey } from '../../../lib/subscription.ts';

/** POST /stripe/free-plan (empty body). A refusal carries its reason in `error` (= `message`). */
export function claimFreePlan() {
  return api.post('/stripe/free-plan', undefined, { schema: freePlanResponseSchema });
}

export function useClaimFreePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: claimFreePlan,
    // The dashboard's plan card reads this; refetch it next time it is shown.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionQueryKey }),
  });
}
