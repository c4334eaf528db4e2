import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function PlansPage() {
  usePageTitle('Pricing');
  return (
    <ComingSoon
      title="Pricing"
      description="Monthly and yearly plans from Starter to Premium, plus 50-credit packs, will be listed here with their prices and credits."
    />
  );
}
