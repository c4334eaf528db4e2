import { messages } from '@altwise/contracts/messages';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../components/ui/notify.ts';
import { readToken } from '../lib/auth-storage.ts';
import { findToast, json, mockApi, noGoogle } from '../test/mock-api.ts';
import { startPublicPage } from './public-page.ts';
import { startSignInPage } from './sign-in-page.tsx';

/** The prerendered /login as the sign-in entry finds it: an inert form in <main>, the toasts' region. */
function prerenderLogin() {
  window.history.replaceState(null, '', '/login');
  document.body.innerHTML = `<div id="root" data-prerendered="/login"><header><a href="/">Altwise</a></header>
    <main id="main"><form inert=""><h1>Login to Your Account</h1></form></main><footer></footer>
    <section aria-live="polite" aria-label="Notifications (top right)"></section></div>`;
}

afterEach(() => {
  notify.clear();
  localStorage.clear();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('the entry of the prerendered sign-in pages', () => {
  it('renders the login form without the router, signs in, then hands over to the app', async () => {
    prerenderLogin();
    mockApi({
      ...noGoogle,
      'POST /users/login': () =>
        json({
          status: 'success',
          message: 'ok',
          token: 'jwt-1',
          user: {
            id: 'u1',
            username: 'ada',
            email: 'ada@example.com',
            firstName: 'Ada',
            lastName: 'Lovelace',
          },
        }),
    });
    let appLoaded: () => void = () => {};
    const appCode = new Promise<void>((resolve) => (appLoaded = resolve));
    const startApp = vi.fn();
    startPublicPage(
      () => appCode.then(startApp),
      (handOver) => startSignInPage('/login', handOver, () => appCode),
    );

    expect(screen.getByRole('heading', { level: 1, name: 'Login to Your Account' })).toBeInTheDocument();
    expect(document.querySelector('form[inert]')).toBeNull();
    expect(screen.getAllByRole('region', { name: 'Notifications (top right)' })).toHaveLength(1);
    // Links are page loads: each leads to a prerendered page or the app's shell.
    expect(screen.getByRole('link', { name: "Don't have an account? Register" })).toHaveAttribute(
      'href',
      '/register',
    );

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email address'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await findToast(messages.login.success)).toBeInTheDocument();
    expect(readToken()).toBe('jwt-1');

    // The page and its address stay until the app's code is here; then the app starts at /dashboard.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(window.location.pathname).toBe('/login');
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    appLoaded();
    await waitFor(() => expect(startApp).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/dashboard');
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1 })).toBeNull());
  });
});
