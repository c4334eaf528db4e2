import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, json, type MockCall, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';
import { webhookTexts as t } from './webhooks-section.tsx';

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

const cms = {
  id: '7c2f8a52-4b1e-4c55-9a55-0d6a4f0e1a01',
  url: 'https://cms.example.com/hooks/altwise',
  events: ['batch.completed', 'batch.failed'],
  createdAt: '2026-11-20T10:00:00.000Z',
};
const deliveries = [
  {
    id: '8d3f8a52-4b1e-4c55-9a55-0d6a4f0e1a01',
    event: 'batch.completed',
    status: 'failed',
    attempts: 12,
    lastStatusCode: 500,
    lastError: 'Answered with HTTP 500.',
    createdAt: '2026-11-22T10:00:00.000Z',
    deliveredAt: null,
  },
  {
    id: '8d3f8a52-4b1e-4c55-9a55-0d6a4f0e1a02',
    event: 'batch.completed',
    status: 'delivered',
    attempts: 1,
    lastStatusCode: 200,
    lastError: null,
    createdAt: '2026-11-21T10:00:00.000Z',
    deliveredAt: '2026-11-21T10:00:01.000Z',
  },
];
const secret = `whsec_${'A'.repeat(43)}=`;

afterEach(() => {
  vi.unstubAllGlobals();
});

function webhooksApi(extra: Record<string, (call: MockCall) => Response | Promise<Response>> = {}) {
  let webhooks: (typeof cms)[] = [cms];
  return mockApi({
    'GET /users/profile': () => json({ user: profile }),
    'GET /api-keys': () => json([]),
    'GET /webhooks': () => json(webhooks),
    [`GET /webhooks/${cms.id}/deliveries`]: () => json(deliveries),
    'GET /webhooks/9e4f8a52-4b1e-4c55-9a55-0d6a4f0e1a09/deliveries': () => json([]),
    'POST /webhooks': (call) => {
      const body = call.body as { url: string; events: string[] };
      const created = {
        id: '9e4f8a52-4b1e-4c55-9a55-0d6a4f0e1a09',
        url: body.url,
        events: body.events,
        createdAt: '2026-11-23T10:00:00.000Z',
      };
      webhooks = [...webhooks, created];
      return json({ ...created, secret }, 201);
    },
    [`DELETE /webhooks/${cms.id}`]: () => {
      webhooks = webhooks.filter((w) => w.id !== cms.id);
      return new Response(null, { status: 204 });
    },
    ...extra,
  });
}

async function openSection() {
  storeSession('jwt');
  renderApp('/account');
  const heading = await screen.findByRole('heading', { name: t.heading }, { timeout: 5000 });
  return heading.closest('section') ?? document.body;
}

describe('the Webhooks section of /account', () => {
  it('lists the webhooks with their recent deliveries and status', async () => {
    webhooksApi();
    const section = within(await openSection());
    const list = await section.findByRole('list', { name: 'Your webhooks' });
    expect(within(list).getByText(cms.url)).toBeInTheDocument();
    const recent = await section.findByRole('list', { name: t.deliveriesLabel(cms.url) });
    const items = within(recent).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(
      'batch.completed · Failed · 12 attempts · HTTP 500 · Answered with HTTP 500.',
    );
    expect(items[1]).toHaveTextContent('batch.completed · Delivered · 1 attempt · HTTP 200');
    expect(section.getByRole('button', { name: `Delete webhook ${cms.url}` })).toBeInTheDocument();
  });

  it('sends a failed delivery again', async () => {
    const calls = webhooksApi({
      [`POST /webhooks/${cms.id}/deliveries/${deliveries[0]?.id}/redeliver`]: () =>
        json({ ...deliveries[0], status: 'pending' }, 202),
    });
    const user = userEvent.setup();
    const section = within(await openSection());
    const recent = within(await section.findByRole('list', { name: t.deliveriesLabel(cms.url) }));
    // Only the failed delivery offers it.
    const buttons = recent.getAllByRole('button', { name: /^Send again: batch.completed of / });
    expect(buttons).toHaveLength(1);
    await user.click(buttons[0] as HTMLElement);
    expect(await findToast(t.redelivered)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `/webhooks/${cms.id}/deliveries/${deliveries[0]?.id}/redeliver`,
    ]);
  });

  it('rotates a webhook’s secret from the keyboard and shows the new one once, with the overlap', async () => {
    const newSecret = `whsec_${'B'.repeat(43)}=`;
    const calls = webhooksApi({
      [`POST /webhooks/${cms.id}/rotate-secret`]: () =>
        json({ ...cms, secret: newSecret, previousSecretExpiresAt: '2026-11-24T10:00:00.000Z' }),
    });
    const user = userEvent.setup();
    const section = within(await openSection());
    await section.findByRole('list', { name: 'Your webhooks' });

    const rotate = section.getByRole('button', { name: t.rotateLabel(cms.url) });
    expect(rotate).toHaveTextContent(t.rotate);
    rotate.focus();
    await user.keyboard('{Enter}');

    const panel = within(await section.findByRole('region', { name: t.rotatedTitle }));
    expect(panel.getByLabelText(t.secretLabel)).toHaveValue(newSecret);
    expect(panel.getByLabelText(t.secretLabel)).toHaveAccessibleDescription(
      /both the new and the old secret/,
    );
    expect(await findToast(t.rotated)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `/webhooks/${cms.id}/rotate-secret`,
    ]);

    await user.click(panel.getByRole('button', { name: t.done }));
    expect(section.queryByRole('region', { name: t.rotatedTitle })).not.toBeInTheDocument();
    expect(section.queryByDisplayValue(newSecret)).not.toBeInTheDocument();
  });

  it('adds a webhook and shows its signing secret once, with a copy button', async () => {
    const calls = webhooksApi();
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const section = within(await openSection());
    await section.findByRole('list', { name: 'Your webhooks' });

    await user.type(section.getByLabelText(t.urlLabel), 'https://build.example.com/done');
    await user.click(section.getByRole('checkbox', { name: t.eventLabels['batch.failed'] }));
    await user.click(section.getByRole('button', { name: t.add }));

    const panel = within(await section.findByRole('region', { name: t.createdTitle }));
    expect(panel.getByLabelText(t.secretLabel)).toHaveValue(secret);
    expect(panel.getByLabelText(t.secretLabel)).toHaveAccessibleDescription(t.createdWarning);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      url: 'https://build.example.com/done',
      events: ['batch.completed', 'batch.failed'],
    });
    expect(section.getByLabelText(t.urlLabel)).toHaveValue('');

    await user.click(panel.getByRole('button', { name: t.copy }));
    expect(writeText).toHaveBeenCalledWith(secret);
    expect(await findToast(t.copied)).toBeInTheDocument();

    await waitFor(() => expect(section.getByText('https://build.example.com/done')).toBeInTheDocument());
    await user.click(panel.getByRole('button', { name: t.done }));
    expect(section.queryByRole('region', { name: t.createdTitle })).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(secret);
  });

  it('sends nothing for a bad URL or no event, and shows the server’s reason when it refuses', async () => {
    const calls = webhooksApi({
      'POST /webhooks': () =>
        json(
          {
            message:
              'Refusing to fetch 10.0.0.1: it is a private or local address. Webhooks can only be sent to public addresses.',
            code: 'BAD_REQUEST',
          },
          400,
        ),
    });
    const user = userEvent.setup();
    const section = within(await openSection());
    await section.findByRole('list', { name: 'Your webhooks' });

    await user.type(section.getByLabelText(t.urlLabel), 'not a url');
    await user.click(section.getByRole('checkbox', { name: t.eventLabels['batch.completed'] }));
    await user.click(section.getByRole('button', { name: t.add }));
    expect(section.getByLabelText(t.urlLabel)).toHaveAttribute('aria-invalid', 'true');
    expect(section.getByText('Choose at least one event')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(section.getByLabelText(t.urlLabel));
    await user.type(section.getByLabelText(t.urlLabel), 'http://10.0.0.1/hook');
    await user.click(section.getByRole('checkbox', { name: t.eventLabels['batch.completed'] }));
    await user.click(section.getByRole('button', { name: t.add }));
    expect(await section.findByText(/private or local address/)).toBeInTheDocument();
    expect(section.queryByRole('region', { name: t.createdTitle })).not.toBeInTheDocument();
  });

  it('deletes a webhook only after the confirmation dialog', async () => {
    const calls = webhooksApi();
    const user = userEvent.setup();
    const section = within(await openSection());
    await section.findByRole('list', { name: 'Your webhooks' });
    const remove = `Delete webhook ${cms.url}`;

    await user.click(section.getByRole('button', { name: remove }));
    let dialog = await screen.findByRole('dialog', { name: t.removeTitle });
    expect(dialog).toHaveTextContent(cms.url);
    await user.click(within(dialog).getByRole('button', { name: t.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(section.getByRole('button', { name: remove }));
    dialog = await screen.findByRole('dialog', { name: t.removeTitle });
    await user.click(within(dialog).getByRole('button', { name: t.confirmRemove }));
    expect(await findToast(t.removed)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/webhooks/${cms.id}`]);
    expect(await section.findByText(t.none)).toBeInTheDocument();
  });
});
