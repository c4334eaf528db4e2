import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, json, type MockCall, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';
import { apiKeyTexts as t } from './api-keys-section.tsx';

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

const ci = {
  id: '6b1f8a52-4b1e-4c55-9a55-0d6a4f0e1a01',
  name: 'CI',
  prefix: 'ak_AbCdEfGh',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: '2026-11-23T09:30:00.000Z',
};
const cms = {
  id: '6b1f8a52-4b1e-4c55-9a55-0d6a4f0e1a02',
  name: 'CMS',
  prefix: 'ak_ZyXwVuTs',
  createdAt: '2026-11-21T10:00:00.000Z',
  lastUsedAt: null,
};
const fullKey = `ak_NeWkEy12${'x'.repeat(35)}`;

afterEach(() => {
  vi.unstubAllGlobals();
});

function keysApi(extra: Record<string, (call: MockCall) => Response | Promise<Response>> = {}) {
  let keys = [ci, cms];
  const calls = mockApi({
    'GET /users/profile': () => json({ user: profile }),
    'GET /api-keys': () => json(keys),
    'POST /api-keys': (call) => {
      const created = {
        id: '6b1f8a52-4b1e-4c55-9a55-0d6a4f0e1a03',
        name: (call.body as { name: string }).name,
        prefix: fullKey.slice(0, 11),
        key: fullKey,
        createdAt: '2026-11-23T10:00:00.000Z',
      };
      keys = [{ ...created, lastUsedAt: null }, ...keys];
      return json(created, 201);
    },
    [`DELETE /api-keys/${ci.id}`]: () => {
      keys = keys.filter((key) => key.id !== ci.id);
      return new Response(null, { status: 204 });
    },
    ...extra,
  });
  return calls;
}

async function openSection() {
  storeSession('jwt');
  renderApp('/account');
  const heading = await screen.findByRole('heading', { name: t.heading }, { timeout: 5000 });
  return heading.closest('section') ?? document.body;
}

describe('the API keys section of /account', () => {
  it('lists the keys with their prefix and last use, never a full key', async () => {
    keysApi();
    const section = within(await openSection());
    const list = await section.findByRole('list', { name: 'Your API keys' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('CI');
    expect(items[0]).toHaveTextContent('ak_AbCdEfGh…');
    expect(items[0]).toHaveTextContent('Last used');
    expect(items[1]).toHaveTextContent(t.never);
    expect(section.getByRole('button', { name: 'Revoke CMS' })).toBeInTheDocument();
  });

  it('creates a key and shows it once, with a warning and a copy button', async () => {
    const calls = keysApi();
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const section = within(await openSection());
    await section.findByRole('list', { name: 'Your API keys' });

    await user.type(section.getByLabelText(t.nameLabel), 'Build script');
    await user.click(section.getByRole('button', { name: t.create }));

    const panel = within(await section.findByRole('region', { name: t.createdTitle }));
    expect(panel.getByText(t.createdWarning)).toBeInTheDocument();
    expect(panel.getByLabelText(t.keyLabel)).toHaveValue(fullKey);
    expect(panel.getByLabelText(t.keyLabel)).toHaveAccessibleDescription(t.createdWarning);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Build script' });
    expect(section.getByLabelText(t.nameLabel)).toHaveValue('');

    await user.click(panel.getByRole('button', { name: t.copy }));
    expect(writeText).toHaveBeenCalledWith(fullKey);
    expect(await findToast(t.copied)).toBeInTheDocument();

    // The list shows the new key by name and prefix; once dismissed the key is gone from the page.
    await waitFor(() => expect(section.getAllByRole('listitem')).toHaveLength(3));
    await user.click(panel.getByRole('button', { name: t.done }));
    expect(section.queryByRole('region', { name: t.createdTitle })).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(fullKey);
  });

  it('sends nothing without a name, and shows the server’s reason when it refuses', async () => {
    const calls = keysApi({
      'POST /api-keys': () =>
        json(
          {
            message:
              'An account can have at most 20 API keys. Revoke one you no longer use to create another.',
            code: 'CONFLICT',
          },
          409,
        ),
    });
    const user = userEvent.setup();
    const section = within(await openSection());
    await section.findByRole('list', { name: 'Your API keys' });
    await user.click(section.getByRole('button', { name: t.create }));
    expect(section.getByLabelText(t.nameLabel)).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(section.getByLabelText(t.nameLabel), 'One more');
    await user.click(section.getByRole('button', { name: t.create }));
    expect(await section.findByText(/at most 20 API keys/)).toBeInTheDocument();
    expect(section.queryByRole('region', { name: t.createdTitle })).not.toBeInTheDocument();
  });

  it('revokes a key only after the confirmation dialog', async () => {
    const calls = keysApi();
    const user = userEvent.setup();
    const section = within(await openSection());
    await section.findByRole('list', { name: 'Your API keys' });

    await user.click(section.getByRole('button', { name: 'Revoke CI' }));
    let dialog = await screen.findByRole('dialog', { name: t.revokeTitle });
    expect(dialog).toHaveTextContent('“CI” (ak_AbCdEfGh…)');
    await user.click(within(dialog).getByRole('button', { name: t.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(section.getByRole('button', { name: 'Revoke CI' }));
    dialog = await screen.findByRole('dialog', { name: t.revokeTitle });
    await user.click(within(dialog).getByRole('button', { name: t.confirmRevoke }));
    expect(await findToast(t.revoked)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api-keys/${ci.id}`]);
    await waitFor(() => expect(section.getAllByRole('listitem')).toHaveLength(1));
    expect(section.queryByRole('button', { name: 'Revoke CI' })).not.toBeInTheDocument();
  });
});
