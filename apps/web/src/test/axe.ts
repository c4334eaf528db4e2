import axe from 'axe-core';
import { expect } from 'vitest';

/**
 * Fails the test with the rule ids and targets of every axe-core violation inside `element`, as the
 * Playwright journeys do for whole pages (tests/e2e/browser.ts). jsdom lays nothing out, so the
 * colour-contrast rule, which needs rendered colours, is left to the journeys.
 */
export async function expectNoAxeViolations(element: Element): Promise<void> {
  const { violations } = await axe.run(element, { rules: { 'color-contrast': { enabled: false } } });
  expect(
    violations.map((violation) => ({
      id: violation.id,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    })),
  ).toEqual([]);
}
