import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app.tsx';

describe('unknown routes', () => {
  it('show a not-found page inside the site frame, with a way home', async () => {
    const { router } = renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(document.title).toBe('Page not found – Altwise');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Go to the home page' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: /alt text for every image/i }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});
