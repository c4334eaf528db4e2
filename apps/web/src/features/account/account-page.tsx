import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function AccountPage() {
  usePageTitle('Account settings');
  return (
    <ComingSoon
      title="Account Settings"
      description="Update your first and last name and change your password here."
      backTo={routes.dashboard}
      backLabel="Back to dashboard"
    />
  );
}
