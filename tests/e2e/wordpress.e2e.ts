import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createImagePost,
  readPostRaw,
  type SeededMedia,
  type SeededPost,
  startWordPress,
  uploadMedia,
  type WordPressSite,
} from '../../scripts/lib/wordpress.ts';
import { expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { createSession, storeSession } from './session.ts';

/**
 * In the browser, against a real WordPress on loopback (the e2e server runs with
 * FETCH_ALLOW_PRIVATE): connect, import, fix, approve, publish, undo; then the REST API and the
 * rendered post say what was written. The site may be shared by the run: this file's post and
 * image carry their own tag.
 */
let site: WordPressSite;
let browser: Browser;
let media: SeededMedia;
let post: SeededPost;
const run = Math.random().toString(36).slice(2, 8);
const words = 'A yellow sun over a blue sky and a brown field';

const postRaw = () => readPostRaw(site, post.id);
const postHtml = async () => (await fetch(`${site.url}/?p=${post.id}`)).text();

beforeAll(async () => {
  site = await startWordPress();
  // A picture with content (sky, ground, sun), as the audit journey uses: a plain colour reads as decorative.
  const bytes = await sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120">
      <rect width="160" height="120" fill="#3a7bd5"/><rect y="70" width="160" height="50" fill="#7b3a12"/>
      <circle cx="60" cy="50" r="22" fill="#f5e663"/></svg>`),
  )
    .png()
    .toBuffer();
  media = await uploadMedia(site, { name: `garden-${run}.png`, bytes, type: 'image/png' });
  post = await createImagePost(site, {
    title: `Spring in the garden ${run}`,
    text: 'The first tulips opened this week by the pond.',
    images: [[media, 'IMG_0001.png']],
  });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe('publishing to WordPress, as a site owner does it', () => {
  it('connects, imports, fixes, approves, publishes and undoes one change', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    const session = await createSession();
    await storeSession(page, session);

    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();
    await page.getByText('You have not connected a site yet.').waitFor();
    await expectNoAxeViolations(page);

    // The form checks with the contract's messages before anything is sent.
    await page.getByRole('button', { name: 'Connect site' }).click();
    await page.getByText('Please enter the site’s address').waitFor();
    await page.getByText('Please enter an application password').waitFor();

    // A wrong password: WordPress's 401 said in words.
    await page.getByLabel('Site address').fill(site.url);
    await page.getByLabel('WordPress user name').fill(site.username);
    await page.getByLabel('Application password').fill('wrong pass word wrong pass word');
    await page.getByRole('button', { name: 'Connect site' }).click();
    await page.getByText(/refused the user name or application password \(HTTP 401\)/).waitFor();

    // By keyboard: the right password, then Enter.
    await page.getByLabel('Application password').fill(site.applicationPassword);
    await page.getByLabel('Application password').press('Enter');
    await page.getByText(`${site.url} is connected. Import its media library below.`).waitFor();
    await expectNoAxeViolations(page);

    const started = performance.now();
    await page.getByRole('button', { name: 'Import media library' }).click();
    await page
      .getByText('Status: Imported')
      .waitFor({ timeout: 120_000 })
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)}\nThe page says: ${await page.locator('main').innerText()}`);
      });
    console.log(`WordPress import finished in ${((performance.now() - started) / 1000).toFixed(1)}s`);
    await page.getByText(/\d+ of \d+ images imported; \d+ uses in posts and pages\./).waitFor();
    await expectNoAxeViolations(page);

    // The import is a normal audit: fix this post's image and accept the suggestion.
    await page.getByRole('link', { name: 'Open the import’s audit to fix and approve' }).click();
    await page.getByRole('heading', { level: 1, name: /^Audit of / }).waitFor();
    const table = page.getByRole('table', { name: /Audited images/ });
    const row = table.getByRole('row').filter({ hasText: post.link });
    await row.getByRole('checkbox', { name: /^Select image/ }).check();
    await page.getByRole('button', { name: 'Fix selected images' }).click();
    // The engine's suggestion arrives; the owner edits it into their own words and approves.
    const edit = row.getByRole('button', { name: /^Edit suggestion for image/ });
    await edit.waitFor({ timeout: 120_000 });
    await edit.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Suggested alt text').fill(words);
    await dialog.getByRole('button', { name: 'Save and accept' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Publish the approved alt text, then read it on WordPress.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('button', { name: 'Publish approved alt text' }).click();
    // First what will be written and where: the post, the file, before → after; nothing yet.
    const confirm = page.getByRole('dialog', { name: /^Publish to / });
    const planned = confirm.getByRole('table', { name: 'What will be written, before and after' });
    await planned
      .getByRole('row')
      .filter({ hasText: `Spring in the garden ${run}` })
      .filter({ hasText: `garden-${run}.png` })
      .filter({ hasText: 'IMG_0001.png' })
      .filter({ hasText: words })
      .waitFor();
    await expectNoAxeViolations(page);
    expect(await postRaw()).toContain('alt="IMG_0001.png"');
    await confirm.getByRole('button', { name: 'Publish 1 alt text' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByText(/^Published 1 alt text to /).waitFor({ timeout: 60_000 });
    // The change log names the post's old alt and the new one; WordPress has the new one.
    const changes = page.getByRole('table', { name: 'Changes published to this site, newest first' });
    await changes.getByRole('row').filter({ hasText: 'IMG_0001.png' }).filter({ hasText: words }).waitFor();
    await expect.poll(postRaw).toContain(`alt="${words}"`);
    expect(await postHtml()).toContain(`alt="${words}"`);
    await expectNoAxeViolations(page);

    // Undo it: the old alt is back in the post.
    await changes.getByRole('button', { name: new RegExp(`^Undo: “Spring in the garden ${run}”`) }).click();
    await page.getByText('Undid 1 change on').waitFor({ timeout: 60_000 });
    await changes.getByText(/^Undone /).waitFor();
    expect(await postRaw()).toContain('alt="IMG_0001.png"');
    expect(await postHtml()).toContain('alt="IMG_0001.png"');
    await expectNoAxeViolations(page);
    await context.close();
  }, 300_000);
});
