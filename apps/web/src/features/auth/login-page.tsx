import { routes } from '@altwise/contracts/routes';
import { ButtonLink } from '../../components/ui/button.tsx';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function LoginPage() {
  usePageTitle('Log in');
  return (
    <ComingSoon
      title="Login to Your Account"
      description="Sign in with your email and password or with Google here. Signing in opens in an upcoming release."
    >
      <ButtonLink to={routes.register} variant="secondary">
        Don't have an account? Register
      </ButtonLink>
    </ComingSoon>
  );
}
