import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { loadChunk } from './chunk-loading.ts';
import { RouteError } from './route-error.tsx';

function renderFailingRoute(error: Error) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        errorElement: <RouteError standalone />,
        lazy: async () => ({ Component: await loadChunk(() => Promise.reject(error)) }),
      },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
}

describe('route errors', () => {
  it("say 'Loading chunk failed' and offer a reload when a page's file cannot be downloaded", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderFailingRoute(new TypeError('Failed to fetch dynamically imported module: /assets/page-abc.js'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Loading chunk failed' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeInTheDocument();
  });

  it("title any other failure 'Unexpected Application Error!'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderFailingRoute(new Error('boom'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Unexpected Application Error!' }),
    ).toBeInTheDocument();
    expect(screen.getByText('boom')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it('give up on a chunk that never arrives', async () => {
    vi.useFakeTimers();
    const pending = loadChunk(() => new Promise(() => {}), 1000);
    vi.advanceTimersByTime(1000);
    await expect(pending).rejects.toThrow('Loading chunk failed');
    vi.useRealTimers();
  });
});
