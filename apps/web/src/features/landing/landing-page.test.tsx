import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';

describe('landing page', () => {
  it('links the three feature cards to the editor and the reel generator (the product spec §2)', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    const cards = screen.getAllByRole('heading', { level: 3 }).slice(0, 3);
    expect(cards.map((h) => h.textContent)).toEqual([
      'AI Image Editing',
      'Instagram Captions',
      'AI Reel Generator',
    ]);
    const hrefs = cards.map((h) =>
      within(h.closest('li') as HTMLElement)
        .getByRole('link')
        .getAttribute('href'),
    );
    expect(hrefs).toEqual(['/caption-generator', '/caption-generator', '/reel-generator']);
  });

  it('sends every Start free trial button to /register', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    const ctas = screen.getAllByRole('link', { name: 'Start free trial' });
    expect(ctas).toHaveLength(2);
    for (const cta of ctas) expect(cta).toHaveAttribute('href', '/register');
  });

  it('shows the before/after example with alt text and explicit sizes, and the three steps', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    const images = screen.getAllByRole('img').filter((img) => img.tagName === 'IMG');
    expect(images).toHaveLength(2);
    for (const img of images) {
      expect(img.getAttribute('alt')?.length).toBeGreaterThan(40);
      expect(img).toHaveAttribute('width', '600');
      expect(img).toHaveAttribute('height', '400');
      expect(img.getAttribute('src')).toMatch(/\.webp$/);
    }
    const steps = within(
      screen.getByRole('heading', { name: 'How it works' }).closest('section') as HTMLElement,
    );
    expect(steps.getAllByRole('listitem').map((li) => li.querySelector('h3')?.textContent)).toEqual([
      'Step 1: Upload image',
      'Step 2: Enter prompt',
      'Step 3: Get results',
    ]);
  });

  it('tells about site audits, WordPress, the CLI and CI', async () => {
    renderApp('/');
    const section = (await screen.findByRole('heading', { level: 2, name: /Your whole site/ })).closest(
      'section',
    );
    if (!section) throw new Error('no site tools section');
    expect(within(section).getByRole('heading', { level: 3, name: 'Site audits' })).toBeInTheDocument();
    expect(within(section).getByRole('heading', { level: 3, name: 'WordPress' })).toBeInTheDocument();
    expect(within(section).getByText(/npx altwise audit, fail a pull request/)).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: /developer guide for the CLI and CI/ })).toHaveAttribute(
      'href',
      '/developers',
    );
  });
});
