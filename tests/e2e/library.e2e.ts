import { batchStartedMessage } from '@altwise/contracts/generation';
import {
  EXPORT_COLUMNS,
  EXPORT_FILE_NAME,
  EXPORT_ORIGIN_COLUMN,
  EXPORT_SHEET_NAME,
} from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseURL, expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { createSession, type E2eSession, storeSession } from './session.ts';
import { TEST_PAGE_IMAGE_COUNT } from './test-services.ts';

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
  thumbnailUrl: string | null;
  origin: string;
};

/** The library as the API lists it (newest first), to compare the screen and the sheet with. */
async function listLibrary(session: E2eSession) {
  const response = await fetch(`${baseURL()}/api/v1/images/altText?userId=${session.user.id}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as LibraryImage[];
}

async function remainingCredits(session: E2eSession) {
  const response = await fetch(`${baseURL()}/api/v1/credits/remaining`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  return ((await response.json()) as { imageCredits: number }).imageCredits;
}

describe('image library, as a person uses it', () => {
  it('scrapes a 30-image page, generates 10, watches the progress, copies, edits, exports and deletes', async () => {
    const context = await newContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() });
    const page = await context.newPage();
    await page.goto('/');
    const session = await createSession();
    await storeSession(page, session);
    const creditsBefore = await remainingCredits(session);

    // Scrape the local test page.
    await page.goto('/scrape');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByLabel('Web Page URL').fill(inject('imagePageURL'));
    await page.getByRole('button', { name: 'Scrape Page' }).click();
    await page.waitForURL('**/scraped-images', { timeout: 30_000 });
    // Rows are labelled 'Select image N (file name)' there.
    const scrapedBoxes = page.getByRole('checkbox', { name: /^Select image \d+/ });
    await expect.poll(() => scrapedBoxes.count()).toBe(TEST_PAGE_IMAGE_COUNT);

    // Pick ten and generate.
    for (let n = 1; n <= 10; n += 1) {
      await page.getByRole('checkbox', { name: new RegExp(`^Select image ${n}\\b`) }).check();
    }
    await page.getByRole('button', { name: 'Generate Alt Text for selected' }).click();
    await page.waitForURL('**/images', { timeout: 30_000 });
    await page.getByRole('heading', { level: 1, name: 'Images' }).waitFor();
    // The generate call's message, passed on by /scraped-images, shows as a success banner.
    await page.getByText(batchStartedMessage(10)).waitFor();

    // The bottom-right panel follows the batch to the end.
    const panel = page.getByRole('region', { name: 'Alt text generation progress' });
    await panel.waitFor();
    await panel.getByText('10 of 10 completed').waitFor({ timeout: 60_000 });
    await expect.poll(() => panel.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(await panel.getByText(/could not be processed/).count()).toBe(0);

    const table = page.getByRole('table', { name: 'Your images and their alt text' });
    const rowBoxes = table.getByRole('checkbox', { name: /^Select image \d+$/ });
    await expect.poll(() => rowBoxes.count(), { timeout: 15_000 }).toBe(10);
    expect(await remainingCredits(session)).toBe(creditsBefore - 10);
    await expectNoAxeViolations(page);

    const library = await listLibrary(session);
    expect(library).toHaveLength(10);
    for (const image of library) {
      expect(image.src).toMatch(/\/img\/photo-\d+\.png$/);
      expect(image.alt_text.trim().length).toBeGreaterThan(0);
      expect(image.thumbnailUrl).toMatch(/\/files\/previews\/.+\.webp$/);
    }
    // Each row's stored preview loads in its URL cell (served by /files, allowed by the CSP).
    const firstThumbnail = table.getByRole('row').nth(1).locator('td').nth(2).locator('img');
    await expect
      .poll(() => firstThumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBeGreaterThan(0);

    // Copy the first row's alt text.
    await page.getByRole('button', { name: 'Copy alt text for image 1', exact: true }).click();
    const toasts = page.getByRole('region', { name: 'Notifications (top right)' });
    await toasts.getByText(messages.images.copied).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(library[0]?.alt_text);

    // Edit the second row's alt text.
    await page.getByRole('button', { name: 'Edit alt text for image 2', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit alt text for image 2', exact: true });
    await dialog.getByLabel('Alt text').fill('A swatch of colour, edited by hand');
    // The picture is shown large beside the draft.
    const large = dialog.locator('img');
    await expect
      .poll(() => large.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBeGreaterThan(0);
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toasts.getByText('Alt text updated').waitFor();
    await table.getByText('A swatch of colour, edited by hand').waitFor();
    const edited = (await listLibrary(session))[1];
    expect(edited?.alt_text).toBe('A swatch of colour, edited by hand');

    // Export everything (nothing selected) and read the sheet back.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(EXPORT_FILE_NAME);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([EXPORT_SHEET_NAME]);
    const rows: unknown[][] = [];
    workbook.getWorksheet(EXPORT_SHEET_NAME)?.eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1));
    });
    const current = await listLibrary(session);
    expect(rows).toEqual([
      [...EXPORT_COLUMNS, EXPORT_ORIGIN_COLUMN],
      ...current.map((image, i) => [i + 1, image.src, image.alt_text, image.origin]),
    ]);
    expect(rows[2]?.[2]).toBe('A swatch of colour, edited by hand');

    // Delete two.
    await page.getByRole('checkbox', { name: 'Select image 1', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Select image 2', exact: true }).check();
    await page.getByText('Selected: 2').waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await toasts.getByText(messages.images.deleteSuccess).waitFor();
    await expect.poll(() => rowBoxes.count()).toBe(8);
    await page.getByText('Selected: 0').waitFor();
    const left = await listLibrary(session);
    expect(left.map((image) => image.id)).toEqual(current.slice(2).map((image) => image.id));
    await expectNoAxeViolations(page);
    await context.close();
  });
});
