import { messages } from '@altwise/contracts/messages';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, json, mockApi, noGoogle } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.google;
});

async function fillForm(user: ReturnType<typeof userEvent.setup>, overrides: Record<string, string> = {}) {
  const values = {
    'First Name': 'Ada',
    'Last Name': 'Lovelace',
    'Email Address': 'ada@example.com',
    Password: 'correct horse battery',
    'Confirm Password': 'correct horse battery',
    ...overrides,
  };
  for (const [label, value] of Object.entries(values)) {
    const input = screen.getByLabelText(label);
    await user.clear(input);
    if (value) await user.type(input, value);
  }
}

describe('the register page', () => {
  it('shows its texts and labelled fields, and no Google button when Google is off', async () => {
    mockApi(noGoogle);
    renderApp('/register');
    expect(await screen.findByRole('heading', { level: 1, name: 'Create an Account' })).toBeInTheDocument();
    expect(screen.getByText('Create an account using your own email ID.')).toBeInTheDocument();
    for (const label of ['First Name', 'Last Name', 'Email Address', 'Password', 'Confirm Password']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'Already have an account? Login' })).toHaveAttribute(
      'href',
      '/login',
    );
    await waitFor(() => expect(screen.queryByText('OR')).not.toBeInTheDocument());
  });

  it('refuses a short or common password with a clear message and hints at strength', async () => {
    const calls = mockApi(noGoogle);
    const user = userEvent.setup();
    renderApp('/register');
    await screen.findByLabelText('Password');
    await fillForm(user, { Password: 'bread', 'Confirm Password': 'bread' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText(/Password strength: Too short/)).toBeInTheDocument();

    await fillForm(user, { Password: 'password1', 'Confirm Password': 'password1' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(
      await screen.findByText(/This password is on a list of common or breached passwords/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((call) => call.path === '/users/register')).toEqual([]);

    await fillForm(user, { Password: 'lantern fjord meadow', 'Confirm Password': 'lantern fjord meadow' });
    expect(await screen.findByText(/Password strength: Strong/)).toBeInTheDocument();
    expect(screen.queryByText(/common or breached/)).not.toBeInTheDocument();
  }, 30_000);

  it('shows an error only after the field is touched', async () => {
    mockApi(noGoogle);
    const user = userEvent.setup();
    renderApp('/register');
    const firstName = await screen.findByLabelText('First Name');
    expect(screen.queryByText(messages.register.firstNameRequired)).not.toBeInTheDocument();
    await user.click(firstName);
    await user.tab();
    expect(screen.getByText(messages.register.firstNameRequired)).toBeInTheDocument();
    expect(firstName).toHaveAttribute('aria-invalid', 'true');
    // Untouched fields stay quiet.
    expect(screen.queryByText(messages.register.lastNameRequired)).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Email Address'), 'not-an-email');
    await user.tab();
    expect(screen.getByText(messages.register.emailInvalid)).toBeInTheDocument();

    await user.type(screen.getByLabelText('Password'), 'one');
    await user.type(screen.getByLabelText('Confirm Password'), 'two');
    await user.tab();
    expect(screen.getByText(messages.register.passwordsMustMatch)).toBeInTheDocument();
  });

  it('on submit with errors shows them all, focuses the first and sends nothing', async () => {
    const calls = mockApi(noGoogle);
    const user = userEvent.setup();
    renderApp('/register');
    await user.click(await screen.findByRole('button', { name: 'Register' }));
    for (const text of [
      messages.register.firstNameRequired,
      messages.register.lastNameRequired,
      messages.register.emailRequired,
      messages.register.passwordRequired,
      messages.register.confirmRequired,
    ]) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('First Name')).toHaveFocus();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("reads 'Registering...' while pending, mails the notification and opens the success dialog", async () => {
    const answer = deferred<Response>();
    const calls = mockApi({
      ...noGoogle,
      'POST /users/register': () => answer.promise,
      'POST /email/registration': () => json({ success: true }),
    });
    const user = userEvent.setup();
    renderApp('/register');
    await screen.findByLabelText('First Name');
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('button', { name: 'Registering...' })).toBeDisabled();
    expect(calls.find((c) => c.path === '/users/register')?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      password: 'correct horse battery',
      confirmPassword: 'correct horse battery',
    });

    answer.resolve(json({ status: 'success', message: 'created' }, 201));
    const dialog = await screen.findByRole('dialog', { name: messages.register.successTitle });
    expect(within(dialog).getByText(messages.register.successBody)).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/email/registration')?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });
    const ok = within(dialog).getByRole('button', { name: 'OK' });
    expect(within(dialog).getAllByRole('button')).toHaveLength(1);
    expect(ok).toHaveFocus();
    await user.click(ok);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText('First Name')).toHaveValue('');
  });

  it("shows the server's message, or 'Registration failed abruptly' without one", async () => {
    let fail = () => json({ message: 'An account with this email already exists', code: 'CONFLICT' }, 409);
    mockApi({ ...noGoogle, 'POST /users/register': () => fail() });
    const user = userEvent.setup();
    renderApp('/register');
    await screen.findByLabelText('First Name');
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('An account with this email already exists')).toBeInTheDocument();

    fail = () => new Response('<html>bad gateway</html>', { status: 502 });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText(messages.register.failed)).toBeInTheDocument();
  });

  it('sends a signed-in person to the dashboard', async () => {
    mockApi(noGoogle);
    storeSession();
    const { router } = renderApp('/register');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});
