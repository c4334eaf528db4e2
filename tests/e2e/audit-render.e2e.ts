import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { createSession, storeSession } from './session.ts';

/**
 * Issue 20, rendered mode: a local shop whose images exist only once its script has run. Audited
 * with "Render pages in a browser: Always", its images are found and each shows a screenshot of how
 * it appeared on the page; axe on the form and the audit page.
 */
const shop = `<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Boats</h1>
  <div id="app"></div><script>
    for (const [src, alt] of [['/img/red.png', 'A red fishing boat'], ['/img/IMG_7.jpg', 'IMG_7.jpg']]) {
      const image = document.createElement('img');
      image.src = src; image.alt = alt; image.width = 160; image.height = 120;
      document.getElementById('app').append(image);
    }
  </script></body></html>`;

let site: Server;
let siteUrl = '';
let browser: Browser;

beforeAll(async () => {
  const picture = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#c0392b' } })
    .png()
    .toBuffer();
  site = createServer((request, response) => {
    if (request.url === '/')
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shop);
    else if (request.url?.startsWith('/img/'))
      response.writeHead(200, { 'content-type': 'image/png' }).end(picture);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
});

describe('rendered audit, as a site owner uses it (issue 20)', () => {
  it('audits a script-built page in a browser and shows each image as the page showed it', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, await createSession());
    await page.goto('/audit');
    await page.getByRole('heading', { level: 1, name: 'Audit alt text' }).waitFor();
    await page.getByLabel('Website URL').fill(siteUrl);
    await page.getByRole('radio', { name: 'This page' }).check();
    const render = page.getByRole('combobox', { name: 'Render pages in a browser' });
    expect(await render.inputValue()).toBe('auto');
    await render.selectOption('always');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Start audit' }).click();
    await page.waitForURL(/\/audit\/[0-9a-f-]{36}$/);

    await page
      .getByRole('status')
      .filter({ hasText: 'Audit complete: 1 page scanned, 2 images found.' })
      .waitFor({ timeout: 60_000 });
    await page.getByText('Render pages in a browser: Always, every page · 1 page was rendered').waitFor();
    const table = page.getByRole('table', { name: /Audited images/ });
    await expect.poll(() => table.getByText('As shown on the page').count(), { timeout: 15_000 }).toBe(2);
    // The screenshots arrive with the token, as blob URLs, and are real pictures.
    await expect
      .poll(() =>
        table
          .locator('figure img')
          .evaluateAll(
            (images) =>
              images.filter(
                (image) =>
                  (image as HTMLImageElement).naturalWidth > 0 &&
                  image.getAttribute('src')?.startsWith('blob:'),
              ).length,
          ),
      )
      .toBe(2);
    await expectNoAxeViolations(page);
    await context.close();
  });
});
