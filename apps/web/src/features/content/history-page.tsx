import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function HistoryPage() {
  usePageTitle('Content history');
  return (
    <ComingSoon
      title="Content History"
      description="The blog posts you generated will be listed here, newest first."
      backTo={routes.dashboard}
      backLabel="Back to dashboard"
    />
  );
}
