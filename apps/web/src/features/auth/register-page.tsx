import { routes } from '@altwise/contracts/routes';
import { ButtonLink } from '../../components/ui/button.tsx';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function RegisterPage() {
  usePageTitle('Create an Account');
  return (
    <ComingSoon
      title="Create an Account"
      description="Sign up with your email address or your Google account here. Registration opens in an upcoming release; your first 25 credits will be free."
    >
      <ButtonLink to={routes.login} variant="secondary">
        Already have an account? Login
      </ButtonLink>
    </ComingSoon>
  );
}
