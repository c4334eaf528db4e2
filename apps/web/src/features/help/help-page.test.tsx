import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('help page', () => {
  it('keeps Contact Support and explains audits, WordPress and the CLI with links', async () => {
    mockApi({ 'GET /credits/remaining': () => json({ success: true, imageCredits: 5 }) });
    storeSession('jwt');
    renderApp('/help');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Need Help?' }, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/support');
    expect(screen.getByRole('heading', { level: 3, name: 'Audit your site' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start an audit' })).toHaveAttribute('href', '/audit');
    expect(screen.getByRole('link', { name: 'Connect a WordPress site' })).toHaveAttribute(
      'href',
      '/integrations',
    );
    expect(screen.getByText(/npx altwise audit checks a live site/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Read the developer guide' })).toHaveAttribute(
      'href',
      '/developers',
    );
  });
});
