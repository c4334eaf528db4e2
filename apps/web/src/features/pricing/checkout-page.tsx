import { findPlan } from '@altwise/contracts/plans';
import { routes } from '@altwise/contracts/routes';
import { useParams } from 'react-router';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function CheckoutPage() {
  const { plan: planId = '' } = useParams();
  const plan = findPlan(planId);
  const title = plan ? `Checkout: ${plan.name} plan` : 'Checkout';
  usePageTitle(title);
  return (
    <ComingSoon
      title={title}
      description={
        plan
          ? `Card payment for the ${plan.name} plan will happen here, through our payment provider's secure form.`
          : 'Card payment for a plan will happen here. Choose a plan on the pricing page first.'
      }
      backTo={routes.plans}
      backLabel="Back to pricing"
    />
  );
}
