import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, storeSession } from '../../test/render-app.tsx';

describe('public bar', () => {
  it('links Home, Support, Pricing, Blogs and Log in, marking the current page', async () => {
    renderApp('/plans');
    await screen.findByRole('heading', { level: 1, name: 'Pricing' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    for (const [name, href] of [
      ['Home', '/'],
      ['Support', '/support'],
      ['Pricing', '/plans'],
      ['Blogs', '/blogs'],
      ['Log in', '/login'],
    ]) {
      expect(within(nav).getByRole('link', { name })).toHaveAttribute('href', href);
    }
    expect(within(nav).getByRole('link', { name: 'Pricing' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    expect(screen.getByText('Altwise is in beta.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(
      within(footer)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Support', 'Pricing', 'Blogs', 'Developers', 'Accuracy']);
  });

  it('opens the mobile menu dialog, closes it with Escape and returns focus to the button', async () => {
    const user = userEvent.setup();
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    const menuButton = screen.getByRole('button', { name: 'Menu' });
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(menuButton);
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    expect(menuButton).toHaveAttribute('aria-controls', dialog.id);
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(within(dialog).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    expect(menuButton).toHaveFocus();
  });

  it('keeps Tab inside the open mobile menu', async () => {
    const user = userEvent.setup();
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    for (let i = 0; i < 10; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
  });

  it('closes the mobile menu when a link is chosen', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('link', { name: 'Support' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/support'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Support' })).toHaveFocus();
  });
});

describe('signed-in bar', () => {
  it('links Dashboard, Images, Audit, Integrations, Account and Help, and logs out to /login', async () => {
    const user = userEvent.setup();
    storeSession();
    const { navigateTo } = renderApp('/help');
    expect(await screen.findByRole('heading', { level: 1, name: 'Need Help?' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/support');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'Images', 'Audit', 'Integrations', 'Account', 'Help']);
    expect(within(nav).getByRole('link', { name: 'Help' })).toHaveAttribute('aria-current', 'page');

    await user.click(within(nav).getByRole('button', { name: 'Log out' }));
    expect(localStorage.length).toBe(0);
    expect(navigateTo).toHaveBeenCalledWith('/login');
  });

  it('offers a sign-out entry in the mobile menu', async () => {
    const user = userEvent.setup();
    storeSession();
    const { navigateTo } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: /^Welcome, / });
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('button', { name: 'Sign out' }),
    );
    expect(localStorage.getItem('token')).toBeNull();
    expect(navigateTo).toHaveBeenCalledWith('/login');
  });
});
