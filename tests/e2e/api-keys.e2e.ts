import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { createSession, storeSession } from './session.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const withKey = (key: string, path: string) =>
  fetch(`${baseURL()}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

describe('API keys in /account', () => {
  it('creates a key, copies it, uses it from a script, and revokes it', async () => {
    const session = await createSession();
    const context = await newContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() });
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, session);
    await page.goto('/account');

    const section = page.locator('section', { has: page.getByRole('heading', { name: 'API keys' }) });
    await expect
      .poll(() => section.getByText('You have no API keys yet.').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await section.getByLabel('Key name').fill('Nightly build');
    await section.getByRole('button', { name: 'Create key' }).click();

    const panel = section.getByRole('region', { name: 'Your new API key' });
    await panel.waitFor();
    const key = await panel.getByLabel('New API key').inputValue();
    expect(key).toMatch(/^ak_[A-Za-z0-9_-]{43}$/);
    await panel.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('API key copied!').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expectNoAxeViolations(page);

    // The script's side: the key reads the account's data, but cannot manage keys.
    const profile = await withKey(key, '/users/profile');
    expect(profile.status).toBe(200);
    expect(((await profile.json()) as { user: { email: string } }).user.email).toBe(session.user.email);
    const keys = await withKey(key, '/api-keys');
    expect(keys.status).toBe(403);
    expect(await keys.json()).toMatchObject({ code: 'SESSION_REQUIRED' });

    // Once dismissed the key is not shown again; the list shows its prefix and its last use.
    await panel.getByRole('button', { name: 'I have saved it' }).click();
    await page.reload();
    const item = section.getByRole('listitem').filter({ hasText: 'Nightly build' });
    await item.waitFor();
    expect(await item.textContent()).toContain(`${key.slice(0, 11)}…`);
    expect(await item.textContent()).toContain('Last used');
    expect(await page.content()).not.toContain(key);

    await section.getByRole('button', { name: 'Revoke Nightly build' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await dialog.waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('API key revoked.').first().waitFor();
    await expect
      .poll(() => section.getByText('You have no API keys yet.').isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect((await withKey(key, '/users/profile')).status).toBe(401);
    await context.close();
  });
});
