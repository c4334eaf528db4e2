import type { LibraryImageRecord } from '@altwise/contracts/library';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseURL, expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { createSession, type E2eSession, storeSession } from './session.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type LibraryImage = LibraryImageRecord;

async function call(session: E2eSession, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseURL()}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${session.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** The library as the API lists it, newest first. */
async function listLibrary(session: E2eSession, query = '') {
  const { status, body } = await call(session, 'GET', `/images/altText${query}`);
  expect(status).toBe(200);
  return body as LibraryImage[];
}

/**
 * Three of the local test page's pictures (two colours and a shape), sent without any page context: the
 * offline engine finds nothing it can stand behind in them, so each waits for a person's words (ADR 068).
 */
async function seedLibraryNeedingWords(session: E2eSession) {
  const page = inject('imagePageURL');
  const selectedImages = [1, 2, 3].map((n) => new URL(`/img/photo-${n}.png`, page).href);
  const started = await call(session, 'POST', '/images/generate-alt-text', { selectedImages });
  expect(started.status).toBe(202);
  const { batchId } = started.body as { batchId: string };
  const deadline = Date.now() + 45_000;
  for (;;) {
    const { body } = await call(session, 'GET', `/images/batches/${batchId}`);
    const batch = body as { status: string; completed: number };
    if (batch.status === 'completed' || batch.status === 'failed') {
      expect(batch).toMatchObject({ status: 'completed', completed: 3 });
      break;
    }
    if (Date.now() > deadline) throw new Error(`batch ${batchId} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const library = await listLibrary(session);
  expect(library).toHaveLength(3);
  for (const image of library) {
    expect(image, `"${image.alt_text}" should wait for a person's words`).toMatchObject({
      alt_text: '',
      needsWords: true,
      needsReview: true,
      publishable: false,
    });
    expect(image.needsWordsReason).toEqual(expect.any(String));
  }
  return library;
}

describe('alt text review in the library', () => {
  it('shows which images need words, refuses to approve an empty alt, and takes a person’s words', async () => {
    const session = await createSession();
    const seeded = await seedLibraryNeedingWords(session);
    // Nothing to approve: the API says which image needs words and why.
    const oldest = seeded[2] as LibraryImage;
    const refused = await call(session, 'POST', `/images/altText/${oldest.id}/approve`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'UNPUBLISHABLE_ALT' });

    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, session);
    await page.goto('/images');
    await page.getByRole('heading', { level: 1, name: 'Images' }).waitFor();
    const table = page.getByRole('table', { name: 'Your images and their alt text' });
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);

    // Each row says it has no alt text yet and why; none offers an Approve that could not work.
    const needsWords = (row: number) => rows.nth(row - 1).getByText(/found nothing it could stand behind/);
    await needsWords(1).waitFor();
    expect(await needsWords(2).count()).toBe(1);
    expect(await needsWords(3).count()).toBe(1);
    await rows
      .nth(0)
      .getByText(seeded[0]?.needsWordsReason ?? '', { exact: false })
      .waitFor();
    expect(await page.getByRole('button', { name: /^Approve alt text for image \d+$/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Copy alt text for image 1' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(page);

    // Only those needing review: all three.
    const filter = page.getByRole('checkbox', { name: 'Needs review only' });
    await filter.check();
    await expect.poll(() => rows.count()).toBe(3);

    // The dialog says why, asks the three questions and has no Approve.
    await page.getByRole('button', { name: 'Edit alt text for image 1', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit alt text for image 1', exact: true });
    const guide = dialog.getByRole('region', { name: 'Needs your words' });
    await guide.waitFor();
    await guide.getByText('What would a visitor miss?').waitFor();
    expect(await dialog.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    await expectNoAxeViolations(page);

    // A person's words: saved, the row leaves the review list and may go live.
    const toasts = page.getByRole('region', { name: 'Notifications (top right)' });
    await dialog.getByLabel('Alt text', { exact: true }).fill('Harbour at dawn, three red boats moored');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await toasts.getByText('Alt text updated').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => rows.count()).toBe(2);
    const written = (await listLibrary(session)).find((image) => image.id === seeded[0]?.id);
    expect(written).toMatchObject({
      alt_text: 'Harbour at dawn, three red boats moored',
      origin: 'human',
      needsWords: false,
      needsReview: false,
      publishable: true,
    });

    // The whole library again: the person's words, and two rows still waiting.
    await filter.uncheck();
    await expect.poll(() => rows.count()).toBe(3);
    await table.getByText('Harbour at dawn, three red boats moored').waitFor();
    await expect.poll(() => table.getByText(/found nothing it could stand behind/).count()).toBe(2);
    await expectNoAxeViolations(page);
    await context.close();
  });
});
