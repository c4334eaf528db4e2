import { type VerifyPaymentResponse, verifyPaymentResponseSchema } from '@altwise/contracts/billing';
import { type Query, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

const POLL_MS = 2000;
const MAX_POLLS = 15;

/** POST /stripe/verify-payment/{paymentId}: the payment the hosted checkout just sent the person back with. */
export function getReturnedPayment(paymentId: string) {
  return api.post(`/stripe/verify-payment/${encodeURIComponent(paymentId)}`, undefined, {
    schema: verifyPaymentResponseSchema,
  });
}

function stillPending(query: Pick<Query<VerifyPaymentResponse>, 'state'>): boolean {
  return query.state.data?.status === 'pending' && query.state.dataUpdateCount < MAX_POLLS;
}

/**
 * A real provider may redirect before its webhook has arrived: while the payment is still 'pending' it is
 * asked about again every 2 s, for up to 30 s.
 */
export function useReturnedPayment(paymentId: string | null) {
  return useQuery({
    queryKey: ['returned-payment', paymentId],
    queryFn: () => getReturnedPayment(paymentId ?? ''),
    enabled: Boolean(paymentId),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: (query) => (stillPending(query) ? POLL_MS : false),
  });
}
