import { messages } from '@altwise/contracts/messages';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../components/ui/notify.ts';
import { deferred, findToast, json, type MockCall, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';
import { hostedCheckout } from './api/create-checkout-session.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  // Toasts live in a module-level store: start every test without the last one's.
  act(() => notify.clear());
});

const posts = (calls: MockCall[]) => calls.filter((c) => c.method === 'POST');

const checkoutUrl =
  '/buy/growth-monthly?quantity=1&firstName=Ada&lastName=Lovelace&email=ada%40example.com&redirect_url=http%3A%2F%2Flocalhost%2Fdashboard';

describe('checkout', () => {
  it('shows the plan of the link and sends the browser to the hosted checkout on Pay', async () => {
    const answer = deferred<Response>();
    const calls = mockApi({ 'POST /payments/create-checkout-session': () => answer.promise });
    const open = vi.spyOn(hostedCheckout, 'open').mockImplementation(() => {});
    const user = userEvent.setup();
    storeSession('jwt');
    renderApp('/checkout/growth?amount=19');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Checkout' }, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.getByText('Growth plan')).toBeInTheDocument();
    expect(screen.getByText('$19')).toBeInTheDocument();
    expect(screen.getByText('500 per month')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(await screen.findByText(messages.checkout.processing)).toBeInTheDocument();
    expect(posts(calls)[0]?.body).toEqual({ productId: 'growth-monthly', userId: 'u1' });
    expect(posts(calls)[0]?.headers.get('Authorization')).toBe('Bearer jwt');

    answer.resolve(
      json({ success: true, message: 'Checkout session created', checkoutUrl, checkoutId: 'c1' }),
    );
    await waitFor(() => expect(open).toHaveBeenCalledWith(checkoutUrl));
  });

  it('buys a yearly plan when the link carries the yearly amount, and packs by quantity', async () => {
    const calls = mockApi({
      'POST /payments/create-checkout-session': () =>
        json({ success: true, message: 'ok', checkoutUrl: '/buy/x', checkoutId: 'c1' }),
    });
    vi.spyOn(hostedCheckout, 'open').mockImplementation(() => {});
    const user = userEvent.setup();
    storeSession('jwt');
    const { unmount } = renderApp('/checkout/growth?amount=189');
    await user.click(await screen.findByRole('button', { name: 'Pay' }, { timeout: 5000 }));
    await waitFor(() => expect(posts(calls)[0]?.body).toMatchObject({ productId: 'growth-yearly' }));
    unmount();

    renderApp('/checkout/credit-pack?amount=9&quantity=3');
    expect(await screen.findByText('3 credit packs')).toBeInTheDocument();
    expect(screen.getByText('$9')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() =>
      expect(posts(calls)[1]?.body).toEqual({ productId: 'credit-pack', userId: 'u1', quantity: 3 }),
    );
  });

  it("shows the server's error in red and toasts 'Failed to initiate checkout'", async () => {
    mockApi({
      'POST /payments/create-checkout-session': () =>
        json({ message: 'Payments are not configured', code: 'SERVICE_UNAVAILABLE' }, 400),
    });
    const open = vi.spyOn(hostedCheckout, 'open');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    storeSession('jwt');
    renderApp('/checkout/pro?amount=49');
    await user.click(await screen.findByRole('button', { name: 'Pay' }, { timeout: 5000 }));
    expect(await findToast(messages.checkout.failed)).toBeInTheDocument();
    const banner = screen.getByText('Payments are not configured').closest('[role="alert"]');
    expect(banner?.className).toMatch(/red/);
    expect(open).not.toHaveBeenCalled();
  });

  it('only logs an unknown plan, and requests nothing', async () => {
    const calls = mockApi({});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    storeSession('jwt');
    renderApp('/checkout/platinum?amount=5');
    expect(await screen.findByText(/There is no plan called/, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay' })).not.toBeInTheDocument();
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(calls).toEqual([]);
  });

  it('sends a signed-out visitor to /login', async () => {
    mockApi({});
    const { router } = renderApp('/checkout/growth?amount=19');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
  });
});

describe('pricing checkout', () => {
  it('creates the checkout session from the pricing page and goes to the hosted checkout', async () => {
    const calls = mockApi({
      'POST /payments/create-checkout-session': () =>
        json({
          success: true,
          message: 'ok',
          checkoutUrl: '/buy/growth-yearly?quantity=1',
          checkoutId: 'c1',
        }),
    });
    const open = vi.spyOn(hostedCheckout, 'open').mockImplementation(() => {});
    const user = userEvent.setup();
    storeSession('jwt');
    const { router } = renderApp('/plans');
    await user.click(await screen.findByRole('radio', { name: 'Yearly' }, { timeout: 5000 }));
    await user.click(screen.getByRole('link', { name: 'Choose Growth' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('/buy/growth-yearly?quantity=1'));
    expect(posts(calls)[0]?.body).toEqual({ productId: 'growth-yearly', userId: 'u1' });
    expect(router.state.location.pathname).toBe('/plans');
  });

  it('buys the typed number of packs', async () => {
    const calls = mockApi({
      'POST /payments/create-checkout-session': () =>
        json({ success: true, message: 'ok', checkoutUrl: '/buy/credit-pack?quantity=3', checkoutId: 'c1' }),
    });
    vi.spyOn(hostedCheckout, 'open').mockImplementation(() => {});
    const user = userEvent.setup();
    storeSession('jwt');
    renderApp('/plans');
    const quantity = await screen.findByLabelText('Number of packs', {}, { timeout: 5000 });
    await user.clear(quantity);
    await user.type(quantity, '3');
    await user.click(screen.getByRole('link', { name: 'Buy 3 credit packs' }));
    await waitFor(() =>
      expect(posts(calls)[0]?.body).toEqual({ productId: 'credit-pack', userId: 'u1', quantity: 3 }),
    );
  });

  it("toasts 'Failed to initiate checkout' and stays on the pricing page", async () => {
    mockApi({
      'POST /payments/create-checkout-session': () =>
        json({ message: 'You already have a plan that renews', code: 'CONFLICT' }, 409),
    });
    const open = vi.spyOn(hostedCheckout, 'open');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    storeSession('jwt');
    const { router } = renderApp('/plans');
    await user.click(await screen.findByRole('link', { name: 'Choose Pro' }, { timeout: 5000 }));
    expect(await findToast(messages.checkout.failed)).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/plans');
  });
});

describe('free plan', () => {
  it("confirms the free plan: pending, then 'Plan has been upgraded'", async () => {
    const answer = deferred<Response>();
    const calls = mockApi({ 'POST /stripe/free-plan': () => answer.promise });
    const user = userEvent.setup();
    storeSession('jwt');
    renderApp('/free-plan');
    await user.click(await screen.findByRole('button', { name: 'Confirm Free Plan' }, { timeout: 5000 }));
    expect(await screen.findByText('Upgrading your plan...')).toBeInTheDocument();
    expect(posts(calls)).toHaveLength(1);
    expect(posts(calls)[0]?.body).toBeUndefined();
    answer.resolve(json({ success: true, message: messages.freePlan.success }));
    const success = await screen.findByText(messages.freePlan.success);
    expect(success.closest('[role="status"]')?.className).toMatch(/green/);
    expect(screen.getByRole('link', { name: 'Go to dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it("shows the response's error", async () => {
    mockApi({
      'POST /stripe/free-plan': () =>
        json(
          {
            message: 'You already have a paid plan',
            code: 'CONFLICT',
            error: 'You already have a paid plan',
          },
          409,
        ),
    });
    const user = userEvent.setup();
    storeSession('jwt');
    renderApp('/free-plan');
    await user.click(await screen.findByRole('button', { name: 'Confirm Free Plan' }, { timeout: 5000 }));
    const error = await screen.findByText('You already have a paid plan');
    expect(error.closest('[role="alert"]')?.className).toMatch(/red/);
  });
});

describe('payment verification', () => {
  const payment = {
    success: true,
    status: 'succeeded',
    message: 'Payment verified',
    transactionId: 'pay_123',
    productId: 'growth-monthly',
    title: 'Growth Monthly (subscription)',
    creditsAdded: 500,
    amount: 19,
    date: '2026-11-22T12:00:00.000Z',
  };

  it("verifies, then says 'Payment Successful' with the transaction id and a link to start", async () => {
    const answer = deferred<Response>();
    const calls = mockApi({ 'POST /stripe/verify-payment/pay_123': () => answer.promise });
    storeSession('jwt');
    renderApp('/success?payment_intent=pay_123');
    expect(
      await screen.findByRole('heading', { level: 1, name: messages.payment.verifying }, { timeout: 5000 }),
    ).toBeInTheDocument();
    answer.resolve(json(payment));
    expect(
      await screen.findByRole('heading', { level: 1, name: messages.payment.success }),
    ).toBeInTheDocument();
    expect(screen.getByText('pay_123')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start using AI' })).toHaveAttribute('href', '/images');
    expect(posts(calls)).toHaveLength(1);
  });

  it("says 'Payment verification failed' for a failed payment", async () => {
    mockApi({
      'POST /stripe/verify-payment/pay_9': () =>
        json({ ...payment, success: false, status: 'failed', transactionId: 'pay_9' }),
    });
    storeSession('jwt');
    renderApp('/success?payment_intent=pay_9');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: messages.payment.verificationFailed },
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
  });

  it("says 'An error occurred' when the call fails", async () => {
    mockApi({
      'POST /stripe/verify-payment/nope': () =>
        json({ message: 'Payment not found', code: 'NOT_FOUND' }, 404),
    });
    storeSession('jwt');
    renderApp('/success?payment_intent=nope');
    expect(
      await screen.findByRole('heading', { level: 1, name: messages.payment.error }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('asks again while the payment is pending', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let status = 'pending';
      mockApi({
        'POST /stripe/verify-payment/pay_5': () => json({ ...payment, status, transactionId: 'pay_5' }),
      });
      storeSession('jwt');
      renderApp('/success?payment_intent=pay_5');
      expect(
        await screen.findByRole('heading', { level: 1, name: messages.payment.verifying }, { timeout: 5000 }),
      ).toBeInTheDocument();
      status = 'succeeded';
      await vi.advanceTimersByTimeAsync(2500);
      expect(
        await screen.findByRole('heading', { level: 1, name: messages.payment.success }, { timeout: 5000 }),
      ).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails without a payment id and requests nothing', async () => {
    const calls = mockApi({});
    renderApp('/success');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: messages.payment.verificationFailed },
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(posts(calls)).toEqual([]);
  });
});
