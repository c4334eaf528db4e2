import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { type LocalSite, startLocalSite } from './local-site.ts';
import { createSession, storeSession } from './session.ts';

/**
 * The web-graphics journey: a local news site made of the images websites are made of (navigation buttons
 * drawn as text, a "more" arrow after a teaser, the site's logo in its home link, a bar chart), all
 * without usable alt. The site owner audits it, fixes the failing images with the offline engine and
 * reviews the suggestions with the picture, the evidence and the chart's long description in view.
 */
const font = 'DejaVu Sans, sans-serif';
const svg = (width: number, height: number, body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);
const navButton = (word: string) =>
  svg(
    100,
    25,
    `<rect width="100" height="25" fill="#1f2a44"/><text x="50" y="18" font-family="${font}" font-size="13" font-weight="bold" fill="#fff" text-anchor="middle">${word}</text>`,
  );
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'];
const visitors = [120, 150, 180, 170, 210, 240];
const chart = svg(
  400,
  340,
  `<rect width="400" height="340" fill="#fff"/><text x="200" y="30" font-family="${font}" font-size="20" font-weight="bold" text-anchor="middle">Visitors per month</text><line x1="40" y1="300" x2="390" y2="300" stroke="#333"/>${months
    .map((month, i) => {
      const x = 50 + i * 55;
      const h = visitors[i] as number;
      return `<rect x="${x}" y="${300 - h}" width="36" height="${h}" fill="#2e86c1"/><text x="${x + 18}" y="${292 - h}" font-family="${font}" font-size="14" text-anchor="middle">${h}</text><text x="${x + 18}" y="320" font-family="${font}" font-size="14" text-anchor="middle">${month}</text>`;
    })
    .join('')}`,
);
const pictures: Record<string, Buffer> = {
  '/img/nav-home.png': navButton('HOME'),
  '/img/nav-news.png': navButton('NEWS'),
  '/img/more.png': svg(
    60,
    20,
    `<rect width="60" height="20" fill="#fff"/><text x="4" y="15" font-family="${font}" font-size="12" fill="#c0392b">more</text><path d="M44 5 L54 10 L44 15 Z" fill="#c0392b"/>`,
  ),
  '/img/logo.png': svg(
    240,
    60,
    `<rect width="240" height="60" fill="#fff"/><circle cx="30" cy="30" r="20" fill="#f39c12"/><text x="60" y="40" font-family="${font}" font-size="26" font-weight="bold" fill="#1f4e79">Brightwater</text>`,
  ),
  '/img/stats.png': chart,
};
const home = `<!doctype html><html lang="en"><head><title>Brightwater</title>
  <meta property="og:site_name" content="Brightwater"></head><body>
  <header><a href="/"><img src="/img/logo.png" alt="logo" width="240" height="60"></a>
    <nav><a href="/"><img src="/img/nav-home.png" width="100" height="25"></a>
      <a href="/news.html"><img src="/img/nav-news.png" width="100" height="25"></a></nav></header>
  <main><h1>Town news</h1>
    <article><h2>Solar roof opens on the town hall</h2>
      <p>The new roof will power the town hall and the library next door.</p>
      <a href="/news/solar-roof.html"><img src="/img/more.png" alt="more.png" width="60" height="20"></a></article>
    <section><h2>Our website this year</h2>
      <img src="/img/stats.png" alt="chart" width="400" height="340"></section></main></body></html>`;

let site: LocalSite;
let browser: Browser;

async function startSite() {
  const rendered = Object.fromEntries(
    await Promise.all(
      Object.entries(pictures).map(
        async ([path, picture]) => [path, await sharp(picture).png().toBuffer()] as const,
      ),
    ),
  );
  return startLocalSite({ '/': home }, (path) => rendered[path]);
}

beforeAll(async () => {
  site = await startSite();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

type Suggested = {
  src: string;
  suggestion: string | null;
  longDescription: string | null;
  thumbnailUrl: string | null;
};

describe('the images websites are made of, fixed from an audit', () => {
  it('fixes nav buttons, a "more" arrow, a logo and a chart, with the picture and long description in view', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    const session = await createSession();
    await storeSession(page, session);

    await page.goto('/audit');
    await page.getByRole('heading', { level: 1, name: 'Audit alt text' }).waitFor();
    await page.getByLabel('Website URL').fill(site.url);
    await page.getByRole('button', { name: 'Start audit' }).click();
    await page.waitForURL(/\/audit\/[0-9a-f-]{36}$/);
    const auditId = page.url().split('/').at(-1) as string;
    await page
      .getByRole('status')
      .filter({ hasText: 'Audit complete: 1 page scanned, 5 images found.' })
      .waitFor({ timeout: 60_000 });

    // All five fail (no alt, a file name, "logo", "chart"); fixing them costs five credits.
    await page.getByText('5 failing images cost 5 credits').waitFor();
    await page.getByRole('button', { name: 'Fix failing images' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Suggestions written: 5 of 5/ })
      .waitFor({ timeout: 120_000 });
    await expectNoAxeViolations(page);

    const response = await fetch(`${baseURL()}/api/v1/audits/${auditId}/images?pageSize=50`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    const items = ((await response.json()) as { items: Suggested[] }).items;
    const of = (name: string) => items.find((item) => item.src.endsWith(name)) as Suggested;
    console.log(
      JSON.stringify(
        items.map(({ src, suggestion, longDescription }) => ({ src, suggestion, longDescription })),
        null,
        1,
      ),
    );

    // The buttons say what they say, in normal case; the arrow names the story it opens; the logo
    // is the site's name; the chart says what it shows, with its values in the long description.
    expect(of('nav-home.png').suggestion).toBe('Home');
    expect(of('nav-news.png').suggestion).toBe('News');
    expect(of('more.png').suggestion).toMatch(/Solar roof opens on the town hall/);
    expect(of('logo.png').suggestion).toMatch(/^Brightwater/);
    expect(of('stats.png').suggestion).toMatch(/^Bar chart: visitors per month/i);
    expect(of('stats.png').longDescription).toMatch(/Jan\D+120/);
    expect(of('stats.png').longDescription).toMatch(/Jun\D+240/);
    for (const item of items) {
      expect(item.suggestion ?? '').not.toMatch(/graphic|tones|\.png/i);
      expect(item.thumbnailUrl).toMatch(/\/files\/previews\/.+\.webp$/);
    }

    // Each row shows the picture; the chart's edit dialog shows it large with the long description.
    const table = page.getByRole('table', { name: /Audited images/ });
    await expect
      .poll(() => table.locator('img[src*="/files/previews/"]').count(), { timeout: 15_000 })
      .toBe(5);
    const chartRow = table.getByRole('row').filter({ hasText: 'Bar chart: visitors per month' });
    await chartRow.getByRole('button', { name: /^Edit suggestion for image/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Edit suggestion for image/ });
    await dialog.waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Long description' }).inputValue()).toMatch(/Jan\D+120/);
    expect(await dialog.locator('img[src*="/files/previews/"]').count()).toBeGreaterThan(0);
    await dialog.getByRole('region', { name: 'Evidence and confidence' }).waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Save and accept' }).click();
    await page.getByText('Suggestion saved and accepted').first().waitFor();
    await context.close();
  });
});
