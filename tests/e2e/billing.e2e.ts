import { randomUUID } from 'node:crypto';
import { messages } from '@altwise/contracts/messages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { linkIn, waitForMail } from './mailbox.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SUCCESS_CARD = '4242 4242 4242 4242';
const DECLINED_CARD = '4000 0000 0000 0002';

// Not exact: the toast's text starts with a visually hidden 'Success: '.
const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Notifications (top right)' }).getByText(text);

/** Registers through the form, confirms with the mailed link and logs in; ends on the dashboard. */
async function signUpAndLogIn(page: Page, email: string, password: string) {
  await page.goto('/register');
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
  const dialog = page.getByRole('dialog', { name: messages.register.successTitle });
  await dialog.getByRole('button', { name: 'OK' }).click();
  const confirmation = await waitForMail(email, /^Confirm your Altwise account$/);
  await page.goto(linkIn(confirmation, `${baseURL()}/confirm-email/`));
  await page.getByRole('heading', { level: 1, name: messages.confirmEmail.success }).waitFor();
  await page.getByRole('link', { name: 'Proceed to Login' }).click();
  await page.waitForURL('**/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
}

/** The value next to a label in one of the dashboard's cards. */
function dashboardValue(page: Page, card: string, label: string) {
  return page
    .locator('section', { has: page.getByRole('heading', { level: 2, name: card }) })
    .locator('dt', { hasText: label })
    .locator('xpath=following-sibling::dd[1]');
}

async function dashboardCredits(page: Page): Promise<string> {
  const value = dashboardValue(page, 'Credit Usage', 'Credit Remaining');
  await expect.poll(() => value.textContent()).toMatch(/^\d[\d,]*$/);
  return (await value.textContent()) ?? '';
}

const historyItems = (page: Page) =>
  page
    .locator('section', { has: page.getByRole('heading', { level: 2, name: 'Payment History' }) })
    .locator('li');

/** On the sandbox's hosted checkout: pays with `card`. */
async function payOnHostedCheckout(page: Page, card: string) {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

describe('billing, as a person pays', () => {
  it('buys the Growth monthly plan and a 3-pack, sees credits and history, survives a declined card, cancels renewal', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const email = `payer-${randomUUID().slice(0, 8)}@example.com`;
    await signUpAndLogIn(page, email, 'correct horse battery');

    // A new account: the 25 free credits and the trial defaults.
    await page.getByRole('heading', { level: 1, name: 'Welcome, Ada' }).waitFor();
    expect(await dashboardCredits(page)).toBe('25');
    await expect
      .poll(() => dashboardValue(page, 'Payment & Plans', 'Current Plan').textContent())
      .toBe('Trial');
    expect(await dashboardValue(page, 'Payment & Plans', 'Payment Status').textContent()).toBe(
      'Not Subscribed',
    );
    expect(await dashboardValue(page, 'Payment & Plans', 'Billing Cycle').textContent()).toBe('NA');
    expect(await dashboardValue(page, 'Payment & Plans', 'Next Renewal Date').textContent()).toBe('NA');
    await page.getByText(messages.dashboard.noPaymentHistory).waitFor();
    await expectNoAxeViolations(page);

    // Growth monthly: pricing → the sandbox's hosted checkout → back on the dashboard.
    await page.getByRole('link', { name: 'Add Credits' }).click();
    await page.waitForURL('**/plans');
    await page.getByRole('link', { name: 'Choose Growth' }).click();
    await page.waitForURL('**/buy/growth-monthly?**');
    const buyUrl = new URL(page.url());
    expect(buyUrl.searchParams.get('email')).toBe(email);
    expect(buyUrl.searchParams.get('firstName')).toBe('Ada');
    expect(buyUrl.searchParams.get('redirect_url')).toMatch(/\/dashboard$/);
    expect(await page.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    await expectNoAxeViolations(page);
    await payOnHostedCheckout(page, SUCCESS_CARD);
    await page.waitForURL('**/dashboard?**');
    const growthPaymentId = new URL(page.url()).searchParams.get('payment_id');
    expect(growthPaymentId).toBeTruthy();
    await page.getByText(/Growth Monthly Plan is paid and 500 credits were added/).waitFor();
    await expect.poll(() => dashboardCredits(page)).toBe('525');
    await expect
      .poll(() => dashboardValue(page, 'Payment & Plans', 'Current Plan').textContent())
      .toBe('Growth Monthly');
    expect(await dashboardValue(page, 'Payment & Plans', 'Payment Status').textContent()).toBe(
      'Payment Successful',
    );
    expect(await dashboardValue(page, 'Payment & Plans', 'Billing Cycle').textContent()).toBe('Monthly');
    expect(await dashboardValue(page, 'Payment & Plans', 'Next Renewal Date').textContent()).toMatch(
      /^[A-Z][a-z]{2} \d{2}, \d{4}$/,
    );

    // A declined card, from the checkout page: the provider's error on its page, and nothing changes.
    await page.goto('/checkout/credit-pack?amount=3&quantity=1');
    await page.getByText('Credit pack', { exact: true }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL('**/buy/credit-pack?**');
    await payOnHostedCheckout(page, DECLINED_CARD);
    await page.getByRole('alert').getByText('Your card was declined.').waitFor();
    await expectNoAxeViolations(page);
    await page.goto('/dashboard');
    await expect.poll(() => dashboardCredits(page)).toBe('525');
    await expect.poll(() => historyItems(page).count()).toBe(1);

    // A 3-pack: 150 credits more.
    await page.goto('/plans');
    // The prerendered page becomes the signed-in app once it has hydrated; type after that.
    await page.waitForLoadState('networkidle');
    const packs = page.getByLabel('Number of packs');
    const buyThree = page.getByRole('link', { name: 'Buy 3 credit packs' });
    await expect
      .poll(async () => {
        await packs.fill('3');
        return buyThree.count();
      })
      .toBe(1);
    await buyThree.click();
    await page.waitForURL('**/buy/credit-pack?**');
    expect(new URL(page.url()).searchParams.get('quantity')).toBe('3');
    await payOnHostedCheckout(page, SUCCESS_CARD);
    await page.waitForURL('**/dashboard?**');
    await expect.poll(() => dashboardCredits(page)).toBe('675');

    // The history lists both payments, titles without their parenthesised parts.
    await expect.poll(() => historyItems(page).count()).toBe(2);
    const history = (await historyItems(page).allTextContents()).join('\n');
    expect(history).toContain('Growth Monthly');
    expect(history).toContain('Credits added: 500');
    expect(history).toContain('Credits added: 150');
    expect(history).not.toMatch(/\(.*\)/);
    await expectNoAxeViolations(page);

    // The payment verification page, for the plan's payment.
    await page.goto(`/success?payment_intent=${encodeURIComponent(growthPaymentId ?? '')}`);
    await page.getByRole('heading', { level: 1, name: messages.payment.success }).waitFor();
    await page.getByText(growthPaymentId ?? '').waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Start using AI' }).click();
    await page.waitForURL('**/images');

    // Cancel renewal: the native confirm prompt, then the plan shows cancelled; credits stay.
    await page.goto('/dashboard');
    const cancel = page.getByRole('button', { name: 'Cancel Renewal' });
    let prompt = '';
    page.once('dialog', (dialog) => {
      prompt = dialog.message();
      void dialog.accept();
    });
    await cancel.click();
    await toast(page, messages.subscription.cancelSuccess).waitFor();
    expect(prompt).toBe(messages.subscription.cancelConfirm);
    await expect
      .poll(() => dashboardValue(page, 'Payment & Plans', 'Payment Status').textContent())
      .toBe('Subscription Cancelled');
    expect(await cancel.count()).toBe(0);
    expect(await dashboardCredits(page)).toBe('675');
    await expectNoAxeViolations(page);

    // The free plan confirmation screen.
    await page.goto('/free-plan');
    await page.getByRole('heading', { level: 1, name: 'Free Plan' }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Confirm Free Plan' }).click();
    await page.getByRole('alert').or(page.getByText(messages.freePlan.success)).first().waitFor();
    await expectNoAxeViolations(page);
    await context.close();
  });
});
