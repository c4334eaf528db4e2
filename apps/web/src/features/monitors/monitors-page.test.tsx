import type { Monitor } from '@altwise/contracts/monitors';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';
import { describeTrend } from './score-chart.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const difference = {
  newFailures: 1,
  fixed: 1,
  scoreChange: 0.1667,
  newFailureImages: [{ pageUrl: 'https://shop.example/', src: 'https://shop.example/crab.jpg' }],
  fixedImages: [{ pageUrl: 'https://shop.example/', src: 'https://shop.example/lighthouse.jpg' }],
};
const monitor: Monitor = {
  id: '11111111-1111-4111-8111-111111111111',
  url: 'https://shop.example/',
  scope: 'site',
  maxPages: 25,
  render: 'auto',
  every: 'day',
  createdAt: '2026-11-23T09:30:00.000Z',
  nextRunAt: '2026-11-25T09:30:00.000Z',
  history: [
    { at: '2026-11-23T09:31:00.000Z', score: 0.5 },
    { at: '2026-11-24T09:31:00.000Z', score: 0.6667 },
  ],
  lastRun: {
    id: '22222222-2222-4222-8222-222222222222',
    auditId: '33333333-3333-4333-8333-333333333333',
    status: 'completed',
    reason: null,
    score: 0.6667,
    startedAt: '2026-11-24T09:30:00.000Z',
    finishedAt: '2026-11-24T09:31:00.000Z',
    difference,
  },
  lastDifference: difference,
};

describe('the score chart’s text alternative', () => {
  it.each([
    [[], 'Score history of s: no completed audit with a score yet.'],
    [[0.5], 'Score history of s: one audit, 50%.'],
    [
      [0.5, 0.4, 0.8],
      'Score history of s: 3 audits, from 50% to 80%, up 30 points; lowest 40%, highest 80%.',
    ],
    [[0.9, 0.7], 'Score history of s: 2 audits, from 90% to 70%, down 20 points; lowest 70%, highest 90%.'],
    [
      [0.6, 0.6],
      'Score history of s: 2 audits, from 60% to 60%, unchanged overall; lowest 60%, highest 60%.',
    ],
  ])('summarises %j', (scores, words) => {
    const history = scores.map((score, i) => ({ at: `2026-11-2${i}T00:00:00.000Z`, score }));
    expect(describeTrend('s', history)).toBe(words);
  });
});

describe('monitors (/monitors)', () => {
  it('lists a site with its chart, scores table and last difference, and deletes it after confirming', async () => {
    let monitors = [monitor];
    const calls = mockApi({
      'GET /monitors': () => json(monitors),
      [`DELETE /monitors/${monitor.id}`]: () => {
        monitors = [];
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    storeSession('jwt-1');
    renderApp('/monitors');
    await screen.findByRole('heading', { level: 1, name: 'Monitors' }, { timeout: 5000 });
    const card = await screen.findByRole('article', { name: 'https://shop.example/' });
    expect(within(card).getByRole('img')).toHaveAccessibleName(
      'Score history of https://shop.example/: 2 audits, from 50% to 67%, up 17 points; lowest 50%, highest 67%.',
    );
    expect(
      within(card).getByText('Render pages in a browser: Automatically, for pages built by scripts'),
    ).toBeInTheDocument();
    const table = within(card).getByRole('table', { name: 'Scores of https://shop.example/, oldest first' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(
      within(card).getByText(/1 image newly failing, 1 image fixed, score up 17 points/),
    ).toBeInTheDocument();
    expect(
      within(card).getByText('https://shop.example/crab.jpg on https://shop.example/'),
    ).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Stop watching https://shop.example/' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop watching this site?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete monitor' }));
    expect(await screen.findByText('You do not watch any site yet.')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });

  it('runs a monitor now, says so, shows the run under way, and says a refusal in words', async () => {
    let current: Monitor = monitor;
    let refuse = false;
    const calls = mockApi({
      'GET /monitors': () => json([current]),
      [`POST /monitors/${monitor.id}/run`]: () => {
        if (refuse)
          return json({ code: 'CONFLICT', message: 'A run of https://shop.example/ is still going.' }, 409);
        current = {
          ...monitor,
          lastRun: {
            ...(monitor.lastRun as NonNullable<Monitor['lastRun']>),
            status: 'queued',
            finishedAt: null,
          },
        };
        return json(current, 202);
      },
    });
    const user = userEvent.setup();
    storeSession('jwt-1');
    renderApp('/monitors');
    const card = await screen.findByRole('article', { name: 'https://shop.example/' }, { timeout: 5000 });
    await user.click(within(card).getByRole('button', { name: 'Run now https://shop.example/' }));
    expect(await screen.findByText('A run of https://shop.example/ started.')).toBeInTheDocument();
    expect(await within(card).findByText('A run is under way.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Run now https://shop.example/' })).toBeDisabled();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);

    // Another tab started one meanwhile: the server's 409 is said as it is.
    current = monitor;
    refuse = true;
    const button = within(card).getByRole('button', { name: 'Run now https://shop.example/' });
    // The list refetches every 2 s while a run is under way.
    await waitFor(() => expect(button).toBeEnabled(), { timeout: 5000 });
    await user.click(button);
    expect(await screen.findByText('A run of https://shop.example/ is still going.')).toBeInTheDocument();
  });

  it('checks the form with the contract before sending anything', async () => {
    const calls = mockApi({ 'GET /monitors': () => json([]) });
    const user = userEvent.setup();
    storeSession('jwt-1');
    renderApp('/monitors');
    await screen.findByRole('heading', { level: 1, name: 'Monitors' }, { timeout: 5000 });
    await user.type(screen.getByLabelText('Website URL'), 'ftp://files.example');
    await user.click(screen.getByRole('button', { name: 'Start monitoring' }));
    expect(await screen.findByText('Please enter a valid http or https URL')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Every week' })).toBeChecked();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('asks for the audit form’s fields, render included, and sends them with how often', async () => {
    const calls = mockApi({
      'GET /monitors': () => json([]),
      'POST /monitors': () => json({ ...monitor, render: 'never', every: 'week', scope: 'page' }, 201),
    });
    const user = userEvent.setup();
    storeSession('jwt-1');
    renderApp('/monitors');
    await screen.findByRole('heading', { level: 1, name: 'Monitors' }, { timeout: 5000 });
    const scope = screen.getByRole('group', { name: 'What to audit' });
    expect(within(scope).getByRole('radio', { name: 'Whole site (linked pages)' })).toBeChecked();
    expect(screen.getByLabelText('Max pages')).toHaveValue(25);
    await user.type(screen.getByLabelText('Website URL'), 'https://shop.example/');
    await user.click(within(scope).getByRole('radio', { name: 'This page' }));
    const render = screen.getByRole('combobox', { name: 'Render pages in a browser' });
    expect(render).toHaveValue('auto');
    await user.selectOptions(render, 'Never, read the HTML as sent');
    await user.click(screen.getByRole('button', { name: 'Start monitoring' }));
    await vi.waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      url: 'https://shop.example/',
      scope: 'page',
      maxPages: 25,
      render: 'never',
      every: 'week',
    });
  });
});
