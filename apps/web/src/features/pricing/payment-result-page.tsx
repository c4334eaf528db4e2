import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function PaymentResultPage() {
  usePageTitle('Payment verification');
  return (
    <ComingSoon
      title="Payment Verification"
      description="After a card payment, this page will verify it and show the result with its transaction id."
      backTo={routes.plans}
      backLabel="Back to pricing"
    />
  );
}
