import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationBatches } from '../src/db/tables/generation-batches.ts';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { users } from '../src/db/tables/users.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine } from './generation-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');

/** One page with an image of each kind: good alt, a file name, none, a spacer, one that is gone. */
const page = `<!doctype html><html><head><title>Launch day</title></head><body>
  <h1>Launch day</h1>
  <p>We went to see the launch. <img src="/img/rocket.jpg" alt="A rocket lifting off from the launch pad in a cloud of smoke"></p>
  <h2>Breakfast</h2>
  <img src="/img/coffee.jpg" alt="IMG_2041.jpg">
  <img src="/img/camera.jpg">
  <img src="/img/spacer.gif" alt="" width="1" height="1">
  <img src="/img/gone.jpg" alt="DSC0042">
</body></html>`;

let server: Server;
let base = '';
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
const engine = createTestEngine();

type Image = {
  id: string;
  src: string;
  alt: string | null;
  verdict: string;
  suggestion: string | null;
  reviewState: string | null;
  fixStatus: string | null;
};

const api = (who: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: who.auth, ...(payload ? { payload } : {}) });

async function completedAudit(who: TestUser): Promise<string> {
  const started = await api(who, 'POST', '/audits', { url: `${base}/`, scope: 'page' });
  expect(started.statusCode).toBe(202);
  const { id } = started.json();
  await waitFor(async () => {
    const audit = (await api(who, 'GET', `/audits/${id}`)).json();
    return audit.status === 'completed' ? audit : null;
  }, 20_000);
  return id;
}

async function imagesOf(who: TestUser, auditId: string, query = ''): Promise<Image[]> {
  const response = await api(who, 'GET', `/audits/${auditId}/images?pageSize=500${query}`);
  expect(response.statusCode).toBe(200);
  return response.json().items;
}

const bySrc = (images: Image[], name: string) => {
  const image = images.find((candidate) => candidate.src.endsWith(`/img/${name}`));
  if (!image) throw new Error(`no image ${name}`);
  return image;
};

async function batchDone(who: TestUser, batchId: string) {
  return waitFor(async () => {
    const batch = (await api(who, 'GET', `/images/batches/${batchId}`)).json();
    return batch.finishedAt ? batch : null;
  }, 20_000);
}

const libraryOf = (who: TestUser) =>
  t.app.deps.database.db.select().from(libraryImages).where(eq(libraryImages.userId, who.id));

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = req.url ?? '';
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (url === '/robots.txt') return void res.writeHead(404).end();
    // Slow to answer, then gone: its fix stays under way for a moment, then fails.
    if (url === '/img/gone.jpg') await new Promise((resolve) => setTimeout(resolve, 300));
    try {
      const bytes = await readFile(path.join(fixtures, path.basename(url)));
      res.writeHead(200, { 'content-type': url.endsWith('.gif') ? 'image/gif' : 'image/jpeg' }).end(bytes);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({
    env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' },
    engine,
  });
  owner = await createUser(t, 10);
  stranger = await createUser(t, 10);
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('fixing and reviewing an audit', () => {
  let auditId: string;
  let batchId: string;

  beforeAll(async () => {
    auditId = await completedAudit(owner);
  }, 30_000);

  it('fixes only the failing images, one credit each, refunding the one that fails', async () => {
    const before = await imagesOf(owner, auditId);
    expect(before.map((image) => [image.src.split('/').pop(), image.verdict])).toEqual([
      ['rocket.jpg', 'pass'],
      ['coffee.jpg', 'fail'],
      ['camera.jpg', 'fail'],
      ['spacer.gif', 'decorative'],
      ['gone.jpg', 'fail'],
    ]);
    const failing = before.filter((image) => image.verdict === 'fail').map((image) => image.id);

    const fixed = await api(owner, 'POST', `/audits/${auditId}/fix`, {});
    expect(fixed.statusCode).toBe(202);
    expect(fixed.json()).toMatchObject({ creditsReserved: 3, remainingCredits: 7, remaining: 0 });
    expect(fixed.json().images.sort()).toEqual([...failing].sort());
    batchId = fixed.json().batchId;
    expect(await balanceOf(t, owner)).toBe(7);
    // Right after the request every failing image is being fixed or, on a fast database, already has
    // its suggestion; the slow one is still under way.
    const underWay = (await imagesOf(owner, auditId)).filter((image) => failing.includes(image.id));
    expect(underWay).toHaveLength(3);
    for (const image of underWay) {
      expect(image.fixStatus === 'generating' || image.suggestion !== null).toBe(true);
    }
    expect(bySrc(underWay, 'gone.jpg').fixStatus).toBe('generating');

    const batch = await batchDone(owner, batchId);
    expect(batch).toMatchObject({ total: 3, completed: 2, failed: 1 });
    expect(await balanceOf(t, owner)).toBe(8);

    const after = await imagesOf(owner, auditId);
    expect(bySrc(after, 'coffee.jpg')).toMatchObject({
      alt: 'IMG_2041.jpg',
      suggestion: expect.stringMatching(/^Test description of IMG_2041\.jpg/),
      reviewState: 'pending',
      fixStatus: null,
      // The reviewer sees how sure the engine was and what it went on (point 9).
      // (the test engine is 90 % sure and names the model as its grounds).
      suggestionEvidence: {
        confidence: 0.9,
        needsReview: false,
        reasons: [{ source: 'model', detail: 'test-engine' }],
        needsWords: false,
        needsWordsReason: null,
        publishable: true,
      },
    });
    expect(bySrc(after, 'camera.jpg')).toMatchObject({ reviewState: 'pending', fixStatus: null });
    expect(bySrc(after, 'gone.jpg')).toMatchObject({
      suggestion: null,
      reviewState: null,
      fixStatus: 'failed',
    });
    // Good human alt text and the decorative spacer were left alone.
    expect(bySrc(after, 'rocket.jpg')).toMatchObject({
      suggestion: null,
      reviewState: null,
      fixStatus: null,
    });
    expect(bySrc(after, 'spacer.gif')).toMatchObject({ suggestion: null, reviewState: null });

    // The engine was told the image's page and place; nothing landed in the library yet.
    const coffeeCall = engine.calls.find((call) => call.options.context?.existingAlt === 'IMG_2041.jpg');
    expect(coffeeCall?.options.context).toMatchObject({ pageUrl: `${base}/`, heading: 'Breakfast' });
    expect(await libraryOf(owner)).toEqual([]);

    const audit = (await api(owner, 'GET', `/audits/${auditId}`)).json();
    expect(audit.reviews).toEqual({ pending: 2, accepted: 0, rejected: 0, edited: 0 });
    expect((await imagesOf(owner, auditId, '&review=pending')).map((image) => image.src)).toHaveLength(2);
    expect(await imagesOf(owner, auditId, '&review=none')).toHaveLength(3);
  });

  it('fixes an image that passes only when it is chosen explicitly', async () => {
    const images = await imagesOf(owner, auditId);
    // Without a selection only the failed fix is done again.
    const again = await api(owner, 'POST', `/audits/${auditId}/fix`, {});
    expect(again.statusCode).toBe(202);
    expect(again.json().images).toEqual([bySrc(images, 'gone.jpg').id]);
    await batchDone(owner, again.json().batchId);
    // While a fix is under way, the same image cannot be chosen again.
    const busy = await api(owner, 'POST', `/audits/${auditId}/fix`, {});
    expect(busy.statusCode).toBe(202);
    const twice = await api(owner, 'POST', `/audits/${auditId}/fix`, { imageIds: busy.json().images });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/being fixed already/),
    });
    await batchDone(owner, busy.json().batchId);

    const rocket = bySrc(images, 'rocket.jpg');
    const chosen = await api(owner, 'POST', `/audits/${auditId}/fix`, { imageIds: [rocket.id] });
    expect(chosen.statusCode).toBe(202);
    expect(chosen.json()).toMatchObject({ images: [rocket.id], creditsReserved: 1 });
    await batchDone(owner, chosen.json().batchId);
    expect(bySrc(await imagesOf(owner, auditId), 'rocket.jpg')).toMatchObject({
      alt: 'A rocket lifting off from the launch pad in a cloud of smoke',
      reviewState: 'pending',
    });
    // 3 - 1 refunded + 1: the gone image failed twice more and was refunded each time.
    expect(await balanceOf(t, owner)).toBe(7);
  });

  it('lands an accepted or edited suggestion in the library, and a rejected one nowhere', async () => {
    const images = await imagesOf(owner, auditId);
    const coffee = bySrc(images, 'coffee.jpg');
    const camera = bySrc(images, 'camera.jpg');
    const rocket = bySrc(images, 'rocket.jpg');

    const accepted = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [coffee.id],
      action: 'accept',
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().items).toEqual([
      expect.objectContaining({ id: coffee.id, reviewState: 'accepted', suggestion: coffee.suggestion }),
    ]);
    let library = await libraryOf(owner);
    expect(library).toEqual([
      expect.objectContaining({
        src: coffee.src,
        altText: coffee.suggestion,
        confidence: 0.9,
        needsReview: false,
      }),
    ]);
    expect(library[0]?.context).toMatchObject({
      pageUrl: `${base}/`,
      heading: 'Breakfast',
      existingAlt: 'IMG_2041.jpg',
    });

    const rejected = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [camera.id, rocket.id],
      action: 'reject',
    });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().reviews).toEqual({ pending: 0, accepted: 1, rejected: 2, edited: 0 });
    expect(await libraryOf(owner)).toHaveLength(1);

    const edited = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [camera.id],
      action: 'edit',
      altText: '  A silver film camera on a wooden table  ',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().items[0]).toMatchObject({
      reviewState: 'edited',
      suggestion: 'A silver film camera on a wooden table',
      // The words are the user's now: no engine evidence is shown for them.
      suggestionEvidence: null,
    });
    library = await libraryOf(owner);
    expect(library).toHaveLength(2);
    expect(library).toContainEqual(
      expect.objectContaining({
        src: camera.src,
        altText: 'A silver film camera on a wooden table',
        confidence: null,
      }),
    );

    // Editing an accepted image changes its library row rather than adding one.
    const reworded = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [coffee.id],
      action: 'edit',
      altText: 'A cup of coffee on a saucer',
    });
    expect(reworded.statusCode).toBe(200);
    library = await libraryOf(owner);
    expect(library).toHaveLength(2);
    expect(library.map((row) => row.altText).sort()).toEqual([
      'A cup of coffee on a saucer',
      'A silver film camera on a wooden table',
    ]);

    // Already in the library: rejecting is refused, nothing changes.
    const late = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [coffee.id],
      action: 'reject',
    });
    expect(late.statusCode).toBe(409);
    expect((await api(owner, 'GET', `/audits/${auditId}`)).json().reviews).toEqual({
      pending: 0,
      accepted: 0,
      rejected: 1,
      edited: 2,
    });
    expect(await imagesOf(owner, auditId, '&review=edited')).toHaveLength(2);
  });

  it('refuses a review of images without a suggestion, all or nothing (409)', async () => {
    const images = await imagesOf(owner, auditId);
    const spacer = bySrc(images, 'spacer.gif');
    const rocket = bySrc(images, 'rocket.jpg');
    const response = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [rocket.id, spacer.id],
      action: 'accept',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/1 of the selected images has no suggestion yet/);
    expect(bySrc(await imagesOf(owner, auditId), 'rocket.jpg').reviewState).toBe('rejected');
  });

  it('answers bad input with 400 and foreign or unknown ids with 404', async () => {
    const images = await imagesOf(owner, auditId);
    const coffee = bySrc(images, 'coffee.jpg');
    const review = (body: object, id = auditId, who = owner) =>
      api(who, 'POST', `/audits/${id}/review`, body);
    for (const body of [
      { imageIds: [coffee.id], action: 'approve' },
      { imageIds: [coffee.id], action: 'edit' },
      { imageIds: [coffee.id], action: 'edit', altText: '   ' },
      { imageIds: [coffee.id], action: 'edit', altText: 'x'.repeat(1001) },
      { imageIds: [coffee.id], action: 'accept', altText: 'Not with accept' },
      { imageIds: [], action: 'accept' },
      { imageIds: ['not-a-uuid'], action: 'accept' },
      { action: 'accept' },
    ]) {
      const response = await review(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    }
    for (const body of [{ imageIds: [] }, { imageIds: 'all' }, { imageIds: [coffee.id], extra: true }]) {
      const response = await api(owner, 'POST', `/audits/${auditId}/fix`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }

    // Another user's audit: 404 for everything, and their ids are foreign in one's own audit.
    for (const [method, url, body] of [
      ['POST', `/audits/${auditId}/fix`, {}],
      ['POST', `/audits/${auditId}/review`, { imageIds: [coffee.id], action: 'accept' }],
      ['GET', `/audits/${auditId}/report.csv`, undefined],
      ['GET', `/audits/${auditId}/report.xlsx`, undefined],
    ] as const) {
      const response = await api(stranger, method, url, body);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().message).toBe('There is no such audit.');
    }
    const theirs = await completedAudit(stranger);
    const foreignFix = await api(stranger, 'POST', `/audits/${theirs}/fix`, { imageIds: [coffee.id] });
    expect(foreignFix.statusCode).toBe(404);
    expect(foreignFix.json().message).toBe('There is no such image in this audit.');
    expect((await review({ imageIds: [coffee.id], action: 'accept' }, theirs, stranger)).statusCode).toBe(
      404,
    );
    expect(await balanceOf(t, stranger)).toBe(10);
  });

  it('exports the audit as CSV and as an xlsx workbook', async () => {
    const csv = await api(owner, 'GET', `/audits/${auditId}/report.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const day = new Date().toISOString().slice(0, 10);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="audit-127.0.0.1-${day}.csv"`);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Page URL,Image URL,Existing alt,Verdict,Problem codes,WCAG criteria,Suggested alt,Review state,Long description,Origin,Alt attribute',
    );
    expect(lines).toHaveLength(6);
    expect(lines[2]).toBe(
      `${base}/,${base}/img/coffee.jpg,IMG_2041.jpg,fail,file-name,1.1.1,A cup of coffee on a saucer,edited,,ai-edited,present`,
    );
    // A person wrote alt="" on the page: its origin is human (ADR 057).
    // alt="" is told apart from no alt at all, whose row also has an empty "Existing alt" cell.
    expect(lines[4]).toBe(`${base}/,${base}/img/spacer.gif,,decorative,,,,,,human,empty`);
    expect(
      lines.filter((line) => line.includes(',missing,') || line.endsWith(',missing')).length,
    ).toBeGreaterThan(0);
    expect(lines.find((line) => line.endsWith(',missing'))).toMatch(/,fail,[^,]*missing/);

    const xlsx = await api(owner, 'GET', `/audits/${auditId}/report.xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(xlsx.headers['content-disposition']).toBe(`attachment; filename="audit-127.0.0.1-${day}.xlsx"`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    expect(sheet.rowCount).toBe(6);
    expect(sheet.getRow(1).getCell(1).value).toBe('Page URL');
    expect(sheet.getRow(1).getCell(8).value).toBe('Review state');
    expect(sheet.getRow(1).font?.bold ?? sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const coffee = sheet.getRow(3);
    expect([2, 3, 4, 5, 7, 8].map((column) => coffee.getCell(column).value)).toEqual([
      `${base}/img/coffee.jpg`,
      'IMG_2041.jpg',
      'fail',
      'file-name',
      'A cup of coffee on a saucer',
      'edited',
    ]);
  });
});

describe('a fix the credits do not cover', () => {
  it('answers 402 and queues nothing', async () => {
    const poor = await createUser(t, 2);
    const auditId = await completedAudit(poor);
    const response = await api(poor, 'POST', `/audits/${auditId}/fix`, {});
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(await balanceOf(t, poor)).toBe(2);
    const batches = await t.app.deps.database.db
      .select()
      .from(generationBatches)
      .where(eq(generationBatches.userId, poor.id));
    expect(batches).toEqual([]);
    const images = await imagesOf(poor, auditId);
    expect(images.every((image) => image.fixStatus === null && image.suggestion === null)).toBe(true);
  });
});

describe('a fix of as many as the credits cover', () => {
  it('fixes the first N failing images with limit, and says how many are left', async () => {
    const poor = await createUser(t, 1);
    const auditId = await completedAudit(poor);
    expect((await api(poor, 'POST', `/audits/${auditId}/fix`, {})).statusCode).toBe(402);
    const response = await api(poor, 'POST', `/audits/${auditId}/fix`, { limit: 1 });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ creditsReserved: 1, remainingCredits: 0, remaining: 2 });
    expect(response.json().images).toHaveLength(1);
    const refused = await api(poor, 'POST', `/audits/${auditId}/fix`, { limit: 0 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('The limit must be at least 1');
  });
});

describe('two fixes of the same audit at once', () => {
  it('queue each failing image once: the second finds nothing left to fix (409)', async () => {
    const user = await createUser(t, 10);
    const auditId = await completedAudit(user);
    const answers = await Promise.all([
      api(user, 'POST', `/audits/${auditId}/fix`, {}),
      api(user, 'POST', `/audits/${auditId}/fix`, {}),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 409]);
    const started = answers.find((answer) => answer.statusCode === 202)?.json();
    const refused = answers.find((answer) => answer.statusCode === 409)?.json();
    expect(started).toMatchObject({ creditsReserved: 3 });
    expect(refused.message).toMatch(/No failing image is left to fix/);
    await batchDone(user, started.batchId);
    expect(await balanceOf(t, user)).toBe(8);
  });
});

describe('the language of a fix', () => {
  const setLanguage = (who: TestUser, language: string) =>
    t.app.deps.database.db.update(users).set({ defaultLanguage: language }).where(eq(users.id, who.id));

  it('is the account’s default; one the engine cannot write is 422 before a credit moves', async () => {
    const british = await createUser(t, 5);
    await setLanguage(british, 'en-GB');
    const auditId = await completedAudit(british);
    const callsBefore = engine.calls.length;
    const fixed = await api(british, 'POST', `/audits/${auditId}/fix`, {});
    expect(fixed.statusCode).toBe(202);
    await batchDone(british, fixed.json().batchId);
    // The two images the engine saw (the third is gone before it gets there).
    expect(engine.calls.slice(callsBefore).map((call) => call.options.language)).toEqual(['en-GB', 'en-GB']);

    const french = await createUser(t, 5);
    await setLanguage(french, 'fr');
    const frenchAudit = await completedAudit(french);
    const refused = await api(french, 'POST', `/audits/${frenchAudit}/fix`, {});
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'LANGUAGE_NOT_SUPPORTED' });
    expect(await balanceOf(t, french)).toBe(5);
  });
});
