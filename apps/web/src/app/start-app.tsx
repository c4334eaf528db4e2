import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchRoutes } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { readToken } from '../lib/auth-storage.ts';
import { loadQueryProvider } from './page-query-provider.tsx';
import { needsQueryClient } from './pages-without-queries.ts';
import { AppProviders } from './providers.tsx';
import { appRoutes, createAppRouter } from './router.tsx';

/**
 * A prerendered public page (scripts/prerender.ts) arrives with its HTML in #root, marked with its path.
 * Anything else there (a server that answered with the wrong page) is dropped and rendered afresh.
 */
const normalizePath = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/**
 * Loads the current route's chunk before the first render, so that React takes over the prerendered HTML
 * with the same page at once instead of passing through the loading screen.
 */
async function loadCurrentRoute(): Promise<void> {
  const matches = matchRoutes(appRoutes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const resolved = await route.lazy();
      Object.assign(route, resolved, { lazy: undefined });
    }),
  );
}

function render(container: HTMLElement, prerendered: boolean) {
  const app = (
    <StrictMode>
      <AppProviders>
        <RouterProvider router={createAppRouter()} />
      </AppProviders>
    </StrictMode>
  );
  // The prerender shows the signed-out page: hydrate it (keeping the DOM, and anything already typed) for a
  // signed-out visitor; for a signed-in one, whose header differs, render afresh over it.
  if (prerendered && readToken() === null) hydrateRoot(container, app);
  else createRoot(container).render(app);
}

/** Pages without queries fetch TanStack Query when the browser is idle, ready for the next page. */
function prefetchQueryProvider() {
  const prefetch = () => void loadQueryProvider();
  if ('requestIdleCallback' in window) window.requestIdleCallback(prefetch, { timeout: 3000 });
  else setTimeout(prefetch, 1000);
}

/**
 * Renders the app into #root: src/main.tsx calls it, and so does the sign-in pages' entry when it hands over
 * to the app (ADR 038).
 */
export function startApp(): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('The #root element is missing from index.html.');
  const prerendered =
    container.firstElementChild !== null &&
    container.dataset.prerendered === normalizePath(window.location.pathname);
  const queryProviderReady = needsQueryClient(window.location.pathname) ? loadQueryProvider() : null;

  if (prerendered) {
    // Hydration must render what the prerender rendered, so everything the page needs is loaded first.
    Promise.all([loadCurrentRoute(), queryProviderReady]).then(
      () => render(container, prerendered),
      (error: unknown) => {
        // The router loads the chunk again and shows its own error screen if it still fails.
        console.error(error);
        render(container, prerendered);
      },
    );
  } else {
    render(container, prerendered);
  }
  if (!queryProviderReady) prefetchQueryProvider();
}
