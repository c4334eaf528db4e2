import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { users } from '../src/db/tables/users.ts';
import { webhookEndpoints } from '../src/db/tables/webhook-endpoints.ts';
import { verifyWebhook, WebhookVerificationError } from '../src/modules/billing/standard-webhooks.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');

type Received = { path: string; headers: Record<string, string>; body: string; at: number };

/** A webhook receiver on 127.0.0.1 (reachable only with FETCH_ALLOW_PRIVATE=true), and the images a batch describes. */
let server: Server;
let base: string;
const received: Received[] = [];
const hitsOf = (p: string) => received.filter((r) => r.path === p);

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = req.url ?? '';
    if (req.method === 'GET' && url === '/audit-page') {
      const html = `<html><head><title>Shop</title></head><body><h1>Shop</h1>
        <img src="/coffee.jpg" alt="IMG_2041.jpg"><img src="/camera.jpg" alt="A black camera on a desk"></body></html>`;
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    }
    if (req.method === 'GET') {
      try {
        const bytes = await readFile(path.join(fixtures, path.basename(url)));
        return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes);
      } catch {
        return void res.writeHead(404).end();
      }
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({
      path: url,
      headers: req.headers as Record<string, string>,
      body: Buffer.concat(chunks).toString(),
      at: Date.now(),
    });
    const seen = hitsOf(url).length;
    if (url === '/flaky' && seen === 1) return void res.writeHead(500).end('down');
    if (url === '/slow' && seen === 1) {
      // Longer than the test's 1 s limit: the attempt counts as a timeout.
      setTimeout(() => res.writeHead(200).end('late'), 2_500);
      return;
    }
    if (url === '/audits') {
      // Answered after half a second (within the 1 s limit): the delivery stays pending meanwhile,
      // however fast the queue picks it up.
      setTimeout(() => res.writeHead(200).end('ok'), 500);
      return;
    }
    if (url === '/redirect') return void res.writeHead(302, { location: `${base}/redirect-target` }).end();
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Short limits so retries happen within the test: 1 s per answer, 100 ms then 200 ms apart, for 2.5 s. */
const fastDelivery = { timeoutMs: 1_000, retryBaseMs: 100, retryMaxDelayMs: 200, retryWindowMs: 2_500 };

const createWebhook = (t: TestApp, user: TestUser, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/v1/webhooks', payload: payload as object, headers: user.auth });

const deliveriesOf = async (t: TestApp, user: TestUser, webhookId: string) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/webhooks/${webhookId}/deliveries`,
    headers: user.auth,
  });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    id: string;
    status: string;
    attempts: number;
    lastStatusCode: number | null;
    lastError: string | null;
    event: string;
    deliveredAt: string | null;
  }[];
};

/** The Standard Webhooks signature, computed here with node:crypto alone (not the product's code). */
function expectedSignature(secret: string, headers: Record<string, string>, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

describe('outgoing webhooks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' },
      engine: createTestEngine(),
      config: { webhooks: fastDelivery },
    });
  });
  afterAll(async () => t.cleanup());

  it('creates a webhook with its secret shown once, lists it without the secret, and deletes it', async () => {
    const user = await createUser(t);
    const created = await createWebhook(t, user, { url: `${base}/ok`, events: ['batch.completed'] });
    expect(created.statusCode).toBe(201);
    const webhook = created.json();
    expect(webhook).toEqual({
      id: expect.any(String),
      url: `${base}/ok`,
      events: ['batch.completed'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.any(String),
    });
    expect(created.headers['cache-control']).toBe('no-store');

    const list = await t.app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: user.auth });
    expect(list.json()).toEqual([
      { id: webhook.id, url: `${base}/ok`, events: ['batch.completed'], createdAt: webhook.createdAt },
    ]);
    expect(list.body).not.toContain(webhook.secret);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/webhooks/${webhook.id}`,
      headers: user.auth,
    });
    expect(removed.statusCode).toBe(204);
    const again = await t.app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: user.auth });
    expect(again.json()).toEqual([]);
    const twice = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/webhooks/${webhook.id}`,
      headers: user.auth,
    });
    expect(twice.statusCode).toBe(404);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const user = await createUser(t);
    for (const payload of [
      { url: 'not a url', events: ['batch.completed'] },
      { url: 'ftp://example.com/hook', events: ['batch.completed'] },
      { url: 'https://user:pw@example.com/hook', events: ['batch.completed'] },
      { url: `${base}/ok`, events: [] },
      { url: `${base}/ok`, events: ['batch.exploded'] },
      { url: `${base}/ok`, events: ['batch.completed', 'batch.completed'] },
      { url: `${base}/ok` },
      { events: ['batch.completed'] },
      { url: `${base}/ok`, events: ['batch.completed'], extra: true },
    ]) {
      const response = await createWebhook(t, user, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: user.auth });
    expect(list.json()).toEqual([]);
  });

  it('allows at most 10 webhooks per account', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 10; i++)
      expect(
        (await createWebhook(t, user, { url: `${base}/ok?${i}`, events: ['batch.failed'] })).statusCode,
      ).toBe(201);
    const eleventh = await createWebhook(t, user, { url: `${base}/ok`, events: ['batch.failed'] });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json().message).toContain('at most 10 webhooks');
  });

  it('answers 404 for another user’s webhook and its deliveries', async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const { id } = (await createWebhook(t, owner, { url: `${base}/ok`, events: ['batch.completed'] })).json();
    for (const [method, url] of [
      ['DELETE', `/api/v1/webhooks/${id}`],
      ['GET', `/api/v1/webhooks/${id}/deliveries`],
      ['POST', `/api/v1/webhooks/${id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: stranger.auth });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: stranger.auth });
    expect(list.json()).toEqual([]);
    expect((await deliveriesOf(t, owner, id)).length).toBe(0);
  });

  it('delivers batch.completed, signed, with the images’ alt text; retries a 500 and a timeout; never follows a redirect; redelivers', async () => {
    const user = await createUser(t, 5);
    const hooks: Record<string, { id: string; secret: string }> = {};
    for (const name of ['ok', 'flaky', 'slow', 'redirect'])
      hooks[name] = (
        await createWebhook(t, user, { url: `${base}/${name}`, events: ['batch.completed'] })
      ).json();
    const onlyFailed = (
      await createWebhook(t, user, { url: `${base}/failed-only`, events: ['batch.failed'] })
    ).json();

    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/generate-alt-text',
      payload: {
        selectedImages: [
          { src: `${base}/rocket.jpg`, alt: 'A rocket' },
          { src: `${base}/camera.jpg`, alt: '' },
        ],
      },
      headers: user.auth,
    });
    expect(started.statusCode).toBe(202);
    const { batchId } = started.json();
    await waitForBatch(t, user.auth, batchId);

    // The healthy receiver: one signed POST whose signature an independent HMAC reproduces.
    const [first] = await waitFor(async () => hitsOf('/ok').length > 0 && hitsOf('/ok'));
    const secret = hooks.ok?.secret ?? '';
    expect(first?.headers['webhook-signature']).toBe(
      expectedSignature(secret, first?.headers ?? {}, first?.body ?? ''),
    );
    expect(first?.headers['content-type']).toBe('application/json');
    expect(Math.abs(Number(first?.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    const event = JSON.parse(first?.body ?? '{}');
    const library = await t.app.deps.database.db
      .select()
      .from(libraryImages)
      .where(eq(libraryImages.userId, user.id));
    expect(library).toHaveLength(2);
    expect(event).toMatchObject({
      type: 'batch.completed',
      data: { batchId, status: 'completed', total: 2, completed: 2, failed: 0, imagesTruncated: false },
    });
    expect(event.data.images).toEqual([
      expect.objectContaining({
        src: `${base}/rocket.jpg`,
        status: 'done',
        altText: library.find((i) => i.src === `${base}/rocket.jpg`)?.altText,
        origin: 'ai',
      }),
      expect.objectContaining({
        src: `${base}/camera.jpg`,
        status: 'done',
        altText: library.find((i) => i.src === `${base}/camera.jpg`)?.altText,
        origin: 'ai',
      }),
    ]);
    expect(event.data.images[0].altText).toContain('Test description');
    const okDeliveries = await waitFor(async () => {
      const list = await deliveriesOf(t, user, hooks.ok?.id ?? '');
      return list[0]?.status === 'delivered' && list;
    });
    expect(okDeliveries).toEqual([
      expect.objectContaining({
        event: 'batch.completed',
        status: 'delivered',
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
        deliveredAt: expect.any(String),
      }),
    ]);

    // A 500, then success on the retry: same webhook-id both times.
    const flaky = await waitFor(async () => {
      const [delivery] = await deliveriesOf(t, user, hooks.flaky?.id ?? '');
      return delivery?.status === 'delivered' && delivery;
    });
    expect(flaky).toMatchObject({ attempts: 2, lastStatusCode: 200 });
    const flakyHits = hitsOf('/flaky');
    expect(flakyHits).toHaveLength(2);
    expect(flakyHits[1]?.headers['webhook-id']).toBe(flakyHits[0]?.headers['webhook-id']);
    expect(flakyHits[1]?.headers['webhook-signature']).toBe(
      expectedSignature(hooks.flaky?.secret ?? '', flakyHits[1]?.headers ?? {}, flakyHits[1]?.body ?? ''),
    );

    // No answer within the limit counts as a failed attempt, and is retried.
    const slow = await waitFor(async () => {
      const [delivery] = await deliveriesOf(t, user, hooks.slow?.id ?? '');
      return delivery?.status === 'delivered' && delivery;
    });
    expect(slow).toMatchObject({ attempts: 2, lastStatusCode: 200 });
    expect(hitsOf('/slow')).toHaveLength(2);

    // A redirect is an answer, not a success, and is never followed; retries end as `failed`.
    const redirected = await waitFor(async () => {
      const [delivery] = await deliveriesOf(t, user, hooks.redirect?.id ?? '');
      return delivery?.status === 'failed' && delivery;
    }, 10_000);
    expect(redirected.attempts).toBeGreaterThanOrEqual(2);
    expect(redirected).toMatchObject({
      lastStatusCode: 302,
      lastError: expect.stringContaining('redirects are not followed'),
    });
    expect(hitsOf('/redirect')).toHaveLength(redirected.attempts);
    expect(hitsOf('/redirect-target')).toHaveLength(0);

    // Only subscribed events are sent.
    expect(await deliveriesOf(t, user, onlyFailed.id)).toEqual([]);
    expect(hitsOf('/failed-only')).toHaveLength(0);

    // Redelivery: the same event again, same webhook-id, newly signed.
    const okDelivery = okDeliveries[0]?.id ?? '';
    const redeliver = await t.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${hooks.ok?.id}/deliveries/${okDelivery}/redeliver`,
      headers: user.auth,
    });
    expect(redeliver.statusCode).toBe(202);
    expect(redeliver.json()).toMatchObject({ id: okDelivery, status: 'pending' });
    const second = await waitFor(async () => hitsOf('/ok').length === 2 && hitsOf('/ok')[1]);
    expect(second.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second.body).toBe(first?.body);
    expect(second.headers['webhook-signature']).toBe(expectedSignature(secret, second.headers, second.body));
    const after = await waitFor(async () => {
      const [delivery] = await deliveriesOf(t, user, hooks.ok?.id ?? '');
      return delivery?.status === 'delivered' && delivery;
    });
    expect(after.attempts).toBe(2);
    const unknown = await t.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${hooks.ok?.id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`,
      headers: user.auth,
    });
    expect(unknown.statusCode).toBe(404);

    // The batch finishing once more (a second run of its job) sends nothing new.
    await t.app.deps.generation.runBatch(batchId);
    expect(hitsOf('/ok')).toHaveLength(2);
  }, 60_000);

  it('delivers audit.completed, signed, with the audit’s verdict counts', async () => {
    const user = await createUser(t, 0);
    const hook = (
      await createWebhook(t, user, { url: `${base}/audit-done`, events: ['audit.completed'] })
    ).json();
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/audits',
      payload: { url: `${base}/audit-page`, scope: 'page' },
      headers: user.auth,
    });
    expect(started.statusCode, started.body).toBe(202);
    const auditId = started.json().id as string;
    const [hit] = await waitFor(async () => hitsOf('/audit-done').length > 0 && hitsOf('/audit-done'));
    const event = JSON.parse(hit?.body ?? '{}');
    expect(event).toMatchObject({
      type: 'audit.completed',
      data: {
        auditId,
        status: 'completed',
        pagesScanned: 1,
        imagesFound: 2,
        counts: { pass: 1, fail: 1 },
        problems: { 'file-name': 1 },
      },
    });
    expect(hit?.headers['webhook-signature']).toBe(
      expectedSignature(hook.secret, hit?.headers ?? {}, hit?.body ?? ''),
    );
    // The receiver has the event a moment before the sender records its answer.
    await waitFor(async () => (await deliveriesOf(t, user, hook.id)).every((d) => d.status !== 'pending'));
    expect((await deliveriesOf(t, user, hook.id)).map((d) => [d.event, d.status])).toEqual([
      ['audit.completed', 'delivered'],
    ]);
  });

  it('delivers batch.failed when no image lands', async () => {
    const user = await createUser(t, 2);
    const hook = (
      await createWebhook(t, user, { url: `${base}/failed-batch`, events: ['batch.failed'] })
    ).json();
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/generate-alt-text',
      payload: { selectedImages: [{ src: `${base}/missing.jpg`, alt: '' }] },
      headers: user.auth,
    });
    await waitForBatch(t, user.auth, started.json().batchId);
    const [hit] = await waitFor(async () => hitsOf('/failed-batch').length > 0 && hitsOf('/failed-batch'));
    const event = JSON.parse(hit?.body ?? '{}');
    expect(event).toMatchObject({
      type: 'batch.failed',
      data: { status: 'failed', completed: 0, failed: 1 },
    });
    expect(event.data.images[0]).toMatchObject({
      status: 'failed',
      altText: null,
      origin: null,
      error: expect.any(String),
    });
    expect(hit?.headers['webhook-signature']).toBe(
      expectedSignature(hook.secret, hit?.headers ?? {}, hit?.body ?? ''),
    );
  });

  it('answers 409 to a redelivery while the delivery is still pending, and emits an event once', async () => {
    const user = await createUser(t);
    const hook = (
      await createWebhook(t, user, { url: `${base}/audits`, events: ['audit.completed'] })
    ).json();
    const emit = () =>
      t.app.deps.database.db.transaction((tx) =>
        t.app.deps.webhooks.emit(tx, user.id, 'audit.completed', 'audit-7', async () => ({
          auditId: 'audit-7',
        })),
      );
    expect(await emit()).toBe(1);
    expect(await emit()).toBe(0);
    const [pending] = await deliveriesOf(t, user, hook.id);
    expect(pending).toMatchObject({ event: 'audit.completed', status: 'pending', attempts: 0 });
    const early = await t.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${hook.id}/deliveries/${pending?.id}/redeliver`,
      headers: user.auth,
    });
    expect(early.statusCode).toBe(409);
    const [hit] = await waitFor(async () => hitsOf('/audits').length > 0 && hitsOf('/audits'));
    expect(JSON.parse(hit?.body ?? '{}')).toMatchObject({
      type: 'audit.completed',
      data: { auditId: 'audit-7' },
    });
    expect(hitsOf('/audits')).toHaveLength(1);
  });

  it('rotates the secret: both signatures verify during the overlap, only the new one after it expires, history kept', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const hook = (
      await createWebhook(t, user, { url: `${base}/rotating`, events: ['audit.completed'] })
    ).json();
    const emitAndReceive = async (subject: string) => {
      await t.app.deps.database.db.transaction((tx) =>
        t.app.deps.webhooks.emit(tx, user.id, 'audit.completed', subject, async () => ({ auditId: subject })),
      );
      return waitFor(async () =>
        hitsOf('/rotating').find((hit) => JSON.parse(hit.body).data.auditId === subject),
      );
    };
    const verifies = (secret: string, hit: Received) => {
      try {
        verifyWebhook(secret, hit.body, hit.headers);
        return true;
      } catch (error) {
        if (error instanceof WebhookVerificationError) return false;
        throw error;
      }
    };
    const before = await emitAndReceive('audit-r1');
    expect(verifies(hook.secret, before)).toBe(true);

    const rotate = (who: TestUser) =>
      t.app.inject({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/rotate-secret`, headers: who.auth });
    expect((await rotate(other)).statusCode).toBe(404);
    const response = await rotate(user);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const rotated = response.json();
    expect(rotated).toMatchObject({
      id: hook.id,
      url: hook.url,
      events: ['audit.completed'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(rotated.secret).not.toBe(hook.secret);
    const overlapHours = (Date.parse(rotated.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: user.auth });
    expect(listed.body).not.toContain(rotated.secret);
    expect(listed.body).not.toContain(hook.secret);

    // During the overlap: two signatures, one per secret, each checked with the product's verifier
    // and recomputed independently here.
    const during = await emitAndReceive('audit-r2');
    expect(during.headers['webhook-signature']?.split(' ')).toEqual([
      expectedSignature(rotated.secret, during.headers, during.body),
      expectedSignature(hook.secret, during.headers, during.body),
    ]);
    expect(verifies(rotated.secret, during)).toBe(true);
    expect(verifies(hook.secret, during)).toBe(true);

    // The overlap ends (its end moved to the past): only the new secret signs.
    await t.app.deps.database.db
      .update(webhookEndpoints)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(webhookEndpoints.id, hook.id));
    const after = await emitAndReceive('audit-r3');
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verifies(rotated.secret, after)).toBe(true);
    expect(verifies(hook.secret, after)).toBe(false);

    // The receiver may see the last request before the delivery row records its answer.
    const history = await waitFor(async () => {
      const rows = await deliveriesOf(t, user, hook.id);
      return rows.every((delivery) => delivery.status !== 'pending') ? rows : null;
    });
    expect(history.map((delivery) => delivery.status)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('needs a signed-in session: an API key gets 403 SESSION_REQUIRED', async () => {
    const user = await createUser(t);
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      payload: { name: 'ci' },
      headers: user.auth,
    });
    expect(key.statusCode).toBe(201);
    const { id } = (await createWebhook(t, user, { url: `${base}/ok`, events: ['batch.completed'] })).json();
    const withKey = { authorization: `Bearer ${key.json().key}` };
    for (const call of [
      { method: 'POST', url: '/api/v1/webhooks', payload: { url: `${base}/ok`, events: ['batch.failed'] } },
      { method: 'GET', url: '/api/v1/webhooks' },
      { method: 'DELETE', url: `/api/v1/webhooks/${id}` },
      { method: 'GET', url: `/api/v1/webhooks/${id}/deliveries` },
      { method: 'POST', url: `/api/v1/webhooks/${id}/rotate-secret` },
    ] as const) {
      const response = await t.app.inject({ ...call, headers: withKey });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(response.json()).toMatchObject({ code: 'SESSION_REQUIRED' });
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: user.auth });
    expect(list.json().map((w: { id: string }) => w.id)).toEqual([id]);
  });

  it('goes with the account: the user’s webhooks and their deliveries cascade', async () => {
    const user = await createUser(t);
    await createWebhook(t, user, { url: `${base}/ok`, events: ['batch.completed'] });
    const { db } = t.app.deps.database;
    await db.delete(users).where(eq(users.id, user.id));
    expect(await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, user.id))).toEqual([]);
  });
});

describe('with FETCH_ALLOW_PRIVATE off (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { webhooks: fastDelivery } });
  });
  afterAll(async () => t.cleanup());

  it('refuses private and local targets with 400', async () => {
    const user = await createUser(t);
    for (const url of [
      `${base}/ok`,
      'http://localhost/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const response = await createWebhook(t, user, { url, events: ['batch.completed'] });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message).toContain('private or local address');
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: user.auth });
    expect(list.json()).toEqual([]);
  });

  it('checks the target again at delivery time', async () => {
    const user = await createUser(t);
    // An endpoint stored while private addresses were allowed (or whose name now resolves privately).
    const [endpoint] = await t.app.deps.database.db
      .insert(webhookEndpoints)
      .values({ userId: user.id, url: `${base}/ok`, events: ['audit.completed'], secret: 'whsec_dGVzdA==' })
      .returning();
    const before = hitsOf('/ok').length;
    const queued = await t.app.deps.database.db.transaction((tx) =>
      t.app.deps.webhooks.emit(tx, user.id, 'audit.completed', 'audit-1', async () => ({
        auditId: 'audit-1',
      })),
    );
    expect(queued).toBe(1);
    const failed = await waitFor(async () => {
      const [delivery] = await deliveriesOf(t, user, endpoint?.id ?? '');
      return delivery?.status === 'failed' && delivery;
    }, 10_000);
    expect(failed).toMatchObject({
      event: 'audit.completed',
      lastStatusCode: null,
      lastError: expect.stringContaining('private or local address'),
    });
    expect(hitsOf('/ok').length).toBe(before);
  });
});
