import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createImagePost,
  readMediaAlt,
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
 * rendered post say what was written. The second journey holds the product to its promise (ADR 067,
 * 068, 069): only grounded or person-written alt text goes live, per placement. The site may be
 * shared by the run: this file's posts and images carry their own tag.
 */
let site: WordPressSite;
let browser: Browser;
let media: SeededMedia;
let post: SeededPost;
const run = Math.random().toString(36).slice(2, 8);
const words = 'A yellow sun over a blue sky and a brown field';

/** The second journey's images and posts: words to read, a caption to use, nothing to go on. */
let sign: SeededMedia;
let boat: SeededMedia;
let hills: SeededMedia;
let bakery: SeededPost;
let harbour: SeededPost;
let walk: SeededPost;
const signWords = ['FRESH', 'BREAD', 'EVERY', 'MORNING'];
const boatCaption = 'A small fishing boat with a white sail in the harbour';
const hillsWords = 'Two green hills under a pale sky, a lone tree on the right';
const hillsLibraryWords = 'Green hills and a lone tree';

const postRaw = () => readPostRaw(site, post.id);
const postHtml = async () => (await fetch(`${site.url}/?p=${post.id}`)).text();

/** The alt of an attachment's image in a post's raw content, decoded; undefined when it is not there. */
function altIn(raw: string, media: SeededMedia): string | undefined {
  const tag = raw.match(new RegExp(`<img\\b[^>]*\\bwp-image-${media.id}\\b[^>]*>`))?.[0];
  const alt = tag?.match(/\balt="([^"]*)"/)?.[1];
  return alt
    ?.replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Connects the site through the form and imports its media library. */
async function connectAndImport(page: Page): Promise<void> {
  await page.goto('/integrations');
  await page.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();
  await page.getByLabel('Site address').fill(site.url);
  await page.getByLabel('WordPress user name').fill(site.username);
  await page.getByLabel('Application password').fill(site.applicationPassword);
  await page.getByRole('button', { name: 'Connect site' }).click();
  await page.getByText(`${site.url} is connected. Import its media library below.`).waitFor();
  await page.getByRole('button', { name: 'Import media library' }).click();
  await page.getByText('Status: Imported').waitFor({ timeout: 120_000 });
}

/** The import's audit, opened from the integrations page; its images table. */
async function openImportAudit(page: Page): Promise<Locator> {
  await page.getByRole('link', { name: 'Open the import’s audit to fix and approve' }).click();
  await page.getByRole('heading', { level: 1, name: /^Audit of / }).waitFor();
  const table = page.getByRole('table', { name: /Audited images/ });
  // Loaded: a row to select is shown (before, the table says "Loading images...").
  await table
    .getByRole('checkbox', { name: /^Select image/ })
    .first()
    .waitFor();
  return table;
}

/**
 * Turns the images table's pages until `row` is on the one shown (a shared site's library may fill
 * several pages of 25). Answers the row.
 */
async function findRow(page: Page, row: Locator): Promise<Locator> {
  const previous = page.getByRole('button', { name: 'Previous page' });
  while (await previous.isEnabled()) await previous.click();
  for (;;) {
    // A page's rows may still be on their way: give them a moment before turning.
    if (
      await row
        .first()
        .waitFor({ timeout: 3_000 })
        .then(
          () => true,
          () => false,
        )
    )
      return row;
    const next = page.getByRole('button', { name: 'Next page' });
    if (!(await next.isEnabled())) throw new Error(`No row of the audit matches ${row.toString()}`);
    await next.click();
  }
}

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
  // Big dark words on white, which the offline OCR reads: grounds the engine can quote.
  const font = 'DejaVu Sans, sans-serif';
  const signBytes = await sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="480" height="160">
      <rect width="480" height="160" fill="#fff"/>
      <text x="240" y="70" font-family="${font}" font-size="44" font-weight="bold" text-anchor="middle">${signWords.slice(0, 2).join(' ')}</text>
      <text x="240" y="130" font-family="${font}" font-size="40" text-anchor="middle">${signWords.slice(2).join(' ')}</text></svg>`),
  )
    .png()
    .toBuffer();
  // Two pictures with no text: one its post captions, one nothing tells us about.
  const boatBytes = await sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120">
      <rect width="160" height="120" fill="#87ceeb"/><rect y="80" width="160" height="40" fill="#1f5f8b"/>
      <polygon points="40,80 120,80 110,95 50,95" fill="#8b4513"/><rect x="78" y="40" width="4" height="40" fill="#333"/>
      <polygon points="82,42 82,76 110,76" fill="#f5f5f5"/></svg>`),
  )
    .png()
    .toBuffer();
  const hillsBytes = await sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120">
      <rect width="160" height="120" fill="#9fc5e8"/><ellipse cx="50" cy="95" rx="80" ry="40" fill="#4e8f3a"/>
      <ellipse cx="130" cy="100" rx="70" ry="35" fill="#6aa84f"/><rect x="108" y="45" width="8" height="30" fill="#5b3a1a"/>
      <circle cx="112" cy="40" r="16" fill="#2e6b1f"/></svg>`),
  )
    .png()
    .toBuffer();
  sign = await uploadMedia(site, { name: `bakery-sign-${run}.png`, bytes: signBytes, type: 'image/png' });
  boat = await uploadMedia(site, { name: `boat-${run}.png`, bytes: boatBytes, type: 'image/png' });
  hills = await uploadMedia(site, { name: `hills-${run}.png`, bytes: hillsBytes, type: 'image/png' });
  // Each left at alt="" by the block editor: nobody described them, nobody marked them decorative.
  bakery = await createImagePost(site, {
    title: `At the bakery ${run}`,
    text: 'We open at seven on weekdays.',
    images: [[sign, '']],
  });
  harbour = await createImagePost(site, {
    title: `Down by the harbour ${run}`,
    text: 'We spent the afternoon by the sea.',
    images: [[boat, '', boatCaption]],
  });
  walk = await createImagePost(site, {
    title: `A walk ${run}`,
    text: 'We went out after lunch.',
    images: [[hills, '']],
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
    // The field is "Your alt text" when the engine found nothing to stand behind (ADR 068): this
    // picture's sun sits near the face detector's cut-off, so either may come; the words are ours.
    await dialog.getByRole('textbox', { name: /^(Suggested alt text|Your alt text)$/ }).fill(words);
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
    const logged = changes.getByRole('row').filter({ hasText: 'IMG_0001.png' }).filter({ hasText: words });
    await logged.waitFor();
    // Named by its file, beside our own stored copy of the picture (decorative: the name is beside it).
    await logged.getByRole('rowheader', { name: new RegExp(`garden-${run}\\.png$`) }).waitFor();
    const thumbnail = logged.locator('img');
    expect(await thumbnail.getAttribute('src')).toMatch(/\/files\/previews\//);
    expect(await thumbnail.getAttribute('alt')).toBe('');
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

  it('offers only grounded words, asks for yours where there are none, and publishes only those', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, await createSession());
    const started = performance.now();
    await connectAndImport(page);
    let table = await openImportAudit(page);
    const library = `${site.url}/wp-admin/upload.php`;
    const fileOf = (media: SeededMedia) => media.sourceUrl.slice(media.sourceUrl.lastIndexOf('/') + 1);
    /** One place of an image: its row in the media library's page or in a post's. */
    const rowOf = (media: SeededMedia, where: string) =>
      table
        .getByRole('row')
        .filter({ hasText: fileOf(media) })
        .filter({ hasText: where });
    const cell = (row: Locator, column: 'existing' | 'suggestion' | 'confidence' | 'verdict') =>
      row.locator('td').nth({ existing: 1, suggestion: 2, confidence: 3, verdict: 4 }[column]);
    const places: [SeededMedia, string][] = [
      [sign, bakery.link],
      [sign, library],
      [boat, harbour.link],
      [boat, library],
      [hills, walk.link],
      [hills, library],
    ];

    // The block editor's alt="" in a post is missing, not decorative: each fails and may be fixed.
    for (const [media, post] of [
      [sign, bakery],
      [boat, harbour],
      [hills, walk],
    ] as const) {
      const row = await findRow(page, rowOf(media, post.link));
      expect(await cell(row, 'verdict').innerText()).toBe('Fail');
      expect(await cell(row, 'existing').innerText()).toBe('(missing)');
    }
    await expectNoAxeViolations(page);

    // Fix the six places of the three images: one description per image.
    for (const [media, where] of places)
      await (await findRow(page, rowOf(media, where)))
        .getByRole('checkbox', { name: /^Select image/ })
        .check();
    await page.getByRole('button', { name: 'Fix selected images' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Suggestions written: / })
      .waitFor({ timeout: 180_000 });
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: /^Suggestions written: / })
        .innerText(),
    ).toBe('Suggestions written: 3 of 3. Review them below.');
    await page.getByLabel('Review state').selectOption('pending');
    await page.getByText('Page 1 of 1 (6 images)').waitFor();
    await expect
      .poll(() => table.getByRole('button', { name: /^Edit suggestion for image/ }).count(), {
        timeout: 15_000,
      })
      .toBe(6);

    // Grounded words where the engine has grounds: the sign's text, the post's caption. Each shows
    // how sure the engine is and may be accepted; a place of one image gets the same words.
    const suggestionOf = async (row: Locator) => cell(row, 'suggestion').locator('span').first().innerText();
    const signAlt = await suggestionOf(rowOf(sign, bakery.link));
    const boatAlt = await suggestionOf(rowOf(boat, harbour.link));
    expect(signAlt.toUpperCase().replace(/\s+/g, ' ')).toContain(signWords.join(' '));
    expect(boatAlt.toLowerCase()).toContain('fishing boat with a white sail');
    for (const [media, where] of places.filter(([media]) => media !== hills)) {
      const row = rowOf(media, where);
      expect(await suggestionOf(row)).toBe(media === sign ? signAlt : boatAlt);
      const sure = Number((await cell(row, 'confidence').innerText()).match(/^(\d+)%/)?.[1]);
      expect(sure).toBeGreaterThan(0);
      await row.getByRole('button', { name: /^Accept suggestion for image/ }).waitFor();
    }
    // No grounds: the picture with no text and no caption asks for words and offers no Accept.
    for (const where of [walk.link, library]) {
      const row = rowOf(hills, where);
      expect(await cell(row, 'suggestion').innerText()).toBe('(none: needs your words)');
      expect(await cell(row, 'confidence').innerText()).toMatch(/^0%\s+Needs your words$/);
      expect(await row.getByRole('button', { name: /^Accept suggestion for image/ }).count()).toBe(0);
    }
    await expectNoAxeViolations(page);

    // Accepting a selection leaves out what needs words, and says so; so does Approve all.
    for (const [media, where] of [
      [sign, bakery.link],
      [sign, library],
      [hills, walk.link],
    ] as const)
      await rowOf(media, where)
        .getByRole('checkbox', { name: /^Select image/ })
        .check();
    await page.getByRole('button', { name: 'Accept selected' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: '2 suggestions accepted. 1 image needs your words.' })
      .first()
      .waitFor();
    await page.getByText('Page 1 of 1 (4 images)').waitFor();
    await page.getByRole('button', { name: 'Approve all' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: '2 suggestions accepted. 2 images need your words.' })
      .first()
      .waitFor();
    await page.getByText('Page 1 of 1 (2 images)').waitFor();
    expect(await rowOf(hills, walk.link).count()).toBe(1);
    expect(await rowOf(hills, library).count()).toBe(1);

    // The owner writes the words for the walk's picture in its post; the library's stays unwritten.
    await rowOf(hills, walk.link)
      .getByRole('button', { name: /^Edit suggestion for image/ })
      .click();
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel('Your alt text').fill(hillsWords);
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Save and accept' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Page 1 of 1 (1 image)').waitFor();

    // Publish: the preview names every place written, and the one left unwritten is not among them.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('button', { name: 'Publish approved alt text' }).click();
    let confirm = page.getByRole('dialog', { name: /^Publish to / });
    let planned = confirm.getByRole('table', { name: 'What will be written, before and after' });
    const plannedRow = (media: SeededMedia, where: string, words: string) =>
      planned
        .getByRole('row')
        .filter({ hasText: fileOf(media) })
        .filter({ hasText: where })
        .filter({ hasText: words });
    await plannedRow(sign, `“At the bakery ${run}”`, signAlt).waitFor();
    await plannedRow(sign, 'Media library', signAlt).waitFor();
    await plannedRow(boat, `“Down by the harbour ${run}”`, boatAlt).waitFor();
    await plannedRow(boat, 'Media library', boatAlt).waitFor();
    await plannedRow(hills, `“A walk ${run}”`, hillsWords).waitFor();
    expect(
      await planned
        .getByRole('row')
        .filter({ hasText: fileOf(hills) })
        .count(),
    ).toBe(1);
    expect(altIn(await readPostRaw(site, bakery.id), sign)).toBe('');
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Publish 5 alt texts' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByText(/^Published 5 alt texts to /).waitFor({ timeout: 60_000 });

    // WordPress has each place's words: the grounded ones, the owner's, and nothing where none.
    expect(altIn(await readPostRaw(site, bakery.id), sign)).toBe(signAlt);
    expect(altIn(await readPostRaw(site, harbour.id), boat)).toBe(boatAlt);
    expect(altIn(await readPostRaw(site, walk.id), hills)).toBe(hillsWords);
    expect(await readMediaAlt(site, sign.id)).toBe(signAlt);
    expect(await readMediaAlt(site, boat.id)).toBe(boatAlt);
    expect(await readMediaAlt(site, hills.id)).toBe('');

    // Undo the sign in its post: the editor's alt="" is back, and the suggestion is no longer approved.
    const changes = page.getByRole('table', { name: 'Changes published to this site, newest first' });
    await changes.getByRole('button', { name: `Undo: “At the bakery ${run}”, ${fileOf(sign)}` }).click();
    await page.getByText('Undid 1 change on').waitFor({ timeout: 60_000 });
    expect(altIn(await readPostRaw(site, bakery.id), sign)).toBe('');
    table = await openImportAudit(page);
    const undone = await findRow(page, rowOf(sign, bakery.link));
    // The table may first show the audit as it was cached at import time; the fresh answer follows.
    await expect.poll(() => undone.locator('td').last().innerText()).toMatch(/^Pending/);
    await undone.getByRole('button', { name: /^Accept suggestion for image/ }).waitFor();

    // The owner words the library's picture too; the next publish writes that and leaves the undo be.
    await (await findRow(page, rowOf(hills, library)))
      .getByRole('button', { name: /^Edit suggestion for image/ })
      .click();
    dialog = page.getByRole('dialog');
    await dialog.getByLabel('Your alt text').fill(hillsLibraryWords);
    await dialog.getByRole('button', { name: 'Save and accept' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await nav.getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('button', { name: 'Publish approved alt text' }).click();
    confirm = page.getByRole('dialog', { name: /^Publish to / });
    planned = confirm.getByRole('table', { name: 'What will be written, before and after' });
    await plannedRow(hills, 'Media library', hillsLibraryWords).waitFor();
    await confirm
      .getByText(
        '1 alt text will be written. Nothing is written until you confirm. 4 places already say the approved words.',
      )
      .waitFor();
    expect(
      await planned
        .getByRole('row')
        .filter({ hasText: `At the bakery ${run}` })
        .count(),
    ).toBe(0);
    await confirm.getByRole('button', { name: 'Publish 1 alt text' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByText(/^Published 1 alt text to /).waitFor({ timeout: 60_000 });
    expect(await readMediaAlt(site, hills.id)).toBe(hillsLibraryWords);
    expect(altIn(await readPostRaw(site, bakery.id), sign)).toBe('');

    // Import again: the words Altwise published are its own, the owner's are the owner's, and the
    // undone place is missing again.
    const auditLink = page.getByRole('link', { name: 'Open the import’s audit to fix and approve' });
    const firstAudit = await auditLink.getAttribute('href');
    await page.getByRole('button', { name: 'Import again' }).click();
    await expect.poll(() => auditLink.getAttribute('href'), { timeout: 120_000 }).not.toBe(firstAudit);
    await page.getByText('Status: Imported').waitFor({ timeout: 120_000 });
    table = await openImportAudit(page);
    const originOf = async (media: SeededMedia, where: string) =>
      cell(await findRow(page, rowOf(media, where)), 'existing')
        .locator('[data-origin]')
        .textContent();
    expect(await originOf(sign, library)).toBe('Origin: AI, reviewed');
    expect(await originOf(boat, harbour.link)).toBe('Origin: AI, reviewed');
    expect(await originOf(boat, library)).toBe('Origin: AI, reviewed');
    expect(await originOf(hills, walk.link)).toBe('Origin: Written by a person');
    expect(await originOf(hills, library)).toBe('Origin: Written by a person');
    const again = await findRow(page, rowOf(sign, bakery.link));
    expect(await cell(again, 'verdict').innerText()).toBe('Fail');
    expect(await cell(again, 'existing').innerText()).toBe('(missing)');
    await expectNoAxeViolations(page);
    console.log(`grounded-only WordPress journey took ${((performance.now() - started) / 1000).toFixed(1)}s`);
    await context.close();
  }, 600_000);
});
