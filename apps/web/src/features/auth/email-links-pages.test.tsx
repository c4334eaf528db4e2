import { accountMessages } from '@altwise/contracts/auth';
import { messages } from '@altwise/contracts/messages';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, json, mockApi } from '../../test/mock-api.ts';
import { renderApp } from '../../test/render-app.tsx';

const token = 'A'.repeat(43);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the email confirmation page', () => {
  it("says 'Verifying your email...', then the server's message and 'Proceed to Login'", async () => {
    const answer = deferred<Response>();
    const calls = mockApi({ [`GET /users/confirm-email/${token}`]: () => answer.promise });
    renderApp(`/confirm-email/${token}`);
    expect(
      await screen.findByRole('heading', { name: messages.confirmEmail.verifying }, { timeout: 5000 }),
    ).toBeInTheDocument();
    answer.resolve(json({ status: 'success', message: messages.confirmEmail.success }));
    expect(
      await screen.findByRole('heading', { level: 1, name: messages.confirmEmail.success }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Proceed to Login' })).toHaveAttribute('href', '/login');
    expect(calls[0]?.headers.get('Authorization')).toBeNull();
  });

  it("shows the server's refusal without 'Proceed to Login'", async () => {
    mockApi({
      [`GET /users/confirm-email/${token}`]: () =>
        json({ status: 'error', message: accountMessages.confirmationExpired, code: 'TOKEN_EXPIRED' }, 410),
    });
    renderApp(`/confirm-email/${token}`);
    expect(
      await screen.findByRole('heading', { name: accountMessages.confirmationExpired }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Proceed to Login' })).not.toBeInTheDocument();
  });

  it('lets an already confirmed person go on to log in', async () => {
    mockApi({
      [`GET /users/confirm-email/${token}`]: () =>
        json(
          { status: 'error', message: accountMessages.alreadyConfirmed, code: 'EMAIL_ALREADY_CONFIRMED' },
          409,
        ),
    });
    renderApp(`/confirm-email/${token}`);
    expect(
      await screen.findByRole('heading', { name: accountMessages.alreadyConfirmed }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Proceed to Login' })).toBeInTheDocument();
  });

  it("falls back to 'An error occurred during email confirmation.' when the server is unreachable", async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    renderApp(`/confirm-email/${token}`);
    expect(
      await screen.findByRole('heading', { name: messages.confirmEmail.requestError }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });
});

describe('forgot and reset password', () => {
  it('asks for a reset link and shows the neutral answer', async () => {
    const calls = mockApi({
      'POST /users/forgot-password': () =>
        json({ status: 'success', message: accountMessages.resetRequested }),
    });
    const user = userEvent.setup();
    renderApp('/forgot-password');
    await user.type(await screen.findByLabelText('Email Address', {}, { timeout: 5000 }), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(accountMessages.resetRequested)).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ email: 'ada@example.com' });
  });

  it('sets a new password with the token from the link, then offers the login', async () => {
    const calls = mockApi({
      'POST /users/reset-password': () => json({ status: 'success', message: accountMessages.passwordReset }),
    });
    const user = userEvent.setup();
    renderApp(`/reset-password?token=${token}`);
    await user.type(await screen.findByLabelText('New Password', {}, { timeout: 5000 }), 'new secret');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new secrets');
    await user.tab();
    expect(screen.getByText(messages.register.passwordsMustMatch)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(calls).toEqual([]);
    await user.clear(screen.getByLabelText('Confirm New Password'));
    await user.type(screen.getByLabelText('Confirm New Password'), 'new secret');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText(accountMessages.passwordReset)).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ token, password: 'new secret' });
    expect(screen.getByRole('link', { name: 'Proceed to Login' })).toHaveAttribute('href', '/login');
  });

  it('says so when the link has no token', async () => {
    mockApi({});
    renderApp('/reset-password');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Set new password' })).toBeDisabled());
    expect(screen.getByText(/The reset link is incomplete/)).toBeInTheDocument();
  });
});
