import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { messages } from '@altwise/contracts/messages';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseURL, expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { createSession, storeSession } from './session.ts';

const fixtures = resolve(import.meta.dirname, '../../apps/api/test/fixtures/images');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type LibraryImage = {
  id: string;
  src: string;
  alt_text: string;
  needsWords: boolean;
  fileName: string | null;
};

describe('scrape and upload screens, as a person uses them', () => {
  it('uploads three files, one over 5MB: the big one is refused by name, the two others land in the library', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    const session = await createSession();
    await storeSession(page, session);

    await page.goto('/upload-images');
    await page.getByRole('heading', { level: 1, name: 'Upload Images' }).waitFor();
    await expectNoAxeViolations(page);

    // Two real photos and a 6 MB file (over 5,242,880 bytes).
    await page.getByLabel('Choose images').setInputFiles([
      { name: 'coffee.jpg', mimeType: 'image/jpeg', buffer: readFileSync(resolve(fixtures, 'coffee.jpg')) },
      { name: 'rocket.jpg', mimeType: 'image/jpeg', buffer: readFileSync(resolve(fixtures, 'rocket.jpg')) },
      { name: 'huge-photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(6 * 1024 * 1024, 1) },
    ]);
    const toast = page.getByRole('region', { name: 'Notifications (top right)' });
    await toast.getByText(messages.upload.oversize).waitFor();
    expect(await toast.innerText()).toContain('huge-photo.jpg');
    await page.getByRole('heading', { name: 'Selected files (2)' }).waitFor();
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(2);
    await page.getByRole('button', { name: 'Remove coffee.jpg' }).waitFor();
    await expectNoAxeViolations(page);

    // Every value the overlay's progress bar takes (the app is a single page: this survives to /images).
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { progressSeen: number[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"]');
        const value = Number(bar?.getAttribute('aria-valuenow') ?? Number.NaN);
        if (!Number.isNaN(value) && seen.at(-1) !== value) seen.push(value);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const uploaded = page.waitForResponse('**/api/v1/images/upload-and-generate');
    await page.getByRole('button', { name: 'Generate Alt Text' }).click();
    await page.getByRole('heading', { name: 'Processing Your Images' }).waitFor();
    const bar = page.getByRole('progressbar');
    await bar.waitFor();
    const answer = await uploaded;
    expect(answer.status()).toBe(202);
    const started = (await answer.json()) as { batchId: string; total: number; creditsReserved: number };
    expect(started.total).toBe(2);
    expect(started.creditsReserved).toBe(2);

    await page.waitForURL('**/images', { timeout: 45_000 });
    // Real progress only goes up, and reaches 100% (only once the batch is finished) before leaving.
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    expect(seen.at(-1)).toBe(100);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const libraryResponse = await fetch(`${baseURL()}/api/v1/images/altText`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(libraryResponse.status).toBe(200);
    const library = (await libraryResponse.json()) as LibraryImage[];
    expect(library).toHaveLength(2);
    for (const image of library) {
      // Alt text, or an honest request for a person's words where nothing grounds one (ADR 067).
      expect(image.alt_text.length > 0 || image.needsWords).toBe(true);
      const file = await fetch(new URL(image.src, baseURL()));
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/^image\//);
    }
    // Each upload keeps the name it had on the person's computer (its stored copy has its own key).
    expect(library.map((image) => image.fileName).sort()).toEqual(['coffee.jpg', 'rocket.jpg']);
    // The library page shows the two new rows, each under its file name.
    await page.getByRole('heading', { level: 1, name: 'Images' }).waitFor();
    for (const image of library.filter((entry) => entry.alt_text)) {
      await expect.poll(() => page.getByText(image.alt_text, { exact: false }).count()).toBeGreaterThan(0);
    }
    const table = page.getByRole('table', { name: 'Your images and their alt text' });
    for (const name of ['coffee.jpg', 'rocket.jpg']) await table.getByText(name, { exact: true }).waitFor();
    await context.close();
  });

  it('imports a CSV: sees what was accepted, repeated and rejected by line, then the results in the library', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    const session = await createSession();
    await storeSession(page, session);

    // Three images of the local test page, a row whose URL is not one (line 4) and a repeat of line 2.
    const image = (n: number) => new URL(`/img/photo-${n}.png`, inject('imagePageURL')).href;
    const csv = [
      'id,image_url,page_url,caption,keywords',
      `sku-1,${image(1)},${inject('imagePageURL')},Swatch 1,swatch;colour`,
      `sku-2,${image(2)},,Swatch 2,`,
      'sku-bad,not a url,,,',
      `sku-again,${image(1)},,,`,
      `sku-3,${image(3)},,,`,
    ].join('\r\n');
    await page.goto('/upload-images');
    await page.getByRole('heading', { level: 1, name: 'Upload Images' }).waitFor();
    await page
      .getByLabel('CSV or Excel file')
      .setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csv}\r\n`) });
    const imported = page.waitForResponse('**/api/v1/images/import-csv');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    expect((await imported).status()).toBe(202);

    const summary = page.getByRole('status').filter({ hasText: 'Imported 3 rows' });
    await summary.waitFor();
    expect(await summary.innerText()).toContain(
      'Imported 3 rows: alt text is being written in the background. 1 row repeated an earlier image URL (imported once). 1 row could not be imported.',
    );
    expect(await summary.getByRole('listitem').allInnerTexts()).toEqual(['Line 4: image_url is not a URL']);
    await expectNoAxeViolations(page);

    // The library follows the batch like any other, and lists the three images with their alt text.
    await summary.getByRole('link', { name: 'Open your library' }).click();
    await page.waitForURL('**/images');
    const panel = page.getByRole('region', { name: 'Alt text generation progress' });
    await panel.getByText('3 of 3 completed').waitFor({ timeout: 45_000 });
    const libraryResponse = await fetch(`${baseURL()}/api/v1/images/altText`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    const library = (await libraryResponse.json()) as LibraryImage[];
    expect(library.map((entry) => entry.src).sort()).toEqual([image(1), image(2), image(3)]);
    const table = page.getByRole('table', { name: 'Your images and their alt text' });
    for (const entry of library) {
      expect(entry.alt_text.trim().length > 0 || entry.needsWords).toBe(true);
      if (!entry.alt_text.trim()) continue;
      await table.getByText(entry.alt_text, { exact: true }).first().waitFor();
    }
    await context.close();
  });

  it('scrape: the server’s refusal is shown; the scraped list screen and both forms pass axe', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, await createSession());

    await page.goto('/scrape');
    await page.getByRole('heading', { level: 1, name: 'Scrape a Web Page' }).waitFor();
    await expectNoAxeViolations(page);
    // A private address is refused by the server (no browser-side check of the URL).
    await page.getByLabel('Web Page URL').fill('http://127.0.0.1:9/page.html');
    await page.getByRole('button', { name: 'Scrape Page' }).click();
    const alert = page.getByRole('alert').filter({ hasText: messages.scrape.failed });
    await alert.waitFor();
    expect((await alert.innerText()).split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(2);
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('**/images');

    // The list /scrape hands over (router state, kept in sessionStorage for reloads).
    await page.evaluate(() => {
      sessionStorage.setItem(
        'altwise.scrapedImages',
        JSON.stringify({
          url: 'https://blog.example/post',
          images: [
            { src: 'https://blog.example/img/cat.jpg', alt: 'A cat asleep', invalid: false, context: {} },
            { src: 'https://blog.example/img/dog.png', alt: '', invalid: false, context: {} },
            {
              src: 'data:image/png;base64,AAAA',
              alt: '',
              invalid: true,
              error: 'Invalid image source',
              context: {},
            },
          ],
        }),
      );
    });
    await page.goto('/scraped-images');
    await page.getByRole('heading', { level: 1, name: 'Scraped Images' }).waitFor();
    await page.getByRole('link', { name: /cat\.jpg/ }).waitFor();
    await page.getByText('Invalid image source', { exact: true }).waitFor();
    const generate = page.getByRole('button', { name: 'Generate Alt Text for selected' });
    expect(await generate.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: /^Select image 2\b/ }).check();
    expect(await generate.isEnabled()).toBe(true);
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'New Page Scrape' }).click();
    await page.waitForURL('**/scrape');
    await context.close();
  });
});
