import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchRoutes } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers.tsx';
import { appRoutes, createAppRouter } from './app/router.tsx';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html.');

/**
 * A prerendered public page (scripts/prerender.ts) arrives with its HTML in #root. Load its route's chunk
 * before the first render, so React replaces that HTML with the same page at once instead of passing
 * through the loading screen.
 */
async function loadPrerenderedRoute(): Promise<void> {
  if (!container?.firstElementChild) return;
  const matches = matchRoutes(appRoutes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const resolved = await route.lazy();
      Object.assign(route, resolved, { lazy: undefined });
    }),
  );
}

function render() {
  const router = createAppRouter();
  createRoot(container as HTMLElement).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

loadPrerenderedRoute().then(render, (error: unknown) => {
  // The router loads the chunk again and shows its own error screen if it still fails.
  console.error(error);
  render();
});
