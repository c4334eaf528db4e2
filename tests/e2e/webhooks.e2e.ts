import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseURL, expectNoAxeViolations, launchBrowser, newContext } from './browser.ts';
import { createSession, storeSession } from './session.ts';

type Received = { headers: Record<string, string>; body: string };

/** The receiver of the webhook, on 127.0.0.1 (the e2e server runs with FETCH_ALLOW_PRIVATE=true). */
let receiver: Server;
let receiverURL: string;
const received: Received[] = [];
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverURL = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/altwise-events`;
});
afterAll(async () => {
  await browser?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

describe('webhooks in /account', () => {
  it('adds a webhook, receives a signed batch.completed, sees it delivered, and deletes the webhook', async () => {
    const session = await createSession();
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await storeSession(page, session);
    await page.goto('/account');

    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Webhooks' }) });
    await expect.poll(() => section.getByText('You have no webhooks yet.').isVisible()).toBe(true);
    await section.getByLabel('Endpoint URL').fill(receiverURL);
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const panel = section.getByRole('region', { name: 'Your webhook signing secret' });
    await panel.waitFor();
    const secret = await panel.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await expectNoAxeViolations(page);
    await panel.getByRole('button', { name: 'I have saved it' }).click();

    // A script starts a batch of one image; when it completes the receiver gets the event.
    const image = new URL('/img/photo-1.png', inject('imagePageURL')).href;
    const started = await fetch(`${baseURL()}/api/v1/images/generate-alt-text`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ selectedImages: [image] }),
    });
    expect(started.status).toBe(202);
    const { batchId } = (await started.json()) as { batchId: string };
    await expect.poll(() => received.length, { timeout: 60_000, interval: 250 }).toBeGreaterThan(0);
    const [event] = received;
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const signed = `${event?.headers['webhook-id']}.${event?.headers['webhook-timestamp']}.${event?.body}`;
    expect(event?.headers['webhook-signature']).toBe(
      `v1,${createHmac('sha256', key).update(signed).digest('base64')}`,
    );
    const payload = JSON.parse(event?.body ?? '{}');
    expect(payload).toMatchObject({ type: 'batch.completed', data: { batchId, completed: 1 } });
    expect(payload.data.images[0]).toMatchObject({ src: image });
    // Alt text, or null with needsWords where nothing grounds one (ADR 068): never filler.
    const [sent] = payload.data.images;
    expect(typeof sent.altText === 'string' || sent.needsWords === true).toBe(true);

    // The account page shows the delivery as delivered.
    await page.reload();
    const deliveries = section.getByRole('list', { name: `Recent deliveries to ${receiverURL}` });
    await expect
      .poll(() => deliveries.textContent(), { timeout: 10_000 })
      .toContain('batch.completed · Delivered · 1 attempt · HTTP 204');
    await expectNoAxeViolations(page);

    await section.getByRole('button', { name: `Delete webhook ${receiverURL}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await dialog.waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('Webhook deleted.').first().waitFor();
    await expect.poll(() => section.getByText('You have no webhooks yet.').isVisible()).toBe(true);
    await context.close();
  });
});
