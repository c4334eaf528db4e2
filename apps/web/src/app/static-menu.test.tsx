import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { PublicHeader } from './layouts/site-header.tsx';
import { enhanceMobileMenu } from './static-menu.ts';

/** The public header as the prerender writes it, driven by the script of the content-only pages. */
function prerenderedHeader() {
  document.body.innerHTML = `<div id="root">${renderToString(
    <MemoryRouter initialEntries={['/blogs']}>
      <PublicHeader />
    </MemoryRouter>,
  )}<main><h1>Blogs</h1></main></div>`;
  return enhanceMobileMenu(document);
}

let cleanup = () => {};
afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

describe('the mobile menu of a prerendered page without the app', () => {
  it('opens as a dialog, moves focus into it, closes with Escape and returns focus to the button', async () => {
    const user = userEvent.setup();
    cleanup = prerenderedHeader();
    const menuButton = screen.getByRole('button', { name: 'Menu' });
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(menuButton);
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    expect(menuButton).toHaveAttribute('aria-controls', dialog.id);
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(within(dialog).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(within(dialog).getByRole('link', { name: 'Blogs' })).toHaveAttribute('aria-current', 'page');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    expect(menuButton).toHaveFocus();
  });

  it('keeps Tab inside the open menu and closes with its Close button', async () => {
    const user = userEvent.setup();
    cleanup = prerenderedHeader();
    const menuButton = screen.getByRole('button', { name: 'Menu' });
    await user.click(menuButton);
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    for (let i = 0; i < 10; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(menuButton).toHaveFocus();
  });

  it('leaves a page without the menu untouched', () => {
    document.body.innerHTML = '<main><h1>Nothing to enhance</h1></main>';
    expect(() => enhanceMobileMenu(document)()).not.toThrow();
  });
});
