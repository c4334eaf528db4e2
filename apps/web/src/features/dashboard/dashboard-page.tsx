import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function DashboardPage() {
  usePageTitle('Dashboard');
  return (
    <ComingSoon
      title="Dashboard"
      description="Your account overview will live here: profile, remaining credits, your plan and renewal date, your image library count and payment history."
    />
  );
}
