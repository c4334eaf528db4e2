import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function FreePlanPage() {
  usePageTitle('Free plan');
  return (
    <ComingSoon
      title="Free Plan"
      description="Confirm the free plan here: $0 a month, 25 credits, 1 user and basic support."
      backTo={routes.plans}
      backLabel="Back to pricing"
    />
  );
}
