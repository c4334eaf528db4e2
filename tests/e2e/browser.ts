import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

/** Debian's Chromium with the flags this closed-network machine needs. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export function baseURL(): string {
  return inject('baseURL');
}

export async function newContext(
  browser: Browser,
  options: { mobile?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseURL(),
    viewport: options.mobile ? { width: 390, height: 844 } : { width: 1280, height: 900 },
  });
  // No journey depends on the real Google: its script fails fast unless a test serves a stand-in.
  await context.route('https://accounts.google.com/**', (route) => route.abort());
  return context;
}

/** Fails the test with the rule ids and targets of every axe-core violation on the page. */
export async function expectNoAxeViolations(page: Page) {
  // Violations only: axe then skips collecting every passing and inapplicable node, which took
  // much of its time on a page, and reports each violation in full as before.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  // The default run opens a new blank page for every scan to merge the frames' results; a page
  // without frames has nothing to merge, and axe.run in the page itself checks the same rules in
  // less than half the time (docs/benchmarks.md, "CI time"). A page with frames keeps the default,
  // which also scans cross-origin frames.
  if (page.frames().length === 1) builder.setLegacyMode();
  const results = await builder.analyze();
  const violations = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(violations, `axe-core violations on ${page.url()}`).toEqual([]);
}
