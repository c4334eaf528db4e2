import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { auditProblemCodes } from '@altwise/contracts/audit-problems';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { baseURL, expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { type LocalSite, startLocalSite } from './local-site.ts';
import { createSession, type E2eSession, storeSession } from './session.ts';

const exifr = createRequire(import.meta.url)('exifr') as typeof import('exifr');

/** Every entry of a zip, by name. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/**
 * A three-page local site with every original problem code present, served on 127.0.0.1 (the e2e
 * server runs with FETCH_ALLOW_PRIVATE). Every /img/ path answers a picture with content, and
 * /img/opening-hours.png one whose text the pixel check reads under its alt="" (ADR 037).
 */
const longAlt =
  'A wide view of the workshop floor where twelve people in aprons sand, glue and varnish chairs, with sawdust in the air, tools on every wall and a dog asleep by the door';
const pages: Record<string, string> = {
  '/': `<h1>Chairs and things</h1>
    <nav><a href="/products.html">Products</a> <a href="/about.html">About us</a></nav>
    <img src="/img/hero.png" width="600" height="300">
    <img src="/img/IMG_2041.jpg" alt="IMG_2041.jpg" width="300" height="200">
    <img src="/img/new-range.png" alt="image" width="300" height="200">
    <img src="/img/brand.png" alt="logo" width="120" height="60">
    <a href="/products.html"><img src="/img/sunset.png" alt="A sunset over the sea" width="200" height="100"></a>
    <a href="/about.html"><img src="/img/team-link.png" alt="" width="200" height="100"></a>`,
  '/products.html': `<h1>Products</h1>
    <figure><img src="/img/bike.png" alt="Red city bike with a basket" width="300" height="200">
      <figcaption>Red city bike with a basket</figcaption></figure>
    <img src="/img/kettle-1.png" alt="Blue enamel kettle on a gas stove" width="300" height="200">
    <img src="/img/kettle-2.png" alt="Blue enamel kettle on a gas stove" width="300" height="200">
    <img src="/img/workshop.png" alt="${longAlt}" width="600" height="300">
    <img src="/img/line.png" alt="Thin divider line" width="600" height="1">`,
  '/about.html': `<h1>About us</h1>
    <img src="/img/team.png" alt="Our team of five at the 2025 meetup in Lisbon" width="400" height="300">
    <img src="/img/rule.png" alt="" width="600" height="1">
    <img src="/img/opening-hours.png" alt="" width="480" height="160">`,
};

let site: LocalSite;
let browser: Browser;

async function startSite() {
  const picture = await sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120">
      <rect width="160" height="120" fill="#3a7bd5"/><rect y="70" width="160" height="50" fill="#7b3a12"/>
      <circle cx="60" cy="50" r="22" fill="#f5e663"/></svg>`),
  )
    .png()
    .toBuffer();
  const hours = await sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="480" height="160">
      <rect width="480" height="160" fill="#fff"/>
      <text x="240" y="70" font-family="DejaVu Sans, sans-serif" font-size="44" font-weight="bold" text-anchor="middle">OPEN DAILY</text>
      <text x="240" y="130" font-family="DejaVu Sans, sans-serif" font-size="40" text-anchor="middle">9 TO 5</text></svg>`),
  )
    .png()
    .toBuffer();
  return startLocalSite(pages, (path) =>
    path.startsWith('/img/') ? (path === '/img/opening-hours.png' ? hours : picture) : undefined,
  );
}

beforeAll(async () => {
  site = await startSite();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function libraryAlts(session: E2eSession) {
  const response = await fetch(`${baseURL()}/api/v1/images/altText?userId=${session.user.id}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  return ((await response.json()) as { src: string; alt_text: string }[]).map((row) => row.alt_text);
}

describe('alt-text audit, as a site owner uses it', () => {
  it('audits a local site, filters, fixes the failing images, accepts one, exports and prints', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    const session = await createSession();
    await storeSession(page, session);

    // Start a site audit from the signed-in bar.
    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit alt text' }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByLabel('Website URL').fill(site.url);
    await page.getByRole('radio', { name: 'Whole site (linked pages)' }).check();
    await page.getByLabel('Max pages').fill('10');
    const started = performance.now();
    await page.getByRole('button', { name: 'Start audit' }).click();
    await page.waitForURL(/\/audit\/[0-9a-f-]{36}$/);
    const auditId = page.url().split('/').at(-1) as string;

    // Live progress in a status region until the audit completes.
    await page
      .getByRole('status')
      .filter({ hasText: 'Audit complete: 3 pages scanned, 14 images found.' })
      .waitFor({ timeout: 60_000 });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`audit of the 3-page local site completed in ${seconds}s`);
    await expectNoAxeViolations(page);

    // Every original problem code is counted, with its WCAG criteria (the newer checks have
    // their own page in the API tests, audits.test.ts).
    const problems = page.getByRole('table', { name: 'Problems found' });
    for (const code of auditProblemCodes.slice(0, auditProblemCodes.indexOf('empty-but-informative') + 1)) {
      await expect.poll(() => problems.getByRole('row', { name: new RegExp(`^${code} `) }).count()).toBe(1);
    }
    expect(
      await problems.getByRole('row', { name: /^link-without-purpose .* 2\.4\.4, 4\.1\.2 / }).count(),
    ).toBe(1);

    // The images table: (missing) for the hero, the verdicts and messages.
    const table = page.getByRole('table', { name: /Audited images/ });
    await expect.poll(() => table.getByText('(missing)').count()).toBeGreaterThan(0);
    await page.getByText('Page 1 of 1 (14 images)').waitFor();

    // Filter by verdict and by problem.
    await page.getByLabel('Verdict').selectOption('fail');
    await page.getByText(/Page 1 of 1 \(\d+ images?\)/).waitFor();
    const failRows = table
      .getByRole('row')
      .filter({ has: page.getByRole('checkbox', { name: /^Select image/ }) });
    await expect
      .poll(async () => (await failRows.allTextContents()).every((text) => text.includes('Fail')))
      .toBe(true);
    const failing = await failRows.count();
    expect(failing).toBeGreaterThanOrEqual(6);
    await page.getByLabel('Problem').selectOption('file-name');
    await page.getByText('Page 1 of 1 (1 image)').waitFor();
    // The row names the file, and its existing alt repeats it: the fault the filter found.
    await expect
      .poll(() => table.getByRole('rowheader').getByText('IMG_2041.jpg', { exact: true }).count())
      .toBe(1);
    await expect.poll(() => table.locator('td').getByText('IMG_2041.jpg', { exact: true }).count()).toBe(1);
    // The pixel check read the text an alt="" hides (the link's alt="" is the other one).
    await page.getByLabel('Problem').selectOption('empty-but-informative');
    await page.getByText('Page 1 of 1 (2 images)').waitFor();
    await table.getByText(/The empty alt="" hides the text “OPEN DAILY/).waitFor();
    await page.getByLabel('Problem').selectOption('');
    await page.getByText(`Page 1 of 1 (${failing} images)`).waitFor();

    // Fix every failing image: the cost is shown, the batch writes the suggestions.
    await page.getByText(`${failing} failing images cost ${failing} credits`).waitFor();
    await page.getByRole('button', { name: 'Fix failing images' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: new RegExp(`Suggestions written: ${failing} of ${failing}`) })
      .waitFor({ timeout: 120_000 });
    // Every failing image has a suggestion to review; one the engine could not ground needs words
    // and offers no Accept (ADR 068).
    await expect
      .poll(() => page.getByRole('button', { name: /^Edit suggestion for image/ }).count(), {
        timeout: 15_000,
      })
      .toBe(failing);
    await expectNoAxeViolations(page);

    // Accept the first suggestion that can be accepted; it lands in the library.
    await page.getByLabel('Review state').selectOption('pending');
    const firstRow = table
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: /^Accept suggestion for image/ }) })
      .first();
    // The cell's first span is the suggestion; the origin label follows it (ADR 057).
    const suggestion =
      (await firstRow.locator('td').nth(2).locator('span').first().textContent())?.trim() ?? '';
    expect(await firstRow.locator('td').nth(2).locator('[data-origin]').textContent()).toMatch(/^Origin: /);
    expect(suggestion.length).toBeGreaterThan(0);
    const accept = firstRow.getByRole('button', { name: /^Accept suggestion for image/ });
    await accept.click();
    await page.getByText('Suggestion accepted').first().waitFor();
    await page.getByText(`Page 1 of 1 (${failing - 1} images)`).waitFor();
    await page.getByLabel('Review state').selectOption('accepted');
    await page.getByText('Page 1 of 1 (1 image)').waitFor();
    expect(await table.getByText(suggestion, { exact: true }).count()).toBe(1);
    await expect.poll(() => libraryAlts(session)).toContain(suggestion);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Images' }).click();
    await page.getByRole('heading', { level: 1, name: 'Images' }).waitFor();
    await page.getByText(suggestion, { exact: true }).first().waitFor({ timeout: 15_000 });
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: /^Audit of / }).waitFor();

    // The screen-reader preview: a page's disclosure loads its announcements.
    await page.getByRole('heading', { name: 'Screen-reader preview' }).waitFor();
    await page.getByText(`Screen-reader preview of ${site.url} (`, { exact: false }).click();
    const announcements = page.getByRole('list', { name: `Announcements on ${site.url}`, exact: true });
    await announcements.getByText('link, image, A sunset over the sea').waitFor();
    await expectNoAxeViolations(page);

    // Export CSV: downloaded with the token, one row per image.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await readFile((await download.path()) as string, 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines).toHaveLength(15);
    expect(csv).toContain('IMG_2041.jpg');
    expect(csv).toContain(suggestion);

    // The images with their approved alt text written into each file (ADR 064): a zip whose
    // manifest lists the accepted suggestion as written, and whose file carries it.
    const [zipDownload] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByRole('button', { name: 'Download images with alt text' }).click(),
    ]);
    expect(zipDownload.suggestedFilename()).toBe(
      `altwise-audit-${auditId.slice(0, 8)}-images-with-alt-text.zip`,
    );
    const entries = await unzip(await readFile((await zipDownload.path()) as string));
    const manifest = entries.get('manifest.csv')?.toString('utf8') ?? '';
    const written = manifest
      .split(/\r?\n/)
      .find((line) => line.includes(suggestion) && line.includes(',written,'));
    expect(written).toBeDefined();
    const file = written?.split(',')[0] ?? '';
    expect(JSON.stringify(await exifr.parse(entries.get(file) as Buffer, { xmp: true }))).toContain(
      suggestion,
    );
    await expectNoAxeViolations(page);

    // The printable report.
    await page.getByRole('link', { name: 'Printable report' }).click();
    await page.waitForURL(`**/audit/${auditId}/report`);
    await page.getByRole('heading', { level: 1, name: `Alt-text audit report: ${site.url}` }).waitFor();
    await page.getByRole('heading', { name: 'Score per page' }).waitFor();
    expect(await page.getByRole('heading', { name: `Failing images (${failing})` }).count()).toBe(1);
    await page.getByRole('list', { name: `Announcements on ${site.url}`, exact: true }).waitFor();
    await expectNoAxeViolations(page);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await page.getByRole('heading', { name: 'Score per page' }).isVisible()).toBe(true);
    await context.close();
    // The zip of images with their alt text runs ExifTool once per image: more than the default minute.
  }, 120_000);
});
