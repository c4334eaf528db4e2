import { accountDeletionMessages, accountMessages } from '@altwise/contracts/auth';
import { messages } from '@altwise/contracts/messages';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, findToast, json, type MockCall, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

const m = messages.account;
const d = accountDeletionMessages;

const profile = {
  id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  image_credits: 25,
  imagecount: 0,
  subscriptionPlan: 'Trial',
  apiRequestCount: 0,
  monthlyRequestCount: 25,
  contentHistory: [],
};

const getProfile = { 'GET /users/profile': () => json({ user: profile }) };

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openAccount() {
  storeSession('jwt-old');
  const view = renderApp('/account');
  await screen.findByDisplayValue('Lovelace', {}, { timeout: 5000 });
  return view;
}

const puts = (calls: MockCall[]) => calls.filter((c) => c.method === 'PUT');

describe('account settings', () => {
  it('loads the profile into the form, with the email read-only', async () => {
    const calls = mockApi(getProfile);
    await openAccount();
    expect(screen.getByRole('heading', { level: 1, name: 'Account Settings' })).toBeInTheDocument();
    expect(screen.getByLabelText('First Name')).toHaveValue('Ada');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer jwt-old');
  });

  it("updates the profile: 'Updating...' in blue, then green success, and the stored user follows", async () => {
    const answer = deferred<Response>();
    const calls = mockApi({ ...getProfile, 'PUT /users/update-profile': () => answer.promise });
    const user = userEvent.setup();
    await openAccount();
    await user.clear(screen.getByLabelText('First Name'));
    await user.type(screen.getByLabelText('First Name'), 'Augusta');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));
    const updating = await screen.findByText(m.updating);
    expect(updating.closest('[role="status"]')?.className).toMatch(/blue/);
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(puts(calls)[0]?.body).toEqual({ firstName: 'Augusta', lastName: 'Lovelace' });

    answer.resolve(
      json({ status: 'success', message: m.profileUpdated, user: { ...profile, firstName: 'Augusta' } }),
    );
    const success = await screen.findByText(m.profileUpdated);
    expect(success.closest('[role="status"]')?.className).toMatch(/green/);
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ firstName: 'Augusta' });
  });

  it('saves a default alt-text language with the profile, only when it changed', async () => {
    const calls = mockApi({
      ...getProfile,
      'PUT /users/update-profile': () =>
        json({ status: 'success', message: m.profileUpdated, user: profile }),
    });
    const user = userEvent.setup();
    await openAccount();
    const language = screen.getByLabelText('Alt text language');
    expect(language).toHaveValue('');
    await user.type(language, 'pt-br');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));
    await screen.findByText(m.profileUpdated);
    expect(puts(calls)[0]?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      defaultLanguage: 'pt-BR',
    });
  });

  it("says 'Failed to update profile' when refused and 'Error updating profile' when unreachable", async () => {
    let answer = () =>
      json({ message: 'First name is required', code: 'VALIDATION_ERROR' }, 400) as
        | Response
        | Promise<Response>;
    mockApi({ ...getProfile, 'PUT /users/update-profile': () => answer() });
    const user = userEvent.setup();
    await openAccount();
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));
    const failed = await screen.findByText(m.profileUpdateFailed);
    expect(failed.closest('[role="alert"]')?.className).toMatch(/red/);
    answer = () => Promise.reject(new TypeError('offline'));
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByText(m.profileUpdateError)).toBeInTheDocument();
  });

  it("says 'New passwords do not match' and sends nothing", async () => {
    const calls = mockApi(getProfile);
    const user = userEvent.setup();
    await openAccount();
    await user.type(screen.getByLabelText('Current Password'), 'old secret');
    await user.type(screen.getByLabelText('New Password'), 'new secret');
    await user.type(screen.getByLabelText('Confirm New Password'), 'other secret');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(m.passwordsDoNotMatch)).toBeInTheDocument();
    expect(puts(calls)).toEqual([]);
  });

  it('changes the password, clears the fields and keeps the session with the new token', async () => {
    const calls = mockApi({
      ...getProfile,
      'PUT /users/change-password': () =>
        json({ status: 'success', message: m.passwordUpdated, token: 'jwt-new' }),
    });
    const user = userEvent.setup();
    await openAccount();
    await user.type(screen.getByLabelText('Current Password'), 'old secret');
    await user.type(screen.getByLabelText('New Password'), 'new secret');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new secret');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(m.passwordUpdated)).toBeInTheDocument();
    expect(puts(calls)[0]?.body).toEqual({ currentPassword: 'old secret', newPassword: 'new secret' });
    for (const label of ['Current Password', 'New Password', 'Confirm New Password']) {
      expect(screen.getByLabelText(label)).toHaveValue('');
    }
    expect(localStorage.getItem('token')).toBe('jwt-new');
  });

  it("says 'Failed to update password' with the server's reason for a wrong current password", async () => {
    mockApi({
      ...getProfile,
      'PUT /users/change-password': () =>
        json({ message: accountMessages.wrongCurrentPassword, code: 'BAD_REQUEST' }, 400),
    });
    const user = userEvent.setup();
    await openAccount();
    await user.type(screen.getByLabelText('Current Password'), 'wrong');
    await user.type(screen.getByLabelText('New Password'), 'new secret');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new secret');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(m.passwordUpdateFailed)).toBeInTheDocument();
    expect(screen.getByText(accountMessages.wrongCurrentPassword)).toBeInTheDocument();
  });

  it('removes the token and goes to /login when the profile call answers 401', async () => {
    mockApi({ 'GET /users/profile': () => json({ message: 'Unauthorized', code: 'UNAUTHORIZED' }, 401) });
    storeSession('jwt-expired');
    const { router } = renderApp('/account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    expect(localStorage.getItem('token')).toBeNull();
  });
});

const deletes = (calls: MockCall[]) => calls.filter((call) => call.method === 'DELETE');

const section = () =>
  within(screen.getByRole('heading', { name: d.heading }).closest('section') as HTMLElement);

describe('Delete account on /account', () => {
  it('warns, asks for the password, and sends nothing without it', async () => {
    const calls = mockApi(getProfile);
    const user = userEvent.setup();
    await openAccount();
    expect(section().getByText(d.warning)).toBeInTheDocument();
    await user.click(section().getByRole('button', { name: d.button }));
    expect(await section().findByText('Enter your password to delete your account.')).toBeInTheDocument();
    expect(section().getByLabelText(d.passwordLabel)).toHaveFocus();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes(calls)).toEqual([]);
  });

  it('asks again in a dialog that Escape closes without deleting', async () => {
    const calls = mockApi(getProfile);
    const user = userEvent.setup();
    await openAccount();
    await user.type(section().getByLabelText(d.passwordLabel), 'secret password');
    await user.click(section().getByRole('button', { name: d.button }));
    const dialog = await screen.findByRole('dialog', { name: d.dialogTitle });
    expect(within(dialog).getByText(d.dialogText)).toBeInTheDocument();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Focus goes back to the button that opened it.
    expect(section().getByRole('button', { name: d.button })).toHaveFocus();
    expect(deletes(calls)).toEqual([]);
  });

  it('deletes with the keyboard, then signs out and lands on the home page with a message', async () => {
    const calls = mockApi({ ...getProfile, 'DELETE /users/me': () => new Response(null, { status: 204 }) });
    const user = userEvent.setup();
    const { router } = await openAccount();
    await user.type(section().getByLabelText(d.passwordLabel), 'secret password{Enter}');
    const dialog = await screen.findByRole('dialog', { name: d.dialogTitle });
    // Tab to the confirming button (the dialog keeps focus inside) and press Enter.
    for (let i = 0; i < 5 && document.activeElement?.textContent !== d.confirm; i++) await user.tab();
    expect(within(dialog).getByRole('button', { name: d.confirm })).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(await findToast(d.deleted)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(deletes(calls)).toMatchObject([{ path: '/users/me', body: { password: 'secret password' } }]);
    expect(deletes(calls)[0]?.headers.get('Authorization')).toBe('Bearer jwt-old');
    // Signed out once the account page has gone.
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(localStorage.getItem('user')).toBeNull();
  });

  it("shows the server's reason for a wrong password and keeps the session", async () => {
    mockApi({
      ...getProfile,
      'DELETE /users/me': () =>
        json(
          {
            message: d.wrongPassword,
            code: 'BAD_REQUEST',
            errors: [{ path: 'password', message: d.wrongPassword }],
          },
          400,
        ),
    });
    const user = userEvent.setup();
    const { router } = await openAccount();
    await user.type(section().getByLabelText(d.passwordLabel), 'wrong password');
    await user.click(section().getByRole('button', { name: d.button }));
    await user.click(await screen.findByRole('button', { name: d.confirm }));
    expect(await section().findByText(d.wrongPassword)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/account');
    expect(localStorage.getItem('token')).toBe('jwt-old');
  });
});
