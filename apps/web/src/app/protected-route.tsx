import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { useEffect, useMemo, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Spinner } from '../components/ui/spinner.tsx';
import { useAuth } from '../lib/auth.tsx';

export const tokenParam = 'token';

/** Where /login sends the person back to after signing in. */
export type LoginRedirectState = { from: { pathname: string; search: string; hash: string } };

/**
 * The protected-route wrapper of the product spec §2/§4. A `?token=` in the URL (e.g. a link from a sign-in email or
 * the payment provider) is stored as the login token, the person is logged in and the parameter is removed
 * from the address bar so it does not linger in history or get shared. Until that check is done the wrapper
 * shows Loading; then it renders the page, or redirects to /login remembering where they wanted to go.
 */
export function ProtectedRoute() {
  const { isAuthenticated, login } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const urlToken = searchParams.get(tokenParam);
  const locationState: unknown = location.state;
  const [checked, setChecked] = useState(false);
  // Navigate re-navigates whenever its props change identity, so the state object must be stable.
  const redirectState = useMemo<LoginRedirectState>(
    () => ({ from: { pathname: location.pathname, search: location.search, hash: location.hash } }),
    [location.pathname, location.search, location.hash],
  );

  useEffect(() => {
    let cancelled = false;
    async function check() {
      if (urlToken) {
        await login({ token: urlToken });
        if (cancelled) return;
        const rest = new URLSearchParams(location.search);
        rest.delete(tokenParam);
        const search = rest.toString();
        navigate(
          { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
          { replace: true, state: locationState },
        );
      }
      if (!cancelled) setChecked(true);
    }
    void check();
    return () => {
      cancelled = true;
    };
  }, [urlToken, login, navigate, location.pathname, location.search, location.hash, locationState]);

  if (!checked || urlToken) {
    return (
      <div role="status" className="flex items-center justify-center gap-3 py-24 text-slate-800">
        <Spinner className="size-6 text-indigo-700" />
        <span>{messages.common.loading}</span>
      </div>
    );
  }

  if (!isAuthenticated) {
    return <Navigate to={routes.login} replace state={redirectState} />;
  }

  return <Outlet />;
}
