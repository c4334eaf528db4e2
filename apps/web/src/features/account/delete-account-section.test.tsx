import { accountDeletionMessages } from '@altwise/contracts/auth';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, json, type MockCall, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

const m = accountDeletionMessages;

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
const deletes = (calls: MockCall[]) => calls.filter((call) => call.method === 'DELETE');

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openAccount() {
  storeSession('jwt-old');
  const view = renderApp('/account');
  await screen.findByDisplayValue('Lovelace', {}, { timeout: 5000 });
  return view;
}

const section = () =>
  within(screen.getByRole('heading', { name: m.heading }).closest('section') as HTMLElement);

describe('Delete account on /account', () => {
  it('warns, asks for the password, and sends nothing without it', async () => {
    const calls = mockApi(getProfile);
    const user = userEvent.setup();
    await openAccount();
    expect(section().getByText(m.warning)).toBeInTheDocument();
    await user.click(section().getByRole('button', { name: m.button }));
    expect(await section().findByText('Enter your password to delete your account.')).toBeInTheDocument();
    expect(section().getByLabelText(m.passwordLabel)).toHaveFocus();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes(calls)).toEqual([]);
  });

  it('asks again in a dialog that Escape closes without deleting', async () => {
    const calls = mockApi(getProfile);
    const user = userEvent.setup();
    await openAccount();
    await user.type(section().getByLabelText(m.passwordLabel), 'secret password');
    await user.click(section().getByRole('button', { name: m.button }));
    const dialog = await screen.findByRole('dialog', { name: m.dialogTitle });
    expect(within(dialog).getByText(m.dialogText)).toBeInTheDocument();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Focus goes back to the button that opened it.
    expect(section().getByRole('button', { name: m.button })).toHaveFocus();
    expect(deletes(calls)).toEqual([]);
  });

  it('deletes with the keyboard, then signs out and lands on the home page with a message', async () => {
    const calls = mockApi({ ...getProfile, 'DELETE /users/me': () => new Response(null, { status: 204 }) });
    const user = userEvent.setup();
    const { router } = await openAccount();
    await user.type(section().getByLabelText(m.passwordLabel), 'secret password{Enter}');
    const dialog = await screen.findByRole('dialog', { name: m.dialogTitle });
    // Tab to the confirming button (the dialog keeps focus inside) and press Enter.
    for (let i = 0; i < 5 && document.activeElement?.textContent !== m.confirm; i++) await user.tab();
    expect(within(dialog).getByRole('button', { name: m.confirm })).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(await findToast(m.deleted)).toBeInTheDocument();
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
            message: m.wrongPassword,
            code: 'BAD_REQUEST',
            errors: [{ path: 'password', message: m.wrongPassword }],
          },
          400,
        ),
    });
    const user = userEvent.setup();
    const { router } = await openAccount();
    await user.type(section().getByLabelText(m.passwordLabel), 'wrong password');
    await user.click(section().getByRole('button', { name: m.button }));
    await user.click(await screen.findByRole('button', { name: m.confirm }));
    expect(await section().findByText(m.wrongPassword)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/account');
    expect(localStorage.getItem('token')).toBe('jwt-old');
  });
});
