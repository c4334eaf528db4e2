import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { useAuth } from '../../lib/auth.tsx';
import { PageQueryProvider } from '../page-query-provider.tsx';
import { RouterNavigation } from '../router-navigation.tsx';
import { SiteFooter } from './site-footer.tsx';
import { PublicHeader, SignedInHeader } from './site-header.tsx';

/**
 * After a client-side navigation, move focus to the new page's h1 (or main) so keyboard and screen-reader
 * users start at the new content, as they would after a full page load.
 */
function useFocusOnNavigation() {
  const { pathname } = useLocation();
  // Compare with the previous path rather than counting renders: StrictMode runs effects twice on mount.
  const previousPathname = useRef(pathname);
  useEffect(() => {
    if (previousPathname.current === pathname) return;
    previousPathname.current = pathname;
    const target = document.querySelector<HTMLElement>('main h1') ?? document.getElementById('main');
    if (!target) return;
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  }, [pathname]);
}

/**
 * The prerender makes its forms inert until the app has taken the page over (scripts/prerender.ts,
 * ADR 027); this runs once the page inside the same Suspense boundary has been hydrated.
 */
function ReleasePrerenderedForms() {
  useEffect(() => {
    for (const form of document.querySelectorAll('#root form[inert]')) form.removeAttribute('inert');
  }, []);
  return null;
}

/** The page frame: skip link, the public or signed-in header chosen by auth state, main, footer. */
export function AppShell() {
  const { isAuthenticated } = useAuth();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const isNavigating = navigation.state !== 'idle';
  useFocusOnNavigation();

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="fixed top-2 left-2 z-50 -translate-y-[200%] rounded-md bg-white px-4 py-2 font-semibold text-indigo-800 shadow-lg focus:translate-y-0"
      >
        Skip to content
      </a>
      {isNavigating ? (
        <div
          className="fixed inset-x-0 top-0 z-50 h-1 bg-indigo-600 motion-safe:animate-pulse"
          aria-hidden="true"
        />
      ) : null}
      {/* Printed pages (the audit report) are the content alone. */}
      <div className="print:hidden">{isAuthenticated ? <SignedInHeader /> : <PublicHeader />}</div>
      <main id="main" tabIndex={-1} className="flex-1" aria-busy={isNavigating || undefined}>
        <PageQueryProvider pathname={pathname}>
          <RouterNavigation>
            <Outlet />
          </RouterNavigation>
          <ReleasePrerenderedForms />
        </PageQueryProvider>
      </main>
      <div className="print:hidden">
        <SiteFooter />
      </div>
      <ScrollRestoration />
    </div>
  );
}
