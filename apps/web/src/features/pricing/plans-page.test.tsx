import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, storeSession } from '../../test/render-app.tsx';

function planCard(name: string): HTMLElement {
  const card = screen.getByRole('heading', { level: 3, name }).closest('li');
  if (!card) throw new Error(`no card for ${name}`);
  return card;
}

describe('pricing page', () => {
  it('shows five plans monthly by default and yearly prices after the toggle', async () => {
    const user = userEvent.setup();
    renderApp('/plans');
    await screen.findByRole('heading', { level: 1, name: 'Pricing' });
    expect(screen.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Starter',
      'Growth',
      'Pro',
      'Advanced',
      'Premium',
    ]);
    const growth = planCard('Growth');
    expect(growth).toHaveTextContent('$19/month');
    expect(growth).toHaveTextContent('500 Credits/month');
    expect(growth).toHaveTextContent('Most popular');
    expect(planCard('Pro')).not.toHaveTextContent('Most popular');

    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(planCard('Growth')).toHaveTextContent('$189/year');
    expect(planCard('Premium')).toHaveTextContent('120,000 Credits/year');
  });

  it('sends a signed-out visitor to /login, and the free plan to /register', async () => {
    renderApp('/plans');
    await screen.findByRole('heading', { level: 1, name: 'Pricing' });
    expect(within(planCard('Growth')).getByRole('link', { name: 'Choose Growth' })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(screen.getByRole('link', { name: 'Start free trial' })).toHaveAttribute('href', '/register');
  });

  it('sends a signed-in person to the checkout with the amount of the chosen period', async () => {
    const user = userEvent.setup();
    storeSession();
    renderApp('/plans');
    await screen.findByRole('heading', { level: 1, name: 'Pricing' });
    expect(screen.getByRole('link', { name: 'Choose Growth' })).toHaveAttribute(
      'href',
      '/checkout/growth?amount=19',
    );
    await user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(screen.getByRole('link', { name: 'Choose Growth' })).toHaveAttribute(
      'href',
      '/checkout/growth?amount=189',
    );
    expect(screen.getByRole('link', { name: 'Choose Free' })).toHaveAttribute('href', '/free-plan');
  });

  it('totals the credit pack, reading an empty quantity as 1', async () => {
    const user = userEvent.setup();
    storeSession();
    renderApp('/plans');
    await screen.findByRole('heading', { level: 1, name: 'Pricing' });
    const quantity = screen.getByLabelText('Number of packs');
    expect(quantity).toHaveValue(1);
    expect(quantity).toHaveAttribute('min', '1');
    expect(screen.getByText(/Total:/)).toHaveTextContent('Total: $3 for 50 credits');

    await user.clear(quantity);
    await user.type(quantity, '4');
    expect(screen.getByText(/Total:/)).toHaveTextContent('Total: $12 for 200 credits');
    expect(screen.getByRole('link', { name: 'Buy 4 credit packs' })).toHaveAttribute(
      'href',
      '/checkout/credit-pack?amount=12&quantity=4',
    );

    await user.clear(quantity);
    expect(screen.getByText(/Total:/)).toHaveTextContent('Total: $3 for 50 credits');
  });
});
