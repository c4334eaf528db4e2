import { accountMessages } from '@altwise/contracts/auth';
import { messages } from '@altwise/contracts/messages';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../components/ui/notify.ts';
import { deferred, findToast, json, mockApi, noGoogle } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

const sessionUser = {
  id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
};

afterEach(() => {
  notify.clear();
  vi.unstubAllGlobals();
});

async function signIn(user: ReturnType<typeof userEvent.setup>, email = 'ada@example.com') {
  await user.type(await screen.findByLabelText('Email address', {}, { timeout: 5000 }), email);
  await user.type(screen.getByLabelText('Password'), 'secret password');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('the login page', () => {
  it('shows its texts and links', async () => {
    mockApi(noGoogle);
    renderApp('/login');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Login to Your Account' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Don't have an account? Register" })).toHaveAttribute(
      'href',
      '/register',
    );
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it("shows 'Invalid email address' and 'Required' only after the fields are touched", async () => {
    mockApi(noGoogle);
    const user = userEvent.setup();
    renderApp('/login');
    const email = await screen.findByLabelText('Email address');
    expect(screen.queryByText(messages.login.required)).not.toBeInTheDocument();
    await user.click(email);
    await user.tab();
    expect(screen.getByText(messages.login.required)).toBeInTheDocument();
    await user.type(email, 'nope');
    expect(screen.getByText(messages.login.emailInvalid)).toBeInTheDocument();
    await user.tab();
    await user.tab();
    expect(screen.getAllByText(messages.login.required)).toHaveLength(1);
  });

  it("reads 'Logging in...', stores the session, says 'Login successful' and opens the dashboard", async () => {
    const answer = deferred<Response>();
    const calls = mockApi({ ...noGoogle, 'POST /users/login': () => answer.promise });
    const user = userEvent.setup();
    const { router } = renderApp('/login');
    await signIn(user);
    expect(await screen.findByRole('button', { name: 'Logging in...' })).toBeDisabled();
    expect(calls.find((c) => c.path === '/users/login')?.body).toEqual({
      email: 'ada@example.com',
      password: 'secret password',
    });
    answer.resolve(json({ status: 'success', message: 'ok', token: 'jwt-1', user: sessionUser }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await findToast(messages.login.success)).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('jwt-1');
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toEqual(sessionUser);
  });

  it('goes back to where the route guard stopped the person', async () => {
    mockApi({
      ...noGoogle,
      'POST /users/login': () =>
        json({ status: 'success', message: 'ok', token: 'jwt-1', user: sessionUser }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await signIn(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'));
  });

  it("shows the server's message, or 'Login Failed' without one", async () => {
    let fail = () => json({ message: accountMessages.invalidCredentials, code: 'UNAUTHORIZED' }, 401);
    mockApi({ ...noGoogle, 'POST /users/login': () => fail() });
    const user = userEvent.setup();
    renderApp('/login');
    await signIn(user);
    expect(await screen.findByText(accountMessages.invalidCredentials)).toBeInTheDocument();
    fail = () => new Response('oops', { status: 500 });
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(messages.login.failed)).toBeInTheDocument();
  });

  it('offers to resend the confirmation email to an unconfirmed account', async () => {
    const calls = mockApi({
      ...noGoogle,
      'POST /users/login': () =>
        json({ message: accountMessages.emailNotConfirmed, code: 'EMAIL_NOT_CONFIRMED' }, 403),
      'POST /users/resend-confirmation': () =>
        json({ status: 'success', message: accountMessages.confirmationResent }),
    });
    const user = userEvent.setup();
    renderApp('/login');
    await signIn(user, 'new@example.com');
    expect(await screen.findByText(accountMessages.emailNotConfirmed)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend confirmation email' }));
    expect(await screen.findByText(accountMessages.confirmationResent)).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/users/resend-confirmation')?.body).toEqual({
      email: 'new@example.com',
    });
  });

  it('sends a signed-in person to the dashboard', async () => {
    mockApi(noGoogle);
    storeSession();
    const { router } = renderApp('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});
