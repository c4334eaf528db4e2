import { messages } from '@altwise/contracts/messages';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../components/ui/notify.ts';
import { deferred, findToast, json, mockApi } from '../../test/mock-api.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

const profile = {
  id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  image_credits: 675,
  imagecount: 12,
  subscriptionPlan: 'Growth Monthly',
  apiRequestCount: 0,
  monthlyRequestCount: 25,
  contentHistory: [],
};

type Subscription = {
  current_plan: string;
  payment_status: string;
  next_renewal_date: string | null;
  cancel_at_period_end?: boolean;
  current_period_end?: string | null;
};

const trial: Subscription = {
  current_plan: 'Trial',
  payment_status: 'Not Subscribed',
  next_renewal_date: null,
};
const growth: Subscription = {
  current_plan: 'Growth Monthly',
  payment_status: 'active',
  next_renewal_date: '2027-03-05T12:00:00.000Z',
};

function subscriptionAnswer(subscription: Subscription) {
  return json({
    subscription: { cancel_at_period_end: false, current_period_end: null, ...subscription },
  });
}

const historyItem = (n: number, overrides: Record<string, unknown> = {}) => ({
  title: `Growth Monthly (subscription) #${n}`,
  status: 'succeeded',
  date: '2026-11-22T12:00:00.000Z',
  transactionId: `pay_${n}`,
  creditsAdded: 500,
  ...overrides,
});

function handlers({
  subscription = trial,
  history = { history: [], pagination: { currentPage: 1, totalPages: 1 } } as unknown,
  user = profile as Record<string, unknown>,
} = {}) {
  return {
    'GET /users/profile': () => json({ user }),
    'GET /credits/remaining': () => json({ success: true, imageCredits: 675 }),
    'GET /users/subscription-details': () => subscriptionAnswer(subscription),
    'GET /users/billing-history': () => json(history),
  };
}

function card(title: string): HTMLElement {
  const section = screen.getByRole('heading', { level: 2, name: title }).closest('section');
  if (!section) throw new Error(`no card ${title}`);
  return section;
}

/** The value of a label in a card's description list. */
function fieldValue(cardTitle: string, label: string): HTMLElement {
  const term = within(card(cardTitle)).getByText(label, { selector: 'dt' });
  const value = term.nextElementSibling;
  if (!(value instanceof HTMLElement)) throw new Error(`no value for ${label}`);
  return value;
}

async function openDashboard() {
  storeSession('jwt');
  const view = renderApp('/dashboard');
  await screen.findByRole('heading', { level: 2, name: 'Profile Information' }, { timeout: 5000 });
  return view;
}

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => notify.clear());
});

describe('dashboard', () => {
  it('sends a signed-out visitor to /login', async () => {
    const calls = mockApi(handlers());
    const { router } = renderApp('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    expect(calls.filter((c) => c.path !== '/config')).toEqual([]);
  });

  it("says 'Loading please wait...' until the profile is in", async () => {
    const profileAnswer = deferred<Response>();
    mockApi({ ...handlers(), 'GET /users/profile': () => profileAnswer.promise });
    storeSession('jwt');
    renderApp('/dashboard');
    expect(await screen.findByText(messages.dashboard.loading, {}, { timeout: 5000 })).toBeInTheDocument();
    profileAnswer.resolve(json({ user: profile }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Profile Information' })).toBeInTheDocument();
  });

  it("shows the trial defaults: 'Trial', 'Not Subscribed', 'NA', no Cancel Renewal", async () => {
    const calls = mockApi(handlers());
    await openDashboard();
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeInTheDocument();
    expect(fieldValue('Profile Information', 'Name')).toHaveTextContent('Ada Lovelace');
    expect(fieldValue('Profile Information', 'Email')).toHaveTextContent('ada@example.com');
    await waitFor(() => expect(fieldValue('Credit Usage', 'Credit Remaining')).toHaveTextContent('675'));
    await waitFor(() => expect(fieldValue('Payment & Plans', 'Current Plan')).toHaveTextContent('Trial'));
    expect(fieldValue('Payment & Plans', 'Payment Status')).toHaveTextContent('Not Subscribed');
    expect(fieldValue('Payment & Plans', 'Billing Cycle')).toHaveTextContent('NA');
    expect(fieldValue('Payment & Plans', 'Next Renewal Date')).toHaveTextContent('NA');
    expect(screen.getByRole('link', { name: 'Add Credits' })).toHaveAttribute('href', '/plans');
    expect(screen.queryByRole('button', { name: 'Cancel Renewal' })).not.toBeInTheDocument();
    expect(fieldValue('Images with AltText in your Library', 'Count')).toHaveTextContent('12');
    expect(screen.getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/images');
    expect(await screen.findByText(messages.dashboard.noPaymentHistory)).toBeInTheDocument();
    for (const call of calls) expect(call.headers.get('Authorization')).toBe('Bearer jwt');
  });

  it('greets by username, then User, when names are missing', async () => {
    mockApi(handlers({ user: { ...profile, firstName: '' } }));
    await openDashboard();
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, ada' })).toBeInTheDocument();
  });

  it('shows an active monthly plan with its renewal date and Cancel Renewal', async () => {
    mockApi(handlers({ subscription: growth }));
    await openDashboard();
    await waitFor(() =>
      expect(fieldValue('Payment & Plans', 'Current Plan')).toHaveTextContent('Growth Monthly'),
    );
    const status = within(fieldValue('Payment & Plans', 'Payment Status')).getByText('Payment Successful');
    expect(status.className).toMatch(/indigo/);
    expect(fieldValue('Payment & Plans', 'Billing Cycle')).toHaveTextContent('Monthly');
    expect(fieldValue('Payment & Plans', 'Next Renewal Date')).toHaveTextContent(/^Mar 0[45], 2027$/);
    expect(screen.getByRole('button', { name: 'Cancel Renewal' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add Credits' })).toBeInTheDocument();
  });

  it.each([
    ['succeeded', 'Payment Successful', /indigo/, true, true],
    ['on_hold', 'Payment Failed', /red/, true, false],
    ['failed', 'Payment Failed', /red/, true, false],
    ['cancelled', 'Subscription Cancelled', /amber/, true, false],
    ['expired', 'Plan Expired', /amber/, true, false],
    ['Payment Processing (Credits Added)', 'Payment Processing (Credits Added)', /amber/, false, false],
    ['pending', 'pending', /indigo/, true, false],
  ])('maps the status %s to %s', async (raw, label, colour, addCredits, cancel) => {
    mockApi(
      handlers({
        subscription: { current_plan: 'Pro Yearly', payment_status: raw, next_renewal_date: null },
      }),
    );
    await openDashboard();
    const status = await within(fieldValue('Payment & Plans', 'Payment Status')).findByText(label);
    expect(status.className).toMatch(colour);
    expect(fieldValue('Payment & Plans', 'Billing Cycle')).toHaveTextContent('Yearly');
    expect(screen.queryByRole('link', { name: 'Add Credits' }) !== null).toBe(addCredits);
    expect(screen.queryByRole('button', { name: 'Cancel Renewal' }) !== null).toBe(cancel);
  });

  it('cancels renewal after the confirm prompt, says so and refetches the subscription', async () => {
    let subscription = growth;
    const calls = mockApi({
      ...handlers(),
      'GET /users/subscription-details': () => subscriptionAnswer(subscription),
      'PATCH /users/cancel-subscription': () => {
        subscription = { ...growth, payment_status: 'cancelled', next_renewal_date: null };
        return json({ success: true, message: messages.subscription.cancelSuccess });
      },
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const user = userEvent.setup();
    await openDashboard();
    const button = await screen.findByRole('button', { name: 'Cancel Renewal' });

    await user.click(button);
    expect(confirm).toHaveBeenCalledWith(messages.subscription.cancelConfirm);
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);

    await user.click(button);
    expect(await findToast(messages.subscription.cancelSuccess)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
    expect(
      await within(fieldValue('Payment & Plans', 'Payment Status')).findByText('Subscription Cancelled'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Renewal' })).not.toBeInTheDocument();
  });

  it("shows the server's reason, or 'Failed to cancel subscription', when the cancel fails", async () => {
    let answer = () => json({ message: 'No active plan to cancel', code: 'NOT_FOUND' }, 404);
    mockApi({
      ...handlers({ subscription: growth }),
      'PATCH /users/cancel-subscription': () => answer(),
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const user = userEvent.setup();
    await openDashboard();
    await user.click(await screen.findByRole('button', { name: 'Cancel Renewal' }));
    expect(await findToast('No active plan to cancel')).toBeInTheDocument();
    answer = () => new Response('<html>bad gateway</html>', { status: 502 });
    await user.click(screen.getByRole('button', { name: 'Cancel Renewal' }));
    expect(await findToast(messages.subscription.cancelFailed)).toBeInTheDocument();
  });

  it('lists payments with clean titles and pages through them', async () => {
    const pages: Record<string, unknown> = {
      '1': { history: [historyItem(1), historyItem(2)], pagination: { currentPage: 1, totalPages: 2 } },
      '2': {
        history: [historyItem(3, { title: 'Credit Pack × 3 (one-time)', creditsAdded: 150 })],
        pagination: { currentPage: 2, totalPages: 2 },
      },
    };
    const requested: string[] = [];
    mockApi({
      ...handlers(),
      'GET /users/billing-history': ({ query }) => {
        const page = query.get('page') ?? '';
        requested.push(page);
        return json(pages[page]);
      },
    });
    const user = userEvent.setup();
    await openDashboard();
    const historyCard = () => card('Payment History');
    expect(await within(historyCard()).findByText('Growth Monthly #1')).toBeInTheDocument();
    expect(within(historyCard()).getByText('pay_1')).toBeInTheDocument();
    expect(historyCard()).toHaveTextContent('Page 1 of 2');
    const previous = within(historyCard()).getByRole('button', { name: 'Previous' });
    expect(previous).toHaveAttribute('aria-disabled', 'true');

    await user.click(within(historyCard()).getByRole('button', { name: 'Next' }));
    expect(await within(historyCard()).findByText('Credit Pack × 3')).toBeInTheDocument();
    expect(historyCard()).toHaveTextContent('Page 2 of 2');
    expect(historyCard()).toHaveTextContent('Credits added: 150');
    expect(historyCard()).toHaveTextContent('Nov 22, 2026');
    expect(requested).toEqual(['1', '2']);
    expect(within(historyCard()).getByRole('button', { name: 'Next' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );

    await user.click(within(historyCard()).getByRole('button', { name: 'Previous' }));
    expect(await within(historyCard()).findByText('Growth Monthly #1')).toBeInTheDocument();
  });

  it('hides the pager with a single page', async () => {
    mockApi(
      handlers({ history: { history: [historyItem(1)], pagination: { currentPage: 1, totalPages: 1 } } }),
    );
    await openDashboard();
    expect(await within(card('Payment History')).findByText('Growth Monthly #1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Page 1 of/)).not.toBeInTheDocument();
  });

  it("falls back to 'An unknown error occurred' when the history fails without a message", async () => {
    mockApi({
      ...handlers(),
      // A proxy's page instead of our error body (a 4xx, so it is not retried).
      'GET /users/billing-history': () => new Response('<html>oops</html>', { status: 404 }),
    });
    await openDashboard();
    expect(
      await within(card('Payment History')).findByText(messages.common.unknownError),
    ).toBeInTheDocument();
  });

  it('confirms a payment the hosted checkout sent the person back with, and refetches the credits', async () => {
    let status = 'pending';
    let credits = 25;
    const calls = mockApi({
      ...handlers(),
      'GET /credits/remaining': () => json({ success: true, imageCredits: credits }),
      'POST /stripe/verify-payment/pay_77': () =>
        json({
          success: status === 'succeeded',
          status,
          message: '',
          transactionId: 'pay_77',
          productId: 'growth-monthly',
          title: 'Growth Monthly (subscription)',
          creditsAdded: 500,
          amount: 19,
          date: '2026-11-22T12:00:00.000Z',
        }),
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      storeSession('jwt');
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const { router } = renderApp('/dashboard?payment_id=pay_77&status=succeeded');
      expect(
        await screen.findByText('Confirming your payment...', {}, { timeout: 5000 }),
      ).toBeInTheDocument();
      await waitFor(() => expect(fieldValue('Credit Usage', 'Credit Remaining')).toHaveTextContent('25'));
      status = 'succeeded';
      credits = 525;
      await vi.advanceTimersByTimeAsync(2500);
      const banner = await screen.findByText(/Growth Monthly is paid and 500 credits were added/);
      expect(banner.closest('[role="status"]')?.className).toMatch(/green/);
      await waitFor(() => expect(fieldValue('Credit Usage', 'Credit Remaining')).toHaveTextContent('525'));
      expect(calls.filter((c) => c.path === '/credits/remaining').length).toBeGreaterThan(1);

      await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
      expect(router.state.location.search).toBe('');
      expect(screen.queryByText(/credits were added/)).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('goes to /login when the credits call answers 401', async () => {
    mockApi({
      ...handlers(),
      'GET /credits/remaining': () => json({ message: 'Unauthorized', code: 'UNAUTHORIZED' }, 401),
    });
    storeSession('jwt-expired');
    const { router } = renderApp('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('lists the next steps as links, marking done what the person already did', async () => {
    mockApi({
      ...handlers({ user: { ...profile, imagecount: 0 } }),
      'GET /audits': () => json([{ id: 'a1' }]),
      'GET /integrations': () => json([]),
    });
    await openDashboard();
    const steps = card('Next steps');
    expect(within(steps).getByRole('link', { name: 'Audit your site' })).toHaveAttribute('href', '/audit');
    expect(within(steps).getByRole('link', { name: 'Connect WordPress' })).toHaveAttribute(
      'href',
      '/integrations',
    );
    expect(within(steps).getByRole('link', { name: 'Upload images' })).toHaveAttribute(
      'href',
      '/upload-images',
    );
    expect(await within(steps).findByText('1 of 3 done.')).toBeInTheDocument();
    const auditStep = within(steps).getByRole('link', { name: 'Audit your site' }).closest('li');
    expect(auditStep).toHaveTextContent('Done');
    const uploadStep = within(steps).getByRole('link', { name: 'Upload images' }).closest('li');
    expect(uploadStep).not.toHaveTextContent('Done');
  });
});
