import {
  creditsRemainingResponseSchema,
  type DeductCreditsRequest,
  deductCreditsResponseSchema,
  type RefundCreditsRequest,
  refundCreditsResponseSchema,
} from '@altwise/contracts/billing';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client.ts';

/**
 * The remaining-credits query and the two calls that move credits. Several features read or spend
 * credits (dashboard, scrape, upload, editor, reels) and features never import each other, so the one
 * query key lives here: after every spend or refund it is invalidated and every screen showing the
 * balance refetches (the product spec §4). Import this only from lazy pages: it pulls in the billing contracts.
 */
export const creditsQueryKey = ['credits', 'remaining'] as const;

/** GET /credits/remaining. A 401 removes the token (api-client) and the route guard sends to /login. */
export function getRemainingCredits() {
  return api.get('/credits/remaining', { schema: creditsRemainingResponseSchema });
}

export const remainingCreditsQuery = queryOptions({
  queryKey: creditsQueryKey,
  queryFn: getRemainingCredits,
  // A balance changes behind the page's back (webhooks, other tabs): never serve it from a stale cache.
  staleTime: 0,
});

export function useRemainingCredits() {
  return useQuery(remainingCreditsQuery);
}

/** POST /credits/deduct; keep `reservationId` of the answer: a refund must name it. */
export function deductCredits(body: DeductCreditsRequest) {
  return api.post('/credits/deduct', body, { schema: deductCreditsResponseSchema });
}

/** POST /credits/refund of (part of) an earlier deduct's reservation. */
export function refundCredits(body: RefundCreditsRequest) {
  return api.post('/credits/refund', body, { schema: refundCreditsResponseSchema });
}

/** Spends and refunds refetch the balance whether they succeed or not (a failure may still have moved it). */
export function useDeductCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deductCredits,
    onSettled: () => queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
  });
}

export function useRefundCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundCredits,
    onSettled: () => queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
  });
}
