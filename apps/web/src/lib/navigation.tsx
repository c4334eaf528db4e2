import { type ComponentType, createContext, type ReactNode, use, useEffect } from 'react';

export type NavigateOptions = { replace?: boolean };

/**
 * How a page navigates, without naming the router: the sign-in pages also run in their light entry
 * (src/sign-in.tsx, ADR 038), where React renders the page but React Router is not loaded. In the app,
 * AppShell provides React Router's navigation (app/router-navigation.tsx).
 */
export type PageNavigation = {
  navigate: (to: string, options?: NavigateOptions) => void;
  /** The state of the current history entry (`location.state`), e.g. the route guard's `{ from }`. */
  state: unknown;
  /** A link to a path: React Router's `Link` in the app, a plain anchor in the light entry. */
  Link: ComponentType<{ to: string; className?: string; children: ReactNode }>;
};

export const PageNavigationContext = createContext<PageNavigation | null>(null);

export function usePageNavigation(): PageNavigation {
  const navigation = use(PageNavigationContext);
  if (!navigation) throw new Error('usePageNavigation must be used inside a PageNavigationContext.');
  return navigation;
}

/** A link through the page's navigation (see PageNavigation). */
export function PageLink(props: { to: string; className?: string; children: ReactNode }) {
  const { Link } = usePageNavigation();
  return <Link {...props} />;
}

/** Replaces the current page with `to` once rendered, as React Router's `<Navigate replace>` does. */
export function Redirect({ to }: { to: string }) {
  const { navigate } = usePageNavigation();
  useEffect(() => navigate(to, { replace: true }), [navigate, to]);
  return null;
}
