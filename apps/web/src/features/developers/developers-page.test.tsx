import { curlSamples, webhookVerifySample } from '@altwise/contracts/developer-samples';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';

describe('developers page', () => {
  it('shows the key steps, each curl sample and the webhook check, each with a copy button', async () => {
    renderApp('/developers');
    await screen.findByRole('heading', { level: 1, name: 'Developers' });
    // The title is set in an effect, which can run after the heading is on screen.
    await waitFor(() => expect(document.title).toBe('Developers – Altwise'));
    for (const name of [
      '1. Create an API key',
      '2. Create a batch, follow it, read the results',
      '3. Get a webhook when a batch is done',
    ])
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
    for (const sample of curlSamples) {
      expect(screen.getByRole('heading', { level: 3, name: sample.title })).toBeInTheDocument();
      expect(
        screen.getByText(
          (_, element) => element?.tagName === 'CODE' && element.textContent === sample.command,
        ),
      ).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'browse the API reference' })).toHaveAttribute(
      'href',
      '/api/docs',
    );
    expect(screen.getAllByRole('link', { name: 'your account' })[0]).toHaveAttribute('href', '/account');
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(footer).getByRole('link', { name: 'Developers' })).toHaveAttribute('href', '/developers');
  });

  it('copies the webhook sample from its named button', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    renderApp('/developers');
    await user.click(await screen.findByRole('button', { name: 'Copy: Verify a webhook signature (Node)' }));
    expect(writeText).toHaveBeenCalledWith(webhookVerifySample);
    expect(await screen.findByText('Copied to clipboard')).toBeInTheDocument();
  });
});
