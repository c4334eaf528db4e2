import { billingHistoryResponseSchema } from '@altwise/contracts/billing';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /users/billing-history?page=N: one server-side page of payments, newest first. */
export function getBillingHistory(page: number) {
  return api.get('/users/billing-history', { query: { page }, schema: billingHistoryResponseSchema });
}

export const billingHistoryKey = ['billing-history'] as const;

export const billingHistoryQuery = (page: number) =>
  queryOptions({
    queryKey: [...billingHistoryKey, page],
    queryFn: () => getBillingHistory(page),
    staleTime: 0,
    // Keep the current page on screen while the next one loads, so the pager does not jump.
    placeholderData: keepPreviousData,
  });

export function useBillingHistory(page: number) {
  return useQuery(billingHistoryQuery(page));
}
