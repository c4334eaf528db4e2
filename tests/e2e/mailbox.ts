import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { DeliveredMail } from './test-services.ts';

function delivered(): DeliveredMail[] {
  const dir = inject('mailDir');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as DeliveredMail);
}

/**
 * Waits for the `nth` (1-based) message to `to` whose subject matches, as delivered to the test SMTP
 * server by the product (mail goes out through its queue, so it may take a moment).
 */
export async function waitForMail(to: string, subject: RegExp, nth = 1, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const matching = delivered().filter((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject));
    const mail = matching[nth - 1];
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `No mail #${nth} to ${to} matching ${subject} within ${timeoutMs} ms. Delivered: ${JSON.stringify(
      delivered().map((m) => ({ to: m.to, subject: m.subject })),
    )}`,
  );
}

/** The first link in the mail's text that starts with `prefix`. */
export function linkIn(mail: DeliveredMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}\\S+`).exec(mail.text);
  if (!match) throw new Error(`No link starting with ${prefix} in:\n${mail.text}`);
  return match[0];
}
