import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { createSession, storeSession } from './session.ts';

/**
 * Rendered mode: a local shop whose images exist only once its script has run. Audited
 * with "Render pages in a browser: Always", its images are found and each shows a screenshot of how
 * it appeared on the page, the new checks judge them (an alt that announces "Image of") and the
 * screen-reader preview reads the rendered page; axe on the form and the audit page.
 */
const shop = `<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Boats</h1>
  <div id="app"></div><script>
    for (const [src, alt] of [['/img/red.png', 'Image of a red fishing boat'], ['/img/IMG_7.jpg', 'IMG_7.jpg']]) {
      const image = document.createElement('img');
      image.src = src; image.alt = alt; image.width = 160; image.height = 120;
      document.getElementById('app').append(image);
    }
  </script></body></html>`;

let site: Server;
let siteUrl = '';
let browser: Browser;

beforeAll(async () => {
  // A picture with content (sea, hull, sun), so the pixel check does not call it a blank.
  const picture = await sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120">
      <rect width="160" height="120" fill="#3a7bd5"/><rect y="70" width="160" height="50" fill="#1f4e79"/>
      <path d="M30 70 L130 70 L115 90 L45 90 Z" fill="#c0392b"/><circle cx="125" cy="30" r="14" fill="#f5e663"/></svg>`),
  )
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

describe('rendered audit, as a site owner uses it', () => {
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
    // The rendered checks on what the script built, counted with their WCAG criteria.
    const problems = page.getByRole('table', { name: 'Problems found' });
    await expect.poll(() => problems.getByRole('row', { name: /^announces-medium / }).count()).toBe(1);
    await expect.poll(() => problems.getByRole('row', { name: /^file-name / }).count()).toBe(1);
    await expectNoAxeViolations(page);

    // The screen-reader preview of the rendered page: its heading and both images, the verbose one marked.
    await page.getByText(`Screen-reader preview of ${siteUrl} (`, { exact: false }).click();
    const announcements = page.getByRole('list', { name: `Announcements on ${siteUrl}`, exact: true });
    await announcements.getByText('image, Image of a red fishing boat').waitFor();
    await announcements.getByText('image, IMG_7.jpg').waitFor();
    await expectNoAxeViolations(page);
    await context.close();
  });
});
