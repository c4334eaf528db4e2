import { messages } from '@altwise/contracts/messages';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { createSession, storeSession } from './session.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('blog post generator and content history, as a person uses them', () => {
  it('refuses an empty form, writes a post, and finds it in /history newest first', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, await createSession());

    await page.goto('/history');
    await page.getByRole('heading', { level: 1, name: 'Content History' }).waitFor();
    await page.getByText('No content yet').waitFor();
    await expectNoAxeViolations(page);

    await page.getByRole('link', { name: 'Generate a blog post' }).click();
    await page.waitForURL('**/generate-content');
    await page.getByRole('heading', { level: 1, name: 'Blog Post Generator' }).waitFor();
    await page.getByRole('button', { name: 'Generate' }).click();
    for (const text of [
      messages.generator.promptRequired,
      messages.generator.toneRequired,
      messages.generator.categoryRequired,
    ]) {
      await expect.poll(() => page.getByText(text).count()).toBe(1);
    }
    await expectNoAxeViolations(page);

    const write = async (topic: string, tone: string, category: string) => {
      await page.getByLabel(/^Prompt/).fill(topic);
      await page.getByLabel(/^Tone/).selectOption(tone);
      await page.getByLabel(/^Category/).selectOption(category);
      const answered = page.waitForResponse('**/api/v1/openai/generate-content');
      await page.getByRole('button', { name: 'Generate' }).click();
      expect((await answered).status()).toBe(200);
      await expect.poll(() => page.getByText(messages.generator.success).count()).toBe(1);
    };

    await write('alt text for product photos', 'formal', 'business');
    const first = page.getByTestId('generated-text');
    // The offline engine writes an honest structured draft and says so.
    await expect.poll(() => first.innerText()).toContain('Alt Text for Product Photos');
    expect(await first.innerText()).toContain('Draft written offline from your prompt');
    await expectNoAxeViolations(page);

    await write('decorative images and screen readers', 'humorous', 'technology');
    await expect.poll(() => page.getByTestId('generated-text').innerText()).toContain('Decorative Images');

    await page.goto('/history');
    const entries = page.getByRole('list', { name: 'Generated content' }).getByRole('heading', { level: 2 });
    await expect.poll(() => entries.count()).toBe(2);
    expect(await entries.allInnerTexts()).toEqual([
      'Decorative Images and Screen Readers',
      'Alt Text for Product Photos',
    ]);
    // Dates as 'MMM dd, yyyy' (the product spec §9).
    const dates = await page.locator('time').allInnerTexts();
    expect(dates).toHaveLength(2);
    for (const date of dates) expect(date).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4}$/);
    await expectNoAxeViolations(page);
    await context.close();
  });
});
