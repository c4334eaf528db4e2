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
 * Three of the local test page's pictures (two colours and a shape), sent without any page context:
 * all the offline engine can say is their colours, a fallback it marks as needing review.
 */
async function seedFlaggedLibrary(session: E2eSession) {
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
    expect(image.needsReview, `colour-only alt text "${image.alt_text}" should need review`).toBe(true);
    expect(image.confidence).toEqual(expect.any(Number));
    expect(image.reasons.length).toBeGreaterThan(0);
  }
  return library;
}

describe('alt text review in the library (issue 11)', () => {
  it('shows Review badges, filters to the images needing review, explains them and approves them', async () => {
    const session = await createSession();
    const seeded = await seedFlaggedLibrary(session);
    // The oldest (shown as image 3) is approved through the API: two still need review.
    const oldest = seeded[2] as LibraryImage;
    const approved = await call(session, 'POST', `/images/altText/${oldest.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: oldest.id, needsReview: false });

    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, session);
    await page.goto('/images');
    await page.getByRole('heading', { level: 1, name: 'Images' }).waitFor();
    const table = page.getByRole('table', { name: 'Your images and their alt text' });
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);

    // Badges on the two flagged rows, with what they mean for screen readers; none on the approved one.
    const badge = (row: number) => rows.nth(row - 1).getByText(/this alt text needs review/);
    await badge(1).waitFor();
    expect(await rows.nth(0).locator('[title^="Needs review"]').innerText()).toMatch(/^Review/);
    expect(await badge(2).count()).toBe(1);
    expect(await badge(3).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Approve alt text for image \d+$/ }).count()).toBe(2);
    await expectNoAxeViolations(page);

    // Only those needing review.
    const filter = page.getByRole('checkbox', { name: 'Needs review only' });
    await filter.check();
    await expect.poll(() => rows.count()).toBe(2);
    const flagged = await listLibrary(session, '?needsReview=true');
    expect(flagged.map((image) => image.id)).toEqual([seeded[0]?.id, seeded[1]?.id]);
    await rows
      .nth(0)
      .getByText(flagged[0]?.alt_text ?? '')
      .waitFor();

    // The edit dialog says why: the confidence and the evidence used.
    await page.getByRole('button', { name: 'Edit alt text for image 1', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit alt text for image 1', exact: true });
    const why = dialog.getByRole('region', { name: 'Evidence and confidence' });
    await why.waitFor();
    const first = flagged[0] as LibraryImage;
    await why.getByText(`Confidence: ${Math.round((first.confidence ?? 0) * 100)}%`).waitFor();
    expect(await why.getByRole('listitem').count()).toBe(first.reasons.length);
    await why
      .getByText(first.reasons[0]?.detail ?? '', { exact: false })
      .first()
      .waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Approve on the row: it leaves the filtered list, and the server has cleared its flag.
    const toasts = page.getByRole('region', { name: 'Notifications (top right)' });
    await page.getByRole('button', { name: 'Approve alt text for image 1', exact: true }).click();
    await toasts.getByText('Alt text approved').first().waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect((await listLibrary(session, '?needsReview=true')).map((image) => image.id)).toEqual([
      seeded[1]?.id,
    ]);

    // Approve in the dialog: nothing is left to review.
    await page.getByRole('button', { name: 'Edit alt text for image 1', exact: true }).click();
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('No images need review.').waitFor();
    expect(await listLibrary(session, '?needsReview=true')).toEqual([]);
    await expectNoAxeViolations(page);

    // The whole library again, without a badge.
    await filter.uncheck();
    await expect.poll(() => rows.count()).toBe(3);
    // (The unfiltered page shows its earlier copy at once, then its refetch.)
    await expect.poll(() => table.getByText(/this alt text needs review/).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Approve alt text/ }).count()).toBe(0);
    await context.close();
  });
});
