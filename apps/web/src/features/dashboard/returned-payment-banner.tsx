import { messages } from '@altwise/contracts/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { creditsQueryKey } from '../../lib/credits.ts';
import { subscriptionQueryKey } from '../../lib/subscription.ts';
import { billingHistoryKey } from './api/get-billing-history.ts';
import { useReturnedPayment } from './api/get-returned-payment.ts';
import { transactionTitle } from './billing-display.ts';

/**
 * After the hosted checkout sends the person back (`/dashboard?payment_id=…`): says whether the payment
 * went through and, once it has, refetches the credits, the plan and the history, which may have been
 * read before the provider's webhook arrived.
 */
export function ReturnedPaymentBanner({
  paymentId,
  onDismiss,
}: {
  paymentId: string;
  onDismiss: () => void;
}) {
  const queryClient = useQueryClient();
  const payment = useReturnedPayment(paymentId);
  const status = payment.data?.status;

  useEffect(() => {
    if (status !== 'succeeded') return;
    void queryClient.invalidateQueries({ queryKey: creditsQueryKey });
    void queryClient.invalidateQueries({ queryKey: subscriptionQueryKey });
    void queryClient.invalidateQueries({ queryKey: billingHistoryKey });
  }, [status, queryClient]);

  // An unknown or someone else's payment id in the address: nothing to say about it.
  if (payment.isError) return null;
  if (payment.isPending || status === 'pending') {
    return <MessageBanner type="loading">Confirming your payment...</MessageBanner>;
  }
  if (status === 'succeeded') {
    return (
      <MessageBanner type="success" onDismiss={onDismiss}>
        Thank you! {transactionTitle(payment.data.title)} is paid and{' '}
        {payment.data.creditsAdded.toLocaleString('en-US')} credits were added to your account.
      </MessageBanner>
    );
  }
  return (
    <MessageBanner type="error" onDismiss={onDismiss}>
      {messages.payment.verificationFailed}
    </MessageBanner>
  );
}
