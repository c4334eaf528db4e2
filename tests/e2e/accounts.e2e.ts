import { randomUUID } from 'node:crypto';
import { accountDeletionMessages, accountMessages } from '@altwise/contracts/auth';
import { messages } from '@altwise/contracts/messages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { fakeGoogleIdentityScript, signGoogleIdToken } from './google.ts';
import { linkIn, waitForMail } from './mailbox.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Notifications (top right)' }).getByText(text);

async function logIn(page: Page, email: string, password: string) {
  await page.getByRole('heading', { level: 1, name: 'Login to Your Account' }).waitFor();
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL('**/login');
  await page.getByRole('heading', { level: 1, name: 'Login to Your Account' }).waitFor();
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
}

describe('accounts, as a person uses them', () => {
  it('registers, confirms by mail, logs in, edits the profile, changes and resets the password', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const email = `ada-${randomUUID().slice(0, 8)}@example.com`;
    const firstPassword = 'first correct horse';
    const secondPassword = 'second correct horse';
    const thirdPassword = 'third correct horse';

    // Register.
    await page.goto('/register');
    await page.getByRole('heading', { level: 1, name: 'Create an Account' }).waitFor();
    await page.waitForLoadState('networkidle');
    await expectNoAxeViolations(page);
    await page.getByLabel('First Name', { exact: true }).fill('Ada');
    await page.getByLabel('Last Name', { exact: true }).fill('Lovelace');
    await page.getByLabel('Email Address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(firstPassword);
    await page.getByLabel('Confirm Password', { exact: true }).fill(firstPassword);
    await page.getByRole('button', { name: 'Register' }).click();
    const dialog = page.getByRole('dialog', { name: messages.register.successTitle });
    await dialog.waitFor();
    expect(await dialog.getByText(messages.register.successBody).isVisible()).toBe(true);
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Logging in before confirming says so and offers a new link.
    await page.getByRole('link', { name: 'Already have an account? Login' }).click();
    await page.waitForURL('**/login');
    await logIn(page, email, firstPassword);
    await page.getByText(accountMessages.emailNotConfirmed).waitFor();
    await page.getByRole('button', { name: 'Resend confirmation email' }).click();
    await page.getByText(accountMessages.confirmationResent).waitFor();

    // Confirm with the newest link from the mailbox.
    const confirmation = await waitForMail(email, /^Confirm your Altwise account$/, 2);
    await page.goto(linkIn(confirmation, `${baseURL()}/confirm-email/`));
    const verdict = page.getByRole('heading', { level: 1 });
    await expect
      .poll(() => verdict.textContent(), { timeout: 15_000 })
      .not.toBe(messages.confirmEmail.verifying);
    expect(await verdict.textContent()).toBe(messages.confirmEmail.success);
    // The welcome email follows the confirmation, never before it (ADR 074).
    await waitForMail(email, /^Welcome to Altwise$/);
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Proceed to Login' }).click();
    await page.waitForURL('**/login');

    // Log in.
    await expectNoAxeViolations(page);
    await logIn(page, email, firstPassword);
    await page.waitForURL('**/dashboard');
    await toast(page, messages.login.success).waitFor();

    // Edit the profile.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.waitForURL('**/account');
    const firstName = page.getByLabel('First Name', { exact: true });
    await expect.poll(() => firstName.inputValue()).toBe('Ada');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await expectNoAxeViolations(page);
    await firstName.fill('Augusta Ada');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.getByText(messages.account.profileUpdated).waitFor();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').firstName)).toBe(
      'Augusta Ada',
    );

    // Change the password: a mismatch is caught in the browser, then the change goes through.
    await page.getByLabel('Current Password', { exact: true }).fill(firstPassword);
    await page.getByLabel('New Password', { exact: true }).fill(secondPassword);
    await page.getByLabel('Confirm New Password', { exact: true }).fill(`${secondPassword}!`);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText(messages.account.passwordsDoNotMatch).waitFor();
    await page.getByLabel('Confirm New Password', { exact: true }).fill(secondPassword);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText(messages.account.passwordUpdated).waitFor();
    expect(await page.getByLabel('Current Password', { exact: true }).inputValue()).toBe('');
    await expectNoAxeViolations(page);
    // The session survives its own password change (the server answered a fresh token).
    await page.reload();
    await expect.poll(() => page.getByLabel('First Name', { exact: true }).inputValue()).toBe('Augusta Ada');

    // Log out, then in with the new password (the old one no longer works).
    await logOut(page);
    await logIn(page, email, firstPassword);
    await page.getByText(accountMessages.invalidCredentials).waitFor();
    await logIn(page, email, secondPassword);
    await page.waitForURL('**/dashboard');
    await logOut(page);

    // Forgot the password: reset it through the mailed link, then log in.
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    // A page load from the prerendered /login (ADR 038): the app renders the page once its code is here.
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByLabel('Email Address', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(accountMessages.resetRequested).waitFor();
    const reset = await waitForMail(email, /^Reset your Altwise password$/);
    await page.goto(linkIn(reset, `${baseURL()}/reset-password?token=`));
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByLabel('New Password', { exact: true }).fill(thirdPassword);
    await page.getByLabel('Confirm New Password', { exact: true }).fill(thirdPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText(accountMessages.passwordReset).waitFor();
    await page.getByRole('link', { name: 'Proceed to Login' }).click();
    await page.waitForURL('**/login');
    await logIn(page, email, thirdPassword);
    await page.waitForURL('**/dashboard');
    await toast(page, messages.login.success).waitFor();

    // Delete the account (ADR 022): a wrong password deletes nothing; then by keyboard only.
    const d = accountDeletionMessages;
    await page.getByRole('link', { name: 'Account' }).click();
    await page.waitForURL('**/account');
    const deletion = page.locator('section', { has: page.getByRole('heading', { name: d.heading }) });
    await deletion.getByText(d.warning).waitFor();
    await deletion.getByLabel(d.passwordLabel, { exact: true }).fill('not the password');
    await deletion.getByRole('button', { name: d.button }).click();
    const confirmDialog = page.getByRole('dialog', { name: d.dialogTitle });
    await confirmDialog.getByRole('button', { name: d.confirm }).click();
    await deletion.getByText(d.wrongPassword).waitFor();
    await confirmDialog.waitFor({ state: 'hidden' });

    await deletion.getByLabel(d.passwordLabel, { exact: true }).fill(thirdPassword);
    await page.keyboard.press('Enter');
    await confirmDialog.waitFor();
    await expectNoAxeViolations(page);
    const confirmButton = confirmDialog.getByRole('button', { name: d.confirm });
    for (let i = 0; i < 4 && !(await confirmButton.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    expect(await confirmButton.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await toast(page, d.deleted).waitFor();
    await page.getByRole('link', { name: 'Log in' }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // The account is gone: its password no longer logs in.
    await page.goto('/login');
    await logIn(page, email, thirdPassword);
    await page.getByText(accountMessages.invalidCredentials).waitFor();
    await context.close();
  });

  it('signs up and in with Google using a test-signed ID token', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const id = randomUUID().slice(0, 8);
    const identity = {
      sub: `google-${id}`,
      email: `grace-${id}@example.com`,
      givenName: 'Grace',
      familyName: 'Hopper',
    };
    await fakeGoogleIdentityScript(page, await signGoogleIdToken(identity));

    // Sign up: a new account, welcomed, on the dashboard.
    await page.goto('/register');
    const signUp = page.getByRole('button', { name: 'Sign up with Google' });
    await signUp.waitFor();
    expect(await page.evaluate(() => (window as { __gsiClientId?: string }).__gsiClientId)).toBeTruthy();
    await expectNoAxeViolations(page);
    await signUp.click();
    await page.waitForURL('**/dashboard');
    await toast(page, messages.google.created).waitFor();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').email)).toBe(
      identity.email,
    );
    await waitForMail(identity.email, /^Welcome to Altwise$/);

    // The profile is the verified Google identity's.
    await page.getByRole('link', { name: 'Account' }).click();
    await expect.poll(() => page.getByLabel('Last Name', { exact: true }).inputValue()).toBe('Hopper');
    await logOut(page);

    // Sign in again from the login screen.
    const signIn = page.getByRole('button', { name: 'Sign in with Google' });
    await signIn.waitFor();
    await expectNoAxeViolations(page);
    await signIn.click();
    await page.waitForURL('**/dashboard');
    await toast(page, messages.google.loginSuccess).waitFor();
    await logOut(page);

    // An unknown Google account on the login screen is sent to register.
    await page.unroute('https://accounts.google.com/gsi/client');
    await fakeGoogleIdentityScript(
      page,
      await signGoogleIdToken({ ...identity, sub: `google-${id}-new`, email: `new-${id}@example.com` }),
    );
    await page.reload();
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.waitForURL('**/register');
    await toast(page, messages.login.accountNotFound).waitFor();
    await context.close();
  });
});
