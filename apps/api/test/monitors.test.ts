import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audits } from '../src/db/tables/audits.ts';
import { mailMessages } from '../src/db/tables/mail-messages.ts';
import { monitorRuns, monitors } from '../src/db/tables/monitors.ts';
import { users } from '../src/db/tables/users.ts';
import { hashPassword } from '../src/modules/accounts/passwords.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

const DAY_MS = 24 * 3600 * 1000;
const PASSWORD = 'correct horse battery staple';

type MonitorRun = {
  id: string;
  auditId: string | null;
  status: string;
  reason: string | null;
  score: number | null;
  difference: Record<string, unknown> | null;
};
type Monitor = {
  lastDifference: Record<string, unknown> | null;
  id: string;
  url: string;
  render: string;
  every: string;
  nextRunAt: string;
  history: { at: string; score: number | null }[];
  lastRun: MonitorRun | null;
};
type MonitorDetail = Monitor & { runs: MonitorRun[] };

/** The watched shop: its page changes between runs, as a site does. */
let shopVersion = 1;
const shopPages: Record<number, string> = {
  1: `<img src="/img/lighthouse.jpg" alt="IMG_2041.jpg">
      <img src="/img/boat.jpg" alt="A red fishing boat moored at the pier at dawn">`,
  // The file name is fixed, and a new image comes without alt text.
  2: `<img src="/img/lighthouse.jpg" alt="A white lighthouse on the cliff at dusk">
      <img src="/img/boat.jpg" alt="A red fishing boat moored at the pier at dawn">
      <img src="/img/crab.jpg">`,
};
/** A page that answers only once released: its audit stays running meanwhile. */
let releaseSlow = () => {};
const slowAnswered = new Promise<void>((resolve) => {
  releaseSlow = resolve;
});

/** A page held until the test lets it go: `/held` answers once `held` resolves. */
let held: Promise<void> = Promise.resolve();

type Received = { path: string; body: string };
const received: Received[] = [];
const page = (res: ServerResponse, body: string) =>
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<!doctype html><html><head><title>Harbour shop</title></head><body><h1>Shop</h1>${body}</body></html>`,
    );

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? '';
  if (req.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ path: url, body: Buffer.concat(chunks).toString() });
    return void res.writeHead(200).end('ok');
  }
  if (url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('');
  if (url === '/shop') return page(res, shopPages[shopVersion] ?? '');
  if (url === '/slow') {
    await slowAnswered;
    return page(res, '<img src="/img/slow.jpg" alt="A slow boat">');
  }
  if (url === '/held') {
    await held;
    return page(res, '<img src="/img/held.jpg" alt="A boat held at the quay">');
  }
  if (url.startsWith('/site-')) return page(res, '<img src="/img/any.jpg" alt="A harbour at noon">');
  res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
}

let server: Server;
let base = '';
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true' } });
  owner = await createUser(t);
}, 60_000);

afterAll(async () => {
  releaseSlow();
  await t?.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const createMonitor = (body: unknown, who: TestUser = owner, app: TestApp = t) =>
  app.app.inject({ method: 'POST', url: '/api/v1/monitors', payload: body as object, headers: who.auth });
const getMonitor = async (id: string, who: TestUser = owner) =>
  (
    await t.app.inject({ method: 'GET', url: `/api/v1/monitors/${id}`, headers: who.auth })
  ).json() as MonitorDetail;
const listMonitors = async (who: TestUser = owner, app: TestApp = t) =>
  (await app.app.inject({ method: 'GET', url: '/api/v1/monitors', headers: who.auth })).json() as Monitor[];
/** The schedule's tick, `ms` from now: what the 5-minute job calls with the real clock. */
const advanceSchedule = (ms: number) => t.app.deps.monitors.runDueMonitors(new Date(Date.now() + ms));

async function waitForNewestRun(id: string, runs: number, who: TestUser = owner): Promise<MonitorDetail> {
  return waitFor(async () => {
    const monitor = await getMonitor(id, who);
    const newest = monitor.runs[0];
    return monitor.runs.length === runs && (newest?.status === 'completed' || newest?.status === 'failed')
      ? monitor
      : null;
  }, 20_000);
}
const mailsTo = (email: string, kind: string) =>
  t.app.deps.database.db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.to, email), eq(mailMessages.kind, kind)));

describe('a monitored site over two runs', () => {
  it('audits at once, re-audits when the schedule comes round, and shows what changed by API, email and webhook', async () => {
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: owner.auth,
      payload: { url: `${base}/hook`, events: ['audit.completed'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);

    const created = await createMonitor({ url: `${base}/shop`, scope: 'page', maxPages: 5, every: 'day' });
    expect(created.statusCode, created.body).toBe(201);
    const monitor = created.json() as Monitor;
    expect(monitor).toMatchObject({ url: `${base}/shop`, every: 'day', history: [] });
    expect(Date.parse(monitor.nextRunAt) - Date.now()).toBeGreaterThan(DAY_MS - 60_000);
    const firstAuditId = monitor.lastRun?.auditId;
    expect(firstAuditId).toEqual(expect.any(String));

    const first = await waitForNewestRun(monitor.id, 1);
    expect(first.runs[0]).toMatchObject({
      auditId: firstAuditId,
      status: 'completed',
      score: 0.5,
      difference: null,
    });
    expect(first.lastDifference).toBeNull();
    // The first run's event says it is a monitor's, with nothing to compare yet.
    const [firstEvent] = await waitFor(
      async () => received.filter((r) => r.path === '/hook').length === 1 && received,
    );
    expect(JSON.parse(firstEvent?.body ?? '{}').data).toMatchObject({
      auditId: firstAuditId,
      monitor: { id: monitor.id, newFailures: null, fixed: null, scoreChange: null },
    });

    // Not due yet: the tick starts nothing.
    await t.app.deps.monitors.runDueMonitors(new Date());
    expect((await getMonitor(monitor.id)).runs).toHaveLength(1);

    // The site changes: the file-name alt is fixed and a new image has no alt.
    shopVersion = 2;
    await advanceSchedule(DAY_MS + 60_000);
    const second = await waitForNewestRun(monitor.id, 2);
    expect(second.runs[0]?.auditId).not.toBe(firstAuditId);
    expect(second.runs[0]).toMatchObject({ status: 'completed' });
    expect(second.runs[0]?.score).toBeCloseTo(2 / 3, 4);
    expect(second.lastDifference).toEqual({
      newFailures: 1,
      fixed: 1,
      scoreChange: expect.closeTo(2 / 3 - 0.5, 4),
      newFailureImages: [{ pageUrl: `${base}/shop`, src: `${base}/img/crab.jpg` }],
      fixedImages: [{ pageUrl: `${base}/shop`, src: `${base}/img/lighthouse.jpg` }],
    });
    expect(Date.parse(second.nextRunAt) - Date.now()).toBeGreaterThan(2 * DAY_MS - 120_000);

    // The list carries the score history, oldest first.
    const [listed] = await listMonitors();
    expect(listed?.history.map((point) => point.score)).toEqual([0.5, expect.closeTo(2 / 3, 4)]);
    expect(listed?.lastDifference).toEqual(second.lastDifference);

    // The owner is told by email, in words, naming the images.
    const [mail] = await waitFor(async () => {
      const rows = await mailsTo(owner.email, 'monitor-changed');
      return rows.length === 1 && rows;
    });
    expect(mail?.text).toContain('1 image newly failing, 1 image fixed; the score went from 50 % to 67 %');
    expect(mail?.text).toContain(`Newly failing: ${base}/img/crab.jpg on ${base}/shop.`);
    expect(mail?.text).toContain(`Fixed: ${base}/img/lighthouse.jpg on ${base}/shop.`);
    expect(mail?.text).toContain('http://altwise.test/monitors');

    // And by the audit.completed webhook, with the difference added.
    const events = await waitFor(async () => {
      const hits = received.filter((r) => r.path === '/hook');
      return hits.length === 2 && hits;
    });
    const secondEvent = JSON.parse(events[1]?.body ?? '{}');
    expect(secondEvent).toMatchObject({
      type: 'audit.completed',
      data: {
        auditId: second.runs[0]?.auditId,
        status: 'completed',
        counts: { pass: 2, fail: 1 },
        monitor: { id: monitor.id, newFailures: 1, fixed: 1, scoreChange: expect.closeTo(1 / 6, 4) },
      },
    });
  }, 60_000);

  it('leaves the audit.completed event of an audit no monitor started as it was (no monitor field)', async () => {
    const before = received.filter((r) => r.path === '/hook').length;
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/audits',
      headers: owner.auth,
      payload: { url: `${base}/site-plain`, scope: 'page' },
    });
    expect(started.statusCode, started.body).toBe(202);
    const events = await waitFor(async () => {
      const hits = received.filter((r) => r.path === '/hook');
      return hits.length === before + 1 && hits;
    });
    const data = JSON.parse(events.at(-1)?.body ?? '{}').data;
    expect(data).toMatchObject({ auditId: started.json().id, status: 'completed' });
    expect(data).not.toHaveProperty('monitor');
  });

  it('does not start a run while the one before has not finished', async () => {
    const user = await createUser(t);
    const created = await createMonitor({ url: `${base}/slow`, scope: 'page', every: 'week' }, user);
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as Monitor;
    await advanceSchedule(8 * DAY_MS);
    const waiting = await getMonitor(id, user);
    expect(waiting.runs).toHaveLength(1);
    expect(waiting.runs[0]?.status).toMatch(/queued|running/);

    releaseSlow();
    await waitForNewestRun(id, 1, user);
    // Still due: the next tick starts it.
    await advanceSchedule(8 * DAY_MS);
    const next = await waitForNewestRun(id, 2, user);
    expect(next.runs.map((run) => run.status)).toEqual(['completed', 'completed']);
  }, 60_000);

  it('runs a monitor now on request: a new run, the schedule from now, 409 while it runs, 404 for others', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const created = await createMonitor({ url: `${base}/held`, scope: 'page', every: 'week' }, user);
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as Monitor;
    await waitForNewestRun(id, 1, user);
    const runNow = (who: TestUser, monitorId = id) =>
      t.app.inject({ method: 'POST', url: `/api/v1/monitors/${monitorId}/run`, headers: who.auth });

    expect((await runNow(other)).statusCode).toBe(404);
    expect((await runNow(user, 'not-a-uuid')).statusCode).toBe(400);
    let release = () => {};
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started = await runNow(user);
    expect(started.statusCode, started.body).toBe(202);
    const monitor = started.json() as Monitor;
    expect(monitor.lastRun?.status).toMatch(/queued|running/);
    expect(Date.parse(monitor.nextRunAt) - Date.now()).toBeGreaterThan(7 * DAY_MS - 60_000);
    // A second click while the run is held: refused in words, nothing started.
    const again = await runNow(user);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('still going') });
    release();
    const detail = await waitForNewestRun(id, 2, user);
    expect(detail.runs.map((run) => run.status)).toEqual(['completed', 'completed']);
  }, 60_000);

  it('renders every scheduled run as the monitor was asked to (render stored, auto by default)', async () => {
    const user = await createUser(t);
    const never = await createMonitor(
      { url: `${base}/site-never`, scope: 'page', every: 'day', render: 'never' },
      user,
    );
    expect(never.statusCode, never.body).toBe(201);
    const plain = await createMonitor({ url: `${base}/site-default`, scope: 'page', every: 'day' }, user);
    expect(plain.statusCode, plain.body).toBe(201);
    expect((never.json() as Monitor).render).toBe('never');
    expect((plain.json() as Monitor).render).toBe('auto');
    const neverId = (never.json() as Monitor).id;
    const plainId = (plain.json() as Monitor).id;
    await waitForNewestRun(neverId, 1, user);
    await waitForNewestRun(plainId, 1, user);

    await advanceSchedule(DAY_MS + 60_000);
    const renderOf = async (id: string) => {
      const detail = await waitForNewestRun(id, 2, user);
      expect(detail.render).toBe(id === neverId ? 'never' : 'auto');
      return Promise.all(
        detail.runs.map(async (run) => {
          const [row] = await t.app.deps.database.db
            .select({ render: audits.render })
            .from(audits)
            .where(eq(audits.id, run.auditId ?? ''));
          return row?.render;
        }),
      );
    };
    // Both runs of each, the first one and the scheduled one, audited with the monitor's render.
    expect(await renderOf(neverId)).toEqual(['never', 'never']);
    expect(await renderOf(plainId)).toEqual(['auto', 'auto']);
  }, 60_000);
});

describe('limits', () => {
  it('skips a run the account’s audit limits refuse, says why, and emails the owner', async () => {
    const keen = await createUser(t);
    const created = await createMonitor({ url: `${base}/site-limits`, scope: 'page', every: 'day' }, keen);
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as Monitor;
    await waitForNewestRun(id, 1, keen);
    // 49 more audits today: 50 with the monitor's first run, the most a day allows.
    const anHourAgo = new Date(Date.now() - 3600_000);
    await t.app.deps.database.db.insert(audits).values(
      Array.from({ length: 49 }, () => ({
        userId: keen.id,
        url: `${base}/`,
        scope: 'page' as const,
        maxPages: 1,
        status: 'completed' as const,
        createdAt: anHourAgo,
        finishedAt: anHourAgo,
      })),
    );

    await advanceSchedule(DAY_MS + 60_000);
    const monitor = await getMonitor(id, keen);
    expect(monitor.runs).toHaveLength(2);
    expect(monitor.runs[0]).toMatchObject({ status: 'skipped', auditId: null });
    expect(monitor.runs[0]?.reason).toMatch(/You have started 50 audits in the last 24 hours/);
    const [mail] = await mailsTo(keen.email, 'monitor-skipped');
    expect(mail?.text).toMatch(/did not run: You have started 50 audits in the last 24 hours/);
    // Skipped, not stuck: the next run is a day later.
    expect(Date.parse(monitor.nextRunAt)).toBeGreaterThan(Date.now() + 2 * DAY_MS - 120_000);

    // A new monitor starts an audit at once: refused like POST /audits, and nothing is stored.
    const refused = await createMonitor({ url: `${base}/site-other`, scope: 'page', every: 'day' }, keen);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toEqual(expect.any(String));
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/50 audits/),
    });
    expect(await listMonitors(keen)).toHaveLength(1);
  }, 60_000);

  it('refuses a second monitor of the same URL (409 in words), however it is spelled', async () => {
    const user = await createUser(t);
    const first = await createMonitor({ url: `${base}/site-twice`, scope: 'page', every: 'day' }, user);
    expect(first.statusCode, first.body).toBe(201);
    const again = await createMonitor(
      { url: ` ${base.toUpperCase()}/site-twice `, scope: 'site', every: 'week' },
      user,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'CONFLICT',
      message: `You already monitor ${base}/site-twice. Delete that monitor to change how it is watched.`,
    });
    // A fragment, a bare `?` or an escaped unreserved letter (`%65` is `e`) is the same page.
    for (const spelled of [`${base}/site-twice#x`, `${base}/site-twice?`, `${base}/sit%65-twice`]) {
      const same = await createMonitor({ url: spelled, scope: 'page', every: 'day' }, user);
      expect(same.statusCode, spelled).toBe(409);
    }
    // Nothing of the refused request is left: one monitor, one audit.
    expect(await listMonitors(user)).toHaveLength(1);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/audits', headers: user.auth });
    expect(list.json()).toHaveLength(1);
  });
});

describe('bad input', () => {
  it.each([
    [
      'an invalid every (hourly)',
      { url: 'https://example.com/', scope: 'page', every: 'hourly' },
      /every must be day or week/,
    ],
    ['a missing every', { url: 'https://example.com/', scope: 'page' }, /every must be day or week/],
    [
      'a javascript: URL',
      { url: 'javascript:alert(1)', scope: 'page', every: 'day' },
      /valid http or https URL/,
    ],
    [
      'maxPages 0',
      { url: 'https://example.com/', scope: 'page', every: 'day', maxPages: 0 },
      /maxPages must be at least 1/,
    ],
    [
      'an unknown scope',
      { url: 'https://example.com/', scope: 'world', every: 'day' },
      /scope must be page, site or sitemap/,
    ],
    [
      'an unknown render (sometimes)',
      { url: 'https://example.com/', scope: 'page', every: 'day', render: 'sometimes' },
      /render must be auto, always or never/,
    ],
    [
      'an unknown field (userId)',
      { url: 'https://example.com/', scope: 'page', every: 'day', userId: 'x' },
      /userId/,
    ],
  ])('answers 400 for %s and stores nothing', async (_name, body, message) => {
    const user = await createUser(t);
    const response = await createMonitor(body, user);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
    expect(await listMonitors(user)).toEqual([]);
  });

  it('refuses a private address (400) like audits do when private fetching is off', async () => {
    const strict = await buildTestApp();
    try {
      const someone = await createUser(strict);
      const response = await createMonitor(
        { url: `${base}/shop`, scope: 'page', every: 'day' },
        someone,
        strict,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/private or local address/);
      expect(await listMonitors(someone, strict)).toEqual([]);
    } finally {
      await strict.cleanup();
    }
  }, 30_000);
});

describe('owners', () => {
  it('answers 404 for another user’s monitor, and works with an API key', async () => {
    const user = await createUser(t);
    const created = await createMonitor({ url: `${base}/site-mine`, scope: 'page', every: 'week' }, user);
    const { id } = created.json() as Monitor;
    const stranger = await createUser(t);
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await t.app.inject({ method, url: `/api/v1/monitors/${id}`, headers: stranger.auth });
      expect(response.statusCode, method).toBe(404);
      expect(response.json()).toEqual({ code: 'NOT_FOUND', message: 'There is no such monitor.' });
    }
    expect(await listMonitors(stranger)).toEqual([]);
    const malformed = await t.app.inject({ method: 'GET', url: '/api/v1/monitors/1', headers: user.auth });
    expect(malformed.statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/monitors' });
    expect(anonymous.statusCode).toBe(401);

    const key = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: user.auth,
      payload: { name: 'CMS' },
    });
    const withKey = { authorization: `Bearer ${key.json().key}` };
    const viaKey = await t.app.inject({ method: 'GET', url: `/api/v1/monitors/${id}`, headers: withKey });
    expect(viaKey.statusCode).toBe(200);
    expect(viaKey.json()).toMatchObject({ id, url: `${base}/site-mine` });
  });

  it('deleting a monitor stops its runs and keeps their audits', async () => {
    const user = await createUser(t);
    const created = await createMonitor({ url: `${base}/site-gone`, scope: 'page', every: 'day' }, user);
    const monitor = created.json() as Monitor;
    await waitForNewestRun(monitor.id, 1, user);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/monitors/${monitor.id}`,
      headers: user.auth,
    });
    expect(deleted.statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/monitors/${monitor.id}`, headers: user.auth }))
        .statusCode,
    ).toBe(404);
    await advanceSchedule(2 * DAY_MS);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/audits', headers: user.auth });
    expect((list.json() as { id: string }[]).map((audit) => audit.id)).toEqual([monitor.lastRun?.auditId]);
  }, 30_000);

  it('deleting the account stops its monitoring', async () => {
    const user = await createUser(t);
    const db = t.app.deps.database.db;
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, user.id));
    const created = await createMonitor({ url: `${base}/site-leaving`, scope: 'page', every: 'day' }, user);
    const monitor = created.json() as Monitor;
    await waitForNewestRun(monitor.id, 1, user);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/users/me',
      headers: user.auth,
      payload: { password: PASSWORD },
    });
    expect(gone.statusCode, gone.body).toBe(204);
    await advanceSchedule(2 * DAY_MS);
    expect(await db.select().from(monitors).where(eq(monitors.userId, user.id))).toEqual([]);
    expect(await db.select().from(monitorRuns).where(eq(monitorRuns.monitorId, monitor.id))).toEqual([]);
    expect(await db.select().from(audits).where(eq(audits.userId, user.id))).toEqual([]);
  }, 30_000);
});
