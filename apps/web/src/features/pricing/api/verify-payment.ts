import { type VerifyPaymentResponse, verifyPaymentResponseSchema } from '@altwise/contracts/billing';
import { type Query, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** How often, and how many times, a payment the provider has not settled yet is asked about again. */
export const VERIFY_POLL_MS = 2000;
export const VERIFY_MAX_POLLS = 15;

/** POST /stripe/verify-payment/{paymentId} (empty body): the stored payment of the signed-in person. */
export function verifyPayment(paymentId: string) {
  return api.post(`/stripe/verify-payment/${encodeURIComponent(paymentId)}`, undefined, {
    schema: verifyPaymentResponseSchema,
  });
}

/** Whether a payment's answer is 'pending' and it will be asked about again. */
export function isStillPolling(query: Pick<Query<VerifyPaymentResponse>, 'state'>): boolean {
  return query.state.data?.status === 'pending' && query.state.dataUpdateCount < VERIFY_MAX_POLLS;
}

export const verifyPaymentQuery = (paymentId: string) =>
  queryOptions({
    queryKey: ['verify-payment', paymentId],
    queryFn: () => verifyPayment(paymentId),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    // A payment still 'pending' (its webhook not in yet) is asked about again for up to 30 s.
    refetchInterval: (query) => (isStillPolling(query) ? VERIFY_POLL_MS : false),
  });

export function useVerifyPayment(paymentId: string | null) {
  const queryClient = useQueryClient();
  const options = verifyPaymentQuery(paymentId ?? '');
  const result = useQuery({ ...options, enabled: Boolean(paymentId) });
  const query = queryClient.getQueryCache().find<VerifyPaymentResponse>({ queryKey: options.queryKey });
  return { ...result, isPolling: query ? isStillPolling(query) : false };
}
