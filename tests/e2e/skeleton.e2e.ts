import { clientRoutePatterns, messages } from '@altwise/contracts';
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

/** Every client route with a concrete value for its parameters. */
const concreteRoutes = clientRoutePatterns.map((pattern) =>
  pattern
    .replace(':plan', 'growth')
    .replace(':token', 'not-a-real-token')
    .replace(':id', '00000000-0000-4000-8000-000000000000'),
);
const publicRoutes = [
  '/',
  '/register',
  '/login',
  '/forgot-password',
  '/reset-password',
  '/plans',
  '/success',
  '/support',
  '/blogs',
  '/blog',
  '/blog/post1',
  '/accuracy',
];

describe('the skeleton, as a visitor sees it', () => {
  it('renders the home page with its call to action', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
    const cta = page.getByRole('link', { name: /start free trial/i }).first();
    expect(await cta.getAttribute('href')).toBe('/register');
    await cta.click();
    await page.waitForURL('**/register');
    await context.close();
  });

  it('shows a not-found page for an unknown route, with a 404 status', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect
      .poll(() => page.getByRole('heading', { name: messages.common.notFoundTitle }).count())
      .toBe(1);
    await expectNoAxeViolations(page);
    await context.close();
  });

  it('redirects a protected route to /login when signed out', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/dashboard');
    await page.waitForURL('**/login**');
    await expect.poll(() => page.getByRole('heading', { name: 'Login to Your Account' }).count()).toBe(1);
    await context.close();
  });

  it('answers a green health check', async () => {
    const response = await fetch(`${baseURL()}/api/v1/health`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ status: 'ok', database: { status: 'up' }, queue: { status: 'up' } });
  });

  it('serves the SPA with hashed, immutable assets and a no-cache index', async () => {
    const index = await fetch(`${baseURL()}/support`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toMatch(/no-cache/);
    const html = await index.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).toMatch(/-[A-Za-z0-9_-]{8,}\.(js|css|svg|woff2?)$/);
      const response = await fetch(`${baseURL()}${asset}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toMatch(/immutable/);
    }
  });

  it('keeps every route free of axe-core violations, signed out', async () => {
    // On a phone every signed-out route is scanned by the public-site journey's last test.
    const context = await newContext(browser);
    const page = await context.newPage();
    for (const route of publicRoutes) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
      await expectNoAxeViolations(page);
    }
    await context.close();
    // About 3 s a route: loading, the network going quiet, then axe-core's full scan.
  }, 120_000);

  it('keeps every signed-in route free of axe-core violations', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    // A real session: pages load the person's own data, and the API refuses a made-up token.
    await page.goto('/');
    await storeSession(page, await createSession());
    for (const route of concreteRoutes.filter((r) => !publicRoutes.includes(r))) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
      expect(new URL(page.url()).pathname, `${route} stays put when signed in`).not.toBe('/login');
      await expectNoAxeViolations(page);
    }
    await context.close();
  }, 180_000);

  it('opens and closes the mobile menu dialog by keyboard', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    await page.goto('/');
    const menuButton = page.getByRole('button', { name: /menu/i }).first();
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('link', { name: 'Pricing' }).count()).toBe(1);
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await context.close();
  });
});
