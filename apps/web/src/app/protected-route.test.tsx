import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, storeSession } from '../test/render-app.tsx';

describe('protected routes', () => {
  it('shows Loading, then sends a signed-out visitor to /login, remembering where they wanted to go', async () => {
    const { router } = renderApp('/dashboard?tab=billing');
    expect(await screen.findByText('Loading')).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Login to Your Account' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toEqual({
      from: { pathname: '/dashboard', search: '?tab=billing', hash: '' },
    });
  });

  it('guards the signed-in routes too', async () => {
    for (const path of ['/images', '/account', '/help', '/reel-generator', '/scrape', '/checkout/pro']) {
      const { router, unmount } = renderApp(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
      unmount();
    }
  });

  it('accepts ?token=, stores it, logs the person in and removes it from the address', async () => {
    const { router } = renderApp('/dashboard?token=abc.def.ghi&tab=billing');
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: /^Welcome, / })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('abc.def.ghi');
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(router.state.location.search).toBe('?tab=billing');
    // The signed-in bar replaces the public one.
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('lets a person with a stored token straight in', async () => {
    storeSession();
    renderApp('/images');
    expect(await screen.findByRole('heading', { level: 1, name: 'Images' })).toBeInTheDocument();
  });

  it('sends the person to /login when their token is cleared (e.g. by a 401)', async () => {
    storeSession();
    const { router } = renderApp('/account');
    await screen.findByRole('heading', { level: 1, name: 'Account Settings' });
    const { clearToken } = await import('../lib/auth-storage.ts');
    clearToken();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('leaves public routes open', async () => {
    renderApp('/plans');
    expect(await screen.findByRole('heading', { level: 1, name: 'Pricing' })).toBeInTheDocument();
    // The title is set in an effect after the page renders; the previous test's title may linger until then.
    await waitFor(() => expect(document.title).toBe('Pricing – Altwise'));
  });
});
