import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../lib/auth.tsx';
import { needsQueryClient } from './pages-without-queries.ts';
import { appRoutes } from './router.tsx';

const contentOnly = ['/', '/blogs', '/blog', '/blog/post1', '/blog/post2', '/blog/post3'];

describe('pages without queries', () => {
  it('are the landing page and the blog; every other page gets the QueryClient', () => {
    for (const path of contentOnly) expect(needsQueryClient(path), path).toBe(false);
    expect(needsQueryClient('/blog/post1/')).toBe(false);
    for (const path of ['/plans', '/support', '/login', '/dashboard', '/checkout/growth', '/no-such-page']) {
      expect(needsQueryClient(path), path).toBe(true);
    }
  });

  it.each(contentOnly)('%s renders without any QueryClient, as it does in the app', async (path) => {
    // No QueryClientProvider here, unlike renderApp: a page on the list that used a query would fail.
    const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
    render(
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>,
    );
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Unexpected Application Error!')).not.toBeInTheDocument();
  });
});
