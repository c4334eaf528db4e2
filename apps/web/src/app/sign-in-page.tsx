import { routes } from '@altwise/contracts/routes';
import { type ReactNode, StrictMode } from 'react';
import { createPortal, flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { Toaster } from '../components/ui/toaster.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { RegisterPage } from '../features/auth/register-page.tsx';
import { AuthProvider } from '../lib/auth.tsx';
import { type PageNavigation, PageNavigationContext } from '../lib/navigation.tsx';
import { QueryProvider } from './query-provider.tsx';

const pages: Readonly<Record<string, () => ReactNode>> = {
  [routes.login]: LoginPage,
  [routes.register]: RegisterPage,
};

function PlainLink({ to, className, children }: { to: string; className?: string; children: ReactNode }) {
  return (
    <a href={to} className={className}>
      {children}
    </a>
  );
}

/** React Router keeps `navigate(to, { state })` in `history.state.usr`; a reload of the page keeps it. */
function historyState(): unknown {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && 'usr' in state ? state.usr : null;
}

/**
 * The sign-in pages without the app (ADR 038): React renders the page's own component (the same one the app
 * routes to) into the prerendered <main>, with the providers it needs and no router. Its links are page
 * loads; its navigations (after signing in, or Google's "no account" to /register) load the app, change the
 * address and hand over to the app, which renders that address. Returns the function that unmounts it.
 */
export function startSignInPage(
  pathname: string,
  handOver: (beforeApp?: () => Promise<void>) => void,
  preloadApp: () => Promise<unknown>,
): () => void {
  const Page = pages[pathname];
  const container = document.getElementById('root');
  const main = document.getElementById('main');
  if (!Page || !container || !main) {
    handOver();
    return () => {};
  }
  const navigation: PageNavigation = {
    state: historyState(),
    Link: PlainLink,
    // The address changes once the app's code is here, and the app renders it: until then the page stays.
    navigate: (to, options) =>
      handOver(async () => {
        await preloadApp();
        if (options?.replace) window.history.replaceState(null, '', to);
        else window.history.pushState(null, '', to);
      }),
  };
  // The prerender wrote the Toaster's (empty) regions after the page frame: React's take their place.
  for (const region of container.querySelectorAll(':scope > section[aria-live]')) region.remove();
  const root = createRoot(main);
  // Rendered at once over the prerendered page (the same markup), which the prerender made inert.
  flushSync(() =>
    root.render(
      <StrictMode>
        <AuthProvider>
          <QueryProvider>
            <PageNavigationContext value={navigation}>
              <Page />
            </PageNavigationContext>
          </QueryProvider>
          {/* Where the app has it: in #root after the page frame, not inside <main> (one set of landmarks). */}
          {createPortal(<Toaster />, container)}
        </AuthProvider>
      </StrictMode>,
    ),
  );
  return () => root.unmount();
}
