import { type ReactNode, useMemo } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { type PageNavigation, PageNavigationContext } from '../lib/navigation.tsx';

/** Gives the pages (lib/navigation.tsx) React Router's navigation, links and location state. */
export function RouterNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { state } = useLocation();
  const value = useMemo<PageNavigation>(
    () => ({ navigate: (to, options) => void navigate(to, options), state, Link }),
    [navigate, state],
  );
  return <PageNavigationContext value={value}>{children}</PageNavigationContext>;
}
