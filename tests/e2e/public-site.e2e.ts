import { messages } from '@altwise/contracts/messages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { waitForMail } from './mailbox.ts';
import { createSession, storeSession } from './session.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const posts = ['/blog/post1', '/blog/post2', '/blog/post3'];
const publicPages = ['/', '/plans', '/support', '/blogs', '/blog', ...posts, '/developers', '/accuracy'];

async function withPage<T>(run: (page: Page) => Promise<T>, options: { mobile?: boolean } = {}): Promise<T> {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  try {
    return await run(page);
  } finally {
    await context.close();
  }
}

const h1Text = (page: Page) => page.locator('main h1').innerText();
const metaDescription = (page: Page) =>
  page.locator('meta[name="description"]').getAttribute('content') as Promise<string>;

describe('the public site, as a visitor sees it', () => {
  it('landing: feature cards, example images, how it works, and sign-up buttons', async () => {
    await withPage(async (page) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto('/');
      await page.waitForLoadState('networkidle');
      for (const [name, href] of [
        ['Edit an image with AI', '/caption-generator'],
        ['Write Instagram captions', '/caption-generator'],
        ['Create a reel', '/reel-generator'],
      ]) {
        expect(await page.getByRole('link', { name }).getAttribute('href')).toBe(href);
      }
      const trials = page.getByRole('link', { name: 'Start free trial' });
      expect(await trials.count()).toBe(2);
      for (const href of await trials.evaluateAll((links) => links.map((a) => a.getAttribute('href')))) {
        expect(href).toBe('/register');
      }
      expect(await page.getByRole('heading', { name: 'How it works' }).count()).toBe(1);
      for (const step of ['Upload image', 'Enter prompt', 'Get results']) {
        expect(await page.getByRole('heading', { level: 3, name: step }).count()).toBe(1);
      }

      const example = page.getByRole('heading', { name: 'Before and after Altwise' });
      await example.scrollIntoViewIfNeeded();
      const images = page.locator('main picture img');
      expect(await images.count()).toBe(2);
      await expect
        .poll(() =>
          images.evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).naturalWidth > 0)),
        )
        .toBe(true);
      const details = await images.evaluateAll((imgs) =>
        imgs.map((img) => ({
          alt: img.getAttribute('alt') ?? '',
          width: img.getAttribute('width'),
          src: (img as HTMLImageElement).currentSrc,
        })),
      );
      for (const image of details) {
        expect(image.alt.length).toBeGreaterThan(40);
        expect(image.width).toBe('600');
        expect(image.src).toMatch(/\/assets\/espresso-(before|after)-[\w-]+\.avif$/);
      }
      await expectNoAxeViolations(page);
      expect(errors).toEqual([]);

      await trials.first().click();
      await page.waitForURL('**/register');
    });
  });

  it('blog: the index leads to each article, with title, author, date, read time and a sign-up call', async () => {
    await withPage(async (page) => {
      await page.goto('/blogs');
      await expectNoAxeViolations(page);
      const titles = await page.locator('main article h2').allInnerTexts();
      expect(titles).toHaveLength(3);
      for (const [index, title] of titles.entries()) {
        await page.goto('/blogs');
        await page.getByRole('link', { name: title }).click();
        await page.waitForURL(`**${posts[index]}`);
        await expect.poll(() => h1Text(page)).toBe(title);
        expect(await page.title()).toBe(`${title} – Altwise`);
        const article = page.locator('main article');
        expect(await article.innerText()).toMatch(/By [A-Z][a-z]+ [A-Z][a-z]+/);
        expect(await article.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(await article.innerText()).toContain('2 minutes read');
        expect(await article.getByRole('link', { name: 'Start free trial' }).getAttribute('href')).toBe(
          '/register',
        );
        await expectNoAxeViolations(page);
      }
    });
  });

  it('pricing: the toggle switches prices and the pack total follows the quantity', async () => {
    await withPage(async (page) => {
      await page.goto('/plans');
      await page.waitForLoadState('networkidle');
      const growth = page.locator('main li').filter({ has: page.getByRole('heading', { name: 'Growth' }) });
      expect(await page.getByRole('radio', { name: 'Monthly' }).isChecked()).toBe(true);
      expect(await growth.innerText()).toContain('$19');
      expect(await growth.innerText()).toContain('Most popular');
      await page.getByText('Yearly', { exact: true }).click();
      await expect.poll(() => growth.innerText()).toContain('$189');
      expect(await growth.innerText()).toContain('6,000 Credits/year');
      expect(await page.getByRole('radio', { name: 'Yearly' }).isChecked()).toBe(true);

      const quantity = page.getByLabel('Number of packs');
      expect(await quantity.inputValue()).toBe('1');
      await quantity.fill('4');
      await expect.poll(() => page.getByText(/^Total:/).innerText()).toBe('Total: $12 for 200 credits');
      await quantity.fill('');
      await expect.poll(() => page.getByText(/^Total:/).innerText()).toBe('Total: $3 for 50 credits');
      expect(await page.getByRole('link', { name: 'Choose Growth' }).getAttribute('href')).toBe('/login');
      await expectNoAxeViolations(page);
    });
  });

  it("support: the form says 'Sending...', then the success text, and the message reaches support by mail", async () => {
    await withPage(async (page) => {
      await page.goto('/support');
      // The prerendered form is replaced by the live one once the app has loaded.
      await page.waitForLoadState('networkidle');
      const question = `How do credit packs work with a yearly plan? (${Date.now()})`;
      await page.getByLabel(/First Name/).fill('Ada');
      await page.getByLabel(/Last Name/).fill('Lovelace');
      await page.getByLabel(/^Email/).fill('ada@example.com');
      await page.getByLabel(/^Message/).fill(question);
      // Hold the request briefly so the pending state can be seen, then let it reach the real server.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/v1/email/send', async (route) => {
        await held;
        await route.continue();
      });
      const answered = page.waitForResponse('**/api/v1/email/send');
      await page.getByRole('button', { name: 'Send Message' }).click();
      const sending = page.getByRole('button', { name: messages.contact.sending });
      await expect.poll(() => sending.isDisabled()).toBe(true);
      await expectNoAxeViolations(page);
      release();
      expect((await answered).status()).toBe(200);
      await expect.poll(() => page.getByText(messages.contact.success).count()).toBe(1);
      expect(await page.getByLabel(/First Name/).inputValue()).toBe('');
      expect(await page.getByRole('button', { name: 'Send Message' }).isEnabled()).toBe(true);
      await expectNoAxeViolations(page);

      // Stored first, then mailed to the support address (SUPPORT_EMAIL, default support@localhost).
      const mail = await waitForMail('support@localhost', /^Contact form: Ada Lovelace$/);
      expect(mail.text).toContain(question);
      expect(mail.text).toContain('ada@example.com');
    });
  });

  it('developers: the footer link leads by keyboard to the API guide, its samples and the OpenAPI reference', async () => {
    await withPage(async (page) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto('/');
      const link = page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Developers' });
      await link.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL('**/developers');
      await expect.poll(() => h1Text(page)).toBe('Developers');
      expect(await page.title()).toBe('Developers – Altwise');
      for (const name of [
        '1. Create an API key',
        '2. Create a batch, follow it, read the results',
        '3. Get a webhook when a batch is done',
      ])
        await page.getByRole('heading', { level: 2, name }).waitFor();
      const create = page.locator('main pre code', { hasText: '/api/v1/images/generate-alt-text' });
      await create.scrollIntoViewIfNeeded();
      expect(await create.isVisible()).toBe(true);
      expect(await page.locator('main pre code', { hasText: 'webhook-signature' }).isVisible()).toBe(true);
      // Samples scroll sideways by keyboard, and their copy buttons are named after them.
      await page.locator('main pre').first().focus();
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('PRE');
      await page.getByRole('button', { name: 'Copy: Verify a webhook signature (Node)' }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectNoAxeViolations(page);

      const reference = page.getByRole('link', { name: 'browse the API reference' });
      expect(await reference.getAttribute('href')).toBe('/api/docs');
      const openapi = await fetch(`${baseURL()}/api/docs/json`);
      expect(openapi.status).toBe(200);
      expect(Object.keys((await openapi.json()).paths)).toContain('/api/v1/images/batches/{id}');
      expect(errors).toEqual([]);
    });
  });

  it('serves every public page readable without JavaScript, with its own title and description', async () => {
    const seen = new Map<string, string>();
    const context = await browser.newContext({ baseURL: baseURL(), javaScriptEnabled: false });
    const noJs = await context.newPage();
    await withPage(async (page) => {
      // A hydration mismatch shows up as a console error or an uncaught error.
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
      for (const route of publicPages) {
        const response = await fetch(`${baseURL()}${route}`, { headers: { accept: 'text/html' } });
        expect(response.status, route).toBe(200);
        expect(response.headers.get('cache-control'), route).toBe('no-cache');
        const html = await response.text();

        await page.goto(route);
        await page.waitForLoadState('networkidle');
        const heading = await h1Text(page);
        const description = await metaDescription(page);
        const title = await page.title();
        expect(html, route).toContain(`<title>${title.replace(/&/g, '&amp;')}</title>`);
        expect(html, route).toContain(`content="${description.replace(/&/g, '&amp;')}"`);
        expect(html, route).toContain('property="og:title"');
        const canonical = route === '/blog' ? '/blogs' : route;
        expect(html, route).toMatch(new RegExp(`<link rel="canonical" href="https?://[^"/]+${canonical}"`));
        expect(html, route).toContain('property="og:url"');
        const key = route === '/blog' ? '/blogs' : route;
        expect(
          [...seen.entries()].filter(([r, d]) => r !== key && d === description),
          route,
        ).toEqual([]);
        seen.set(key, description);

        await noJs.goto(route);
        expect(await noJs.locator('main h1').innerText(), route).toBe(heading);
      }
      expect(errors).toEqual([]);
    });
    await context.close();
  });

  it('serves /login and /register prerendered, each with its own title and text without JavaScript', async () => {
    const context = await browser.newContext({ baseURL: baseURL(), javaScriptEnabled: false });
    const noJs = await context.newPage();
    await withPage(async (page) => {
      // A hydration mismatch shows up as an uncaught error or a console error. The test context aborts
      // Google's script (browser.ts), which the console reports as a failed resource: those are left out.
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
          errors.push(`${page.url()}: ${message.text()}`);
      });
      page.on('requestfailed', (request) => {
        if (!request.url().startsWith('https://accounts.google.com/'))
          errors.push(`failed: ${request.url()}`);
      });
      page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
      for (const [route, title, heading] of [
        ['/login', 'Log in – Altwise', 'Login to Your Account'],
        ['/register', 'Create an Account – Altwise', 'Create an Account'],
      ] as const) {
        const response = await fetch(`${baseURL()}${route}`, { headers: { accept: 'text/html' } });
        expect(response.status, route).toBe(200);
        const html = await response.text();
        expect(html, route).toContain(`<title>${title}</title>`);
        expect(html, route).toContain(`data-prerendered="${route}"`);
        // Submitted before the app takes over, the form must not put the password into the URL.
        expect(html, route).toMatch(/<form method="post" inert=""/);

        await noJs.goto(route);
        expect(await noJs.title(), route).toBe(title);
        expect(await noJs.locator('main h1').innerText(), route).toBe(heading);
        expect(await noJs.locator('main form').innerText(), route).toContain('Password');

        await page.goto(route);
        await page.waitForLoadState('networkidle');
        expect(await page.title(), route).toBe(title);
        expect(await h1Text(page), route).toBe(heading);
        // The app has taken the form over: it is no longer inert.
        await expect.poll(() => page.locator('main form[inert]').count(), { message: route }).toBe(0);
        await expectNoAxeViolations(page);
      }
      expect(errors).toEqual([]);
    });
    await context.close();
  });

  it('gives a signed-in visitor of the landing page the app and its signed-in bar', async () => {
    await withPage(async (page) => {
      await page.goto('/blogs');
      await storeSession(page, await createSession());
      await page.goto('/');
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Log in' }).count()).toBe(0);
      expect(await h1Text(page)).toBe('Accurate alt text for every image, written by AI');
      // Inside the app, links navigate without a page load.
      await nav.getByRole('link', { name: 'Images' }).click();
      await page.waitForURL('**/images');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
      expect(
        await page.evaluate(
          () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).name,
        ),
      ).toMatch(/\/$/);
    });
  });

  it('serves robots.txt and a sitemap of the public pages', async () => {
    const robots = await fetch(`${baseURL()}/robots.txt`);
    expect(robots.status).toBe(200);
    const robotsText = await robots.text();
    expect(robotsText).toContain('User-agent: *');
    expect(robotsText).toMatch(/^Sitemap: https?:\/\/.+\/sitemap\.xml$/m);

    const sitemap = await fetch(`${baseURL()}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toContain('xml');
    const xml = await sitemap.text();
    const paths = [...xml.matchAll(/<loc>https?:\/\/[^/]+([^<]*)<\/loc>/g)].map((m) => m[1]);
    // /blog is the same index as /blogs and names /blogs as its canonical URL.
    expect(paths).toEqual(publicPages.filter((route) => route !== '/blog'));
  });

  it('keeps the public pages free of axe-core violations on a phone', async () => {
    await withPage(
      async (page) => {
        // Every signed-out route of the app as well (skeleton.e2e.ts scans them on a desktop).
        const accountPages = ['/login', '/register', '/forgot-password', '/reset-password', '/success'];
        for (const route of [...publicPages, ...accountPages]) {
          await page.goto(route);
          await page.waitForLoadState('networkidle');
          await expectNoAxeViolations(page);
        }

        // The landing page runs without the app (ADR 027): its menu still behaves as a modal dialog.
        await page.goto('/');
        const menuButton = page.getByRole('button', { name: 'Menu' });
        await menuButton.click();
        const menu = page.getByRole('dialog', { name: 'Menu' });
        await menu.waitFor();
        expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
        await expectNoAxeViolations(page);
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'hidden' });
        expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
        expect(await menuButton.evaluate((button) => button === document.activeElement)).toBe(true);
        await menuButton.click();
        await menu.getByRole('link', { name: 'Blogs' }).click();
        await page.waitForURL('**/blogs');
        expect(await h1Text(page)).toBe('Blogs');
      },
      { mobile: true },
    );
  });
});
