import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';
import { makeAudit } from './audit-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openAudit() {
  storeSession('jwt-1');
  const view = renderApp('/audit');
  await screen.findByRole('heading', { level: 1, name: 'Audit alt text' }, { timeout: 5000 });
  return view;
}

describe('audit (/audit)', () => {
  it('is linked from the signed-in bar and shows a labelled URL field, the scope radios and max pages 25', async () => {
    mockApi({ 'GET /audits': () => json([]) });
    await openAudit();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Audit' })).toHaveAttribute('href', '/audit');
    expect(screen.getByLabelText('Website URL')).toHaveValue('');
    const scope = screen.getByRole('group', { name: 'What to audit' });
    expect(within(scope).getByRole('radio', { name: 'This page' })).not.toBeChecked();
    expect(within(scope).getByRole('radio', { name: 'Whole site (linked pages)' })).toBeChecked();
    expect(within(scope).getByRole('radio', { name: 'Sitemap' })).not.toBeChecked();
    expect(screen.getByLabelText('Max pages')).toHaveValue(25);
    expect(await screen.findByText('You have not run an audit yet.')).toBeInTheDocument();
  });

  it('checks the form with the contract before sending anything, and focuses the first invalid field', async () => {
    const calls = mockApi({ 'GET /audits': () => json([]) });
    const user = userEvent.setup();
    await openAudit();
    await user.type(screen.getByLabelText('Website URL'), 'ftp://files.example');
    const maxPages = screen.getByLabelText('Max pages');
    await user.clear(maxPages);
    await user.type(maxPages, '501');
    await user.click(screen.getByRole('button', { name: 'Start audit' }));
    expect(await screen.findByText('Please enter a valid http or https URL')).toBeInTheDocument();
    expect(screen.getByText('maxPages must be at most 500')).toBeInTheDocument();
    expect(screen.getByLabelText('Website URL')).toHaveFocus();
    expect(screen.getByLabelText('Website URL')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('starts an audit with the chosen scope and opens it', async () => {
    const calls = mockApi({
      'GET /audits': () => json([]),
      'POST /audits': () => json({ id: '22222222-2222-4222-8222-222222222222' }, 202),
      'GET /audits/22222222-2222-4222-8222-222222222222': () =>
        json(makeAudit({ id: '22222222-2222-4222-8222-222222222222', status: 'completed' })),
    });
    const user = userEvent.setup();
    const { router } = await openAudit();
    await user.type(screen.getByLabelText('Website URL'), 'https://shop.example/');
    await user.click(screen.getByRole('radio', { name: 'Sitemap' }));
    const maxPages = screen.getByLabelText('Max pages');
    await user.clear(maxPages);
    await user.type(maxPages, '40');
    // Rendering: a select with its own name; automatic unless chosen.
    const render = screen.getByRole('combobox', { name: 'Render pages in a browser' });
    expect(render).toHaveValue('auto');
    await user.selectOptions(render, 'Always, every page');
    await user.click(screen.getByRole('button', { name: 'Start audit' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/audit/22222222-2222-4222-8222-222222222222'),
    );
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({
      url: 'https://shop.example/',
      scope: 'sitemap',
      maxPages: 40,
      render: 'always',
    });
    expect(post?.headers.get('Authorization')).toBe('Bearer jwt-1');
  });

  it('shows the server’s reason when the audit cannot start (a private address, the daily limit)', async () => {
    mockApi({
      'GET /audits': () => json([]),
      'POST /audits': () =>
        json({ message: 'You can start at most 50 audits a day.', code: 'RATE_LIMITED' }, 429),
    });
    const user = userEvent.setup();
    await openAudit();
    await user.type(screen.getByLabelText('Website URL'), 'https://shop.example/');
    await user.click(screen.getByRole('button', { name: 'Start audit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You can start at most 50 audits a day.');
  });

  it('lists the audits newest first with status, pages scanned, images found and score', async () => {
    mockApi({
      'GET /audits': () =>
        json([
          makeAudit({
            id: '33333333-3333-4333-8333-333333333333',
            url: 'https://new.example/',
            status: 'running',
            score: null,
          }),
          makeAudit(),
        ]),
    });
    await openAudit();
    const table = await screen.findByRole('table', { name: 'Your audits, newest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(
      within(rows[0] as HTMLElement).getByRole('link', { name: 'https://new.example/' }),
    ).toHaveAttribute('href', '/audit/33333333-3333-4333-8333-333333333333');
    expect(rows[0]).toHaveTextContent('Running');
    expect(rows[1]).toHaveTextContent(/Completed\s*35\s*40%/);
  });
});
