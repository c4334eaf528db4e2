import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { createSession, storeSession } from './session.ts';

/** One local page (the e2e server runs with FETCH_ALLOW_PRIVATE): one good alt, one file name. */
let site: { url: string; server: Server };
let browser: Browser;

beforeAll(async () => {
  const server = createServer((request, response) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="en"><head><title>Harbour</title></head><body><h1>Harbour</h1>
        <img src="/img/boat.png" alt="A red fishing boat moored at the pier at dawn" width="300" height="200">
        <img src="/img/IMG_2041.jpg" alt="IMG_2041.jpg" width="300" height="200"></body></html>`);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.server.close(resolve));
});

describe('site monitors, as a site owner uses them', () => {
  it('adds a monitor from the audit page, sees its first run and chart, runs it now, and stops watching by keyboard', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, await createSession());

    await page.goto('/audit');
    await page.getByRole('link', { name: 'Watch a site over time' }).click();
    await page.getByRole('heading', { level: 1, name: 'Monitors' }).waitFor();
    await page.getByText('You do not watch any site yet.').waitFor();
    await expectNoAxeViolations(page);

    // The form answers in words before anything is sent.
    await page.getByRole('button', { name: 'Start monitoring' }).click();
    await expect.poll(() => page.getByText('Please enter a URL').count()).toBeGreaterThan(0);

    await page.getByLabel('Website URL').fill(site.url);
    await page.getByRole('radio', { name: 'This page' }).check();
    await page.getByRole('radio', { name: 'Every day' }).check();
    await page.getByRole('button', { name: 'Start monitoring' }).click();

    // The first run is an audit started at once; the card follows it until it completes.
    const card = page.getByRole('article', { name: site.url });
    await card.getByText('Latest run: Completed, score 50%').waitFor({ timeout: 45_000 });
    await expect
      .poll(() => card.getByRole('img').getAttribute('aria-label'))
      .toBe(`Score history of ${site.url}: one audit, 50%.`);
    await expect
      .poll(() => card.getByRole('table', { name: `Scores of ${site.url}, oldest first` }).count())
      .toBe(1);
    await card.getByText('The difference shows once two audits have completed.').waitFor();
    await expectNoAxeViolations(page);

    // Its audit opens like any other.
    await card.getByRole('link', { name: `Open this audit of ${site.url}` }).click();
    await page.waitForURL(/\/audit\/[0-9a-f-]{36}$/);
    await page.goBack();

    // A second monitor of the same site is refused in words.
    await page.getByLabel('Website URL').fill(site.url);
    await page.getByRole('button', { name: 'Start monitoring' }).click();
    await page
      .getByText(`You already monitor ${site.url}. Delete that monitor to change how it is watched.`)
      .waitFor();

    // Run it again now, by keyboard: a second completed run, and the chart has two points.
    await page.getByRole('button', { name: `Run now ${site.url}` }).focus();
    await page.keyboard.press('Enter');
    await page.getByText(`A run of ${site.url} started.`).first().waitFor();
    await expect
      .poll(async () => (await card.getByRole('img').getAttribute('aria-label')) ?? '', { timeout: 45_000 })
      .toContain(`Score history of ${site.url}: 2 audits`);
    await card.getByText('Latest run: Completed, score 50%').waitFor({ timeout: 45_000 });
    await expectNoAxeViolations(page);

    // Stop watching, by keyboard, behind a confirmation.
    await page.getByRole('button', { name: `Stop watching ${site.url}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Stop watching this site?' });
    await dialog.waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Delete monitor' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('You do not watch any site yet.').waitFor();

    // Its two audits (the first run and the one run now) stay in the audit list.
    await page.goto('/audit');
    await expect.poll(() => page.getByRole('link', { name: site.url }).count()).toBe(2);
    await context.close();
  });
});
