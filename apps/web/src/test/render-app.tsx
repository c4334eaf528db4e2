import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { appRoutes } from '../app/router.tsx';
import { Toaster } from '../components/ui/toaster.tsx';
import { AuthProvider } from '../lib/auth.tsx';
import { createQueryClient } from '../lib/query-client.ts';

/** Renders the real route table at `path`, with the real providers; full-page navigations are recorded. */
export function renderApp(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const navigateTo = vi.fn<(url: string) => void>();
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthProvider navigateTo={navigateTo}>
        <RouterProvider router={router} />
        <Toaster />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, navigateTo };
}

export function storeSession(token = 'stored-token') {
  localStorage.setItem('token', token);
  localStorage.setItem(
    'user',
    JSON.stringify({
      id: 'u1',
      username: 'ada',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
    }),
  );
  localStorage.setItem('userId', 'u1');
}
