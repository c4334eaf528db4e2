import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.cleanup());

async function checkoutUrl(user: TestUser, productId: string, quantity?: number): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/create-checkout-session',
    headers: user.auth,
    payload: { productId, quantity },
  });
  return res.json().checkoutUrl;
}

/** Submits the hosted page's form as a browser would: its hidden and read-only fields plus the card. */
async function pay(url: string, card: { cardNumber: string; expiry?: string; cvc?: string }) {
  const page = await t.app.inject({ method: 'GET', url });
  const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const fields = new URLSearchParams();
  for (const [, name, value] of page.body.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
    fields.set(
      name ?? '',
      (value ?? '').replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"'),
    );
  }
  fields.set('cardNumber', card.cardNumber);
  fields.set('expiry', card.expiry ?? '12/40');
  fields.set('cvc', card.cvc ?? '123');
  return t.app.inject({
    method: 'POST',
    url: action,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: fields.toString(),
  });
}

const history = async (user: TestUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/users/billing-history', headers: user.auth })).json();

describe('sandbox hosted checkout /buy/{productId}', () => {
  it('renders an accessible page with the order, the buyer shown read-only and a labelled card form', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({ method: 'GET', url: await checkoutUrl(user, 'credit-pack', 3) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<main>[\s\S]*<h1>Altwise checkout<\/h1>/);
    expect(html).toContain('Credit pack (50 credits) × 3');
    expect(html).toContain('$9.00');
    expect(html).toMatch(new RegExp(`<input id="email" type="email" value="${user.email}" readonly`));
    expect(html).toMatch(/<input id="firstName" value="Ada" readonly/);
    for (const id of ['firstName', 'lastName', 'email', 'cardNumber', 'expiry', 'cvc'])
      expect(html).toContain(`<label for="${id}">`);
    expect(html).not.toContain('<script');
  });

  it('refuses redirect addresses on other origins, unknown products and links without a checkout', async () => {
    const user = await createUser(t);
    const url = new URL(await checkoutUrl(user, 'credit-pack'), 'http://altwise.test');
    const withRedirect = (redirect: string) => {
      const link = new URL(url);
      link.searchParams.set('redirect_url', redirect);
      return `${link.pathname}${link.search}`;
    };
    const evil = await t.app.inject({ method: 'GET', url: withRedirect('https://evil.example/x') });
    expect(evil.statusCode).toBe(400);
    expect(evil.body).toContain('not allowed');
    expect((await t.app.inject({ method: 'GET', url: withRedirect('//evil.example/x') })).statusCode).toBe(
      400,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: withRedirect('http://altwise.test/dashboard') })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/buy/gold${url.search}` })).statusCode).toBe(404);
    // Another product's page for this checkout does not exist.
    expect((await t.app.inject({ method: 'GET', url: `/buy/growth-monthly${url.search}` })).statusCode).toBe(
      404,
    );
    const bare = await t.app.inject({ method: 'GET', url: '/buy/credit-pack?quantity=3' });
    expect(bare.statusCode).toBe(403);
    expect(bare.body).toContain('Start the checkout from the pricing page while signed in.');
    const long = await t.app.inject({ method: 'GET', url: `/buy/credit-pack?firstName=${'a'.repeat(500)}` });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('<main>');
  });

  it('4242 4242 4242 4242 pays: signed webhooks reach the app, credits and history appear, then back to redirect_url', async () => {
    const user = await createUser(t, 25);
    const res = await pay(await checkoutUrl(user, 'credit-pack', 3), { cardNumber: '4242 4242 4242 4242' });
    expect(res.statusCode).toBe(303);
    const location = new URL(String(res.headers.location), 'http://altwise.test');
    expect(location.pathname).toBe('/dashboard');
    expect(location.searchParams.get('status')).toBe('succeeded');
    const paymentId = location.searchParams.get('payment_id');
    expect(await balanceOf(t, user)).toBe(25 + 150);
    expect((await history(user)).history).toEqual([
      expect.objectContaining({ transactionId: paymentId, status: 'succeeded', creditsAdded: 150 }),
    ]);
    const verify = await t.app.inject({
      method: 'POST',
      url: `/api/v1/stripe/verify-payment/${paymentId}`,
      headers: user.auth,
    });
    expect(verify.json()).toMatchObject({ success: true, creditsAdded: 150 });
  });

  it('returns the buyer to the path the checkout named, and refuses one off this site', async () => {
    const user = await createUser(t, 2);
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payments/create-checkout-session',
      headers: user.auth,
      payload: { productId: 'credit-pack', returnPath: '/audit/123?fix=1' },
    });
    expect(session.statusCode).toBe(200);
    const res = await pay(session.json().checkoutUrl, { cardNumber: '4242 4242 4242 4242' });
    expect(res.statusCode).toBe(303);
    const location = new URL(String(res.headers.location), 'http://altwise.test');
    expect(location.origin).toBe('http://altwise.test');
    expect(location.pathname).toBe('/audit/123');
    expect(location.searchParams.get('fix')).toBe('1');
    expect(location.searchParams.get('status')).toBe('succeeded');

    for (const returnPath of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'audit']) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/v1/payments/create-checkout-session',
        headers: user.auth,
        payload: { productId: 'credit-pack', returnPath },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain('The return address must be a path on this site');
    }
  });

  it('buys a plan: a month of credits, the plan on the dashboard, and Cancel Renewal works', async () => {
    const user = await createUser(t);
    const res = await pay(await checkoutUrl(user, 'growth-monthly'), { cardNumber: '4242424242424242' });
    expect(res.statusCode).toBe(303);
    expect(await balanceOf(t, user)).toBe(500);
    const details = async () =>
      (
        await t.app.inject({ method: 'GET', url: '/api/v1/users/subscription-details', headers: user.auth })
      ).json().subscription;
    const subscription = await details();
    expect(subscription).toMatchObject({ current_plan: 'Growth Monthly', payment_status: 'active' });
    const profile = await t.app.inject({ method: 'GET', url: '/api/v1/users/profile', headers: user.auth });
    expect(profile.json().user.subscriptionPlan).toBe('Growth Monthly');
    expect(new Date(subscription.next_renewal_date).getTime()).toBeGreaterThan(
      Date.now() + 27 * 24 * 3600 * 1000,
    );
    const cancel = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/cancel-subscription',
      headers: user.auth,
    });
    expect(cancel.statusCode).toBe(200);
    expect(await details()).toMatchObject({ payment_status: 'cancelled', next_renewal_date: null });
    expect(await balanceOf(t, user)).toBe(500);
  });

  it('a declined card shows the provider’s error on the page and changes nothing', async () => {
    const user = await createUser(t, 25);
    const res = await pay(await checkoutUrl(user, 'credit-pack', 1), { cardNumber: '4000 0000 0000 0002' });
    expect(res.statusCode).toBe(402);
    expect(res.body).toContain('role="alert">Your card was declined.</p>');
    // The buyer can try again on the same page.
    expect(res.body).toContain('<form method="post"');
    expect(await balanceOf(t, user)).toBe(25);
    expect((await history(user)).history).toEqual([]);
  });

  it('checks the card number, expiry and CVC', async () => {
    const user = await createUser(t);
    const url = await checkoutUrl(user, 'credit-pack', 1);
    expect((await pay(url, { cardNumber: '4242 4242 4242 4241' })).body).toContain(
      'Your card number is invalid.',
    );
    expect((await pay(url, { cardNumber: '4242424242424242', expiry: '01/20' })).body).toContain(
      'in the past',
    );
    expect((await pay(url, { cardNumber: '4242424242424242', cvc: 'x' })).body).toContain('security code');
    expect(await balanceOf(t, user)).toBe(0);
  });
});

/** POSTs the hosted form as an attacker would: any fields, no page visited. */
const postForm = (productId: string, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: `/buy/${productId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      cardNumber: '4242424242424242',
      expiry: '12/40',
      cvc: '123',
      redirect_url: '/dashboard',
      ...fields,
    }).toString(),
  });

describe('the hosted checkout only pays a checkout session its signed-in creator started', () => {
  it('a form with any email, quantity and the test card but no checkout adds no credits', async () => {
    const victim = await createUser(t, 25);
    const forged = await postForm('credit-pack', {
      email: victim.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      quantity: '100',
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.headers.location).toBeUndefined();
    expect(await balanceOf(t, victim)).toBe(25);
    expect((await history(victim)).history).toEqual([]);
  });

  it('takes the account, product and quantity from the session, never from the form', async () => {
    const buyer = await createUser(t);
    const other = await createUser(t, 25);
    const link = new URL(await checkoutUrl(buyer, 'credit-pack', 1), 'http://altwise.test');
    const res = await postForm('credit-pack', {
      metadata_checkout_id: link.searchParams.get('metadata_checkout_id') ?? '',
      checkout_token: link.searchParams.get('checkout_token') ?? '',
      email: other.email,
      quantity: '100',
    });
    expect(res.statusCode).toBe(303);
    expect(await balanceOf(t, buyer)).toBe(50);
    expect(await balanceOf(t, other)).toBe(25);
    expect((await history(other)).history).toEqual([]);
    // The link cannot be paid twice.
    expect(
      (
        await postForm('credit-pack', {
          metadata_checkout_id: link.searchParams.get('metadata_checkout_id') ?? '',
          checkout_token: link.searchParams.get('checkout_token') ?? '',
        })
      ).statusCode,
    ).toBe(409);
    expect(await balanceOf(t, buyer)).toBe(50);
  });

  it("refuses another session's token, a forged or expired token, and another user's checkout id", async () => {
    const owner = await createUser(t);
    const intruder = await createUser(t);
    const ownerLink = new URL(await checkoutUrl(owner, 'credit-pack', 3), 'http://altwise.test');
    const intruderLink = new URL(await checkoutUrl(intruder, 'credit-pack', 3), 'http://altwise.test');
    const ownerCheckout = ownerLink.searchParams.get('metadata_checkout_id') ?? '';
    const sandbox = t.app.deps.sandboxPayments;
    if (!sandbox) throw new Error('the sandbox runs in tests');
    const hourAgo = new Date(Date.now() - 2 * 3600 * 1000);
    for (const [token, status] of [
      [intruderLink.searchParams.get('checkout_token') ?? '', 403],
      ['', 403],
      [`${Math.floor(Date.now() / 1000) + 3600}.forged`, 403],
      [sandbox.checkoutTokenFor(ownerCheckout, hourAgo), 403],
    ] as const) {
      const res = await postForm('credit-pack', {
        metadata_checkout_id: ownerCheckout,
        checkout_token: token,
      });
      expect(res.statusCode).toBe(status);
      const page = await t.app.inject({
        method: 'GET',
        url: `/buy/credit-pack?metadata_checkout_id=${ownerCheckout}&checkout_token=${encodeURIComponent(token)}`,
      });
      expect(page.statusCode).toBe(status);
      expect(page.body).not.toContain(owner.email);
    }
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/buy/credit-pack?metadata_checkout_id=${ownerCheckout}&checkout_token=${encodeURIComponent(sandbox.checkoutTokenFor(ownerCheckout, hourAgo))}`,
        })
      ).body,
    ).toContain('This checkout link has expired.');
    expect(await balanceOf(t, owner)).toBe(0);
    expect(await balanceOf(t, intruder)).toBe(0);
    // The owner's own link still pays, once.
    expect(
      (await pay(`${ownerLink.pathname}${ownerLink.search}`, { cardNumber: '4242424242424242' })).statusCode,
    ).toBe(303);
    expect(await balanceOf(t, owner)).toBe(150);
  });

  it('20 parallel submissions of one checkout pay it once', async () => {
    const user = await createUser(t);
    const link = new URL(await checkoutUrl(user, 'credit-pack', 2), 'http://altwise.test');
    const fields = {
      metadata_checkout_id: link.searchParams.get('metadata_checkout_id') ?? '',
      checkout_token: link.searchParams.get('checkout_token') ?? '',
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => postForm('credit-pack', fields)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 303)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    expect(await balanceOf(t, user)).toBe(100);
    expect((await history(user)).history).toHaveLength(1);
  });
});
