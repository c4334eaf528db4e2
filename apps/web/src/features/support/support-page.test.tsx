import { messages } from '@altwise/contracts/messages';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';

function deferredFetch() {
  let resolve: (response: Response) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(
    () =>
      new Promise<Response>((res, rej) => {
        resolve = res;
        reject = rej;
      }),
  );
  return { fetchMock, resolve: (r: Response) => resolve(r), reject: (e: unknown) => reject(e) };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function fillForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/First Name/), 'Ada');
  await user.type(screen.getByLabelText(/Last Name/), 'Lovelace');
  await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Message/), 'How do credit packs work?');
}

describe('support page', () => {
  it('requires every field in the browser, and the email as an email', async () => {
    renderApp('/support');
    await screen.findByRole('heading', { level: 1, name: 'Support' });
    for (const label of [/First Name/, /Last Name/, /^Email/, /^Message/]) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('type', 'email');
    expect(screen.getByRole('heading', { level: 2, name: 'How credits work' })).toBeInTheDocument();
  });

  it("posts the message without a token, shows 'Sending...', then the success text and clears the form", async () => {
    const user = userEvent.setup();
    const { fetchMock, resolve } = deferredFetch();
    renderApp('/support');
    await screen.findByRole('heading', { level: 1, name: 'Support' });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(await screen.findByRole('button', { name: messages.contact.sending })).toBeDisabled();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/email/send');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      message: 'How do credit packs work?',
    });
    expect(new Headers(init?.headers).has('Authorization')).toBe(false);

    resolve(json(200, { message: 'Message sent' }));
    expect(await screen.findByText(messages.contact.success)).toBeInTheDocument();
    expect(screen.getByLabelText(/First Name/)).toHaveValue('');
    expect(screen.getByLabelText(/^Message/)).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it("shows the server's message, or the generic text, and keeps what was typed", async () => {
    const user = userEvent.setup();
    const { resolve } = deferredFetch();
    renderApp('/support');
    await screen.findByRole('heading', { level: 1, name: 'Support' });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    resolve(json(404, { message: 'Route POST /api/v1/email/send not found', code: 'NOT_FOUND' }));
    expect(await screen.findByText(messages.contact.failed)).toBeInTheDocument();
    expect(screen.getByLabelText(/First Name/)).toHaveValue('Ada');
  });

  it('says so when the server cannot be reached', async () => {
    const user = userEvent.setup();
    const { reject } = deferredFetch();
    renderApp('/support');
    await screen.findByRole('heading', { level: 1, name: 'Support' });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    reject(new TypeError('Failed to fetch'));
    expect(await screen.findByText(messages.contact.networkFailed)).toBeInTheDocument();
  });
});
