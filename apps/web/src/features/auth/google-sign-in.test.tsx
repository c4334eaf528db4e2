import { GOOGLE_SCRIPT_RETRIES } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../components/ui/notify.ts';
import { findToast, json, mockApi } from '../../test/mock-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { decodeGoogleCredential, type GoogleAccountsId } from './google-identity.ts';

const base64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const credential = `${base64url({ alg: 'RS256' })}.${base64url({
  email: 'grace@example.com',
  sub: 'google-123',
  given_name: 'Grace',
  family_name: 'Hopper',
})}.signature`;

const sessionUser = {
  id: 'u2',
  username: 'grace',
  email: 'grace@example.com',
  firstName: 'Grace',
  lastName: 'Hopper',
};

/** A stand-in for Google's script: its button hands our callback a credential. */
function fakeGoogle() {
  const fake = {
    initialize: vi.fn<GoogleAccountsId['initialize']>(),
    renderButton: vi.fn<GoogleAccountsId['renderButton']>((parent) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Sign in with Google';
      button.addEventListener('click', () => {
        fake.initialize.mock.calls.at(-1)?.[0].callback({ credential });
      });
      parent.append(button);
    }),
  };
  window.google = { accounts: { id: fake } };
  return fake;
}

afterEach(() => {
  notify.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  delete window.google;
});

describe('Google sign-in', () => {
  it('decodes the informational claims of a credential and survives garbage', () => {
    expect(decodeGoogleCredential(credential)).toEqual({
      email: 'grace@example.com',
      sub: 'google-123',
      given_name: 'Grace',
      family_name: 'Hopper',
    });
    expect(decodeGoogleCredential('not a token')).toEqual({});
  });

  it('signs a new person up: sends the credential and fields, welcomes, mails and opens the dashboard', async () => {
    const google = fakeGoogle();
    const calls = mockApi({
      'GET /config': () => json({ googleClientId: 'client-1' }),
      'POST /users/auth/google': () =>
        json({ status: 'success', isExistingUser: false, message: 'x', token: 'jwt-g', user: sessionUser }),
      'POST /email/registration': () => json({ success: true }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/register');
    await user.click(await screen.findByRole('button', { name: 'Sign in with Google' }, { timeout: 5000 }));
    expect(google.initialize.mock.calls[0]?.[0].client_id).toBe('client-1');
    expect(google.renderButton.mock.calls[0]?.[1]).toMatchObject({ text: 'signup_with' });
    expect(screen.getByText('OR')).toBeInTheDocument();

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls.find((c) => c.path === '/users/auth/google')?.body).toEqual({
      credential,
      email: 'grace@example.com',
      googleId: 'google-123',
      firstName: 'Grace',
      lastName: 'Hopper',
      provider: 'google',
    });
    expect(await findToast(messages.google.created)).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/email/registration')?.body).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
    });
    expect(localStorage.getItem('token')).toBe('jwt-g');
  });

  it('tells an existing person they were logged in automatically', async () => {
    fakeGoogle();
    mockApi({
      'GET /config': () => json({ googleClientId: 'client-1' }),
      'POST /users/auth/google': () =>
        json({ status: 'success', isExistingUser: true, message: 'x', token: 'jwt-g', user: sessionUser }),
    });
    const user = userEvent.setup();
    renderApp('/register');
    await user.click(await screen.findByRole('button', { name: 'Sign in with Google' }, { timeout: 5000 }));
    expect(await findToast(messages.google.alreadyRegistered)).toBeInTheDocument();
  });

  it("logs in with isLogin, and sends an unknown account to /register with 'Account not found'", async () => {
    fakeGoogle();
    const calls = mockApi({
      'GET /config': () => json({ googleClientId: 'client-1' }),
      'POST /users/auth/google': () =>
        json({ message: messages.login.accountNotFound, code: 'NOT_FOUND' }, 404),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in with Google' }, { timeout: 5000 }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/register'));
    expect(await findToast(messages.login.accountNotFound)).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/users/auth/google')?.body).toMatchObject({ isLogin: true });
  });

  it("says 'Login failed. Please try again.' when the server refuses the credential", async () => {
    fakeGoogle();
    mockApi({
      'GET /config': () => json({ googleClientId: 'client-1' }),
      'POST /users/auth/google': () => json({ message: 'invalid', code: 'UNAUTHORIZED' }, 401),
    });
    const user = userEvent.setup();
    renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in with Google' }, { timeout: 5000 }));
    expect(await findToast(messages.login.googleFailed)).toBeInTheDocument();
  });

  it(`retries initialising the button ${GOOGLE_SCRIPT_RETRIES} times, 1 s apart, then says it is unavailable`, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({ 'GET /config': () => json({ googleClientId: 'client-1' }) });
    renderApp('/login');
    await screen.findByText('OR');
    // The script never arrives (no network in jsdom): after the retries the person is told.
    for (let i = 0; i < GOOGLE_SCRIPT_RETRIES; i += 1) {
      expect(screen.queryByText(/Google sign-in could not be loaded/)).not.toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(1000));
    }
    expect(await screen.findByText(/Google sign-in could not be loaded/)).toBeInTheDocument();
    expect(
      document.head.querySelector('script[src="https://accounts.google.com/gsi/client"]'),
    ).not.toBeNull();
  });

  it('renders the button once the script turns up during the retries', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({ 'GET /config': () => json({ googleClientId: 'client-1' }) });
    renderApp('/login');
    await screen.findByText('OR');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    fakeGoogle();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(
      await screen.findByRole('button', { name: 'Sign in with Google' }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });
});
