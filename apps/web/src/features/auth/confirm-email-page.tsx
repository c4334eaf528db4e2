import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function ConfirmEmailPage() {
  usePageTitle('Email confirmation');
  return (
    <ComingSoon
      title="Email Confirmation"
      description="The link from your confirmation email will be checked here, and you will then be able to log in."
    />
  );
}
