import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { Link, useSearchParams } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { VerificationCard } from '../../components/ui/verification-card.tsx';
import { isUnauthorized } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useVerifyPayment } from './api/verify-payment.ts';

type Outcome =
  | { state: 'loading' }
  | { state: 'success'; transactionId: string }
  | { state: 'failed'; message: string; signIn?: boolean };

function useOutcome(paymentId: string | null): Outcome {
  const query = useVerifyPayment(paymentId);
  if (!paymentId) return { state: 'failed', message: messages.payment.verificationFailed };
  if (query.isPending) return { state: 'loading' };
  if (query.isError) {
    return { state: 'failed', message: messages.payment.error, signIn: isUnauthorized(query.error) };
  }
  const payment = query.data;
  if (payment.success && payment.status === 'succeeded') {
    return { state: 'success', transactionId: payment.transactionId };
  }
  // Still pending: the query asks again for a while before we call it failed.
  if (query.isPolling) return { state: 'loading' };
  return { state: 'failed', message: messages.payment.verificationFailed };
}

/** /success?payment_intent=… (the product spec §2, §8): verifies a card payment and says how it went. */
export function PaymentResultPage() {
  usePageTitle('Payment verification');
  const [searchParams] = useSearchParams();
  // The provider's redirect may name it payment_id; the legacy card flow names it payment_intent.
  const paymentId = searchParams.get('payment_intent') || searchParams.get('payment_id');
  const outcome = useOutcome(paymentId);

  return (
    <VerificationCard loading={outcome.state === 'loading'} verifying={messages.payment.verifying}>
      {outcome.state === 'loading' ? null : outcome.state === 'success' ? (
        <>
          <h1 className="text-2xl font-bold text-green-800">{messages.payment.success}</h1>
          <p className="mt-4 text-slate-800">
            Transaction ID: <span className="font-mono font-semibold break-all">{outcome.transactionId}</span>
          </p>
          <Link to={routes.images} className={buttonClasses({ className: 'mt-6' })}>
            Start using AI
          </Link>
        </>
      ) : (
        <>
          <h1 className="text-2xl font-bold text-red-800">{outcome.message}</h1>
          <p className="mt-4 text-slate-700">
            {outcome.signIn ? 'Log in to see your payment. ' : ''}Your dashboard shows every payment and your
            credits.
          </p>
          <Link
            to={outcome.signIn ? routes.login : routes.dashboard}
            className={buttonClasses({ variant: 'secondary', className: 'mt-6' })}
          >
            {outcome.signIn ? 'Log in' : 'Go to dashboard'}
          </Link>
        </>
      )}
    </VerificationCard>
  );
}
