import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger } from '../src/db/tables/credit-ledger.ts';
import { creditReservations } from '../src/db/tables/credit-reservations.ts';
import { generationBatches } from '../src/db/tables/generation-batches.ts';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { EngineProviderError } from '../src/engines/errors.ts';
import { createAuditService } from '../src/modules/audit/service.ts';
import { createGenerationService } from '../src/modules/generation/service.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, multipartBody, uploadImages, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, createPostgresDatabase, type TestApp, waitFor } from './helper.ts';

/**
 * ADR 043: scrape, upload, CSV import and audit fixes start their batches through generation's one
 * primitive (startGenerationBatch) and differ only in where a finished image lands. So each is
 * charged, refunded and settled exactly alike, whichever source it came from.
 */
const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');
const sources = ['scrape', 'upload', 'csv', 'audit'] as const;
type Source = (typeof sources)[number];

/** A page whose two images have no alt text: an audit fails both, so a fix has two images. */
const page = `<!doctype html><html><head><title>Two photos</title></head><body>
  <h1>Two photos</h1><img src="/img/rocket.jpg"><img src="/img/coffee.jpg"></body></html>`;

let server: Server;
let base = '';
let t: TestApp;
let failing = false;
const engine = createTestEngine({
  failWith: () =>
    failing
      ? new EngineProviderError('The model is overloaded', { retryable: false, status: 502 })
      : undefined,
});

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = (req.url ?? '').split('?')[0] ?? '';
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (url === '/robots.txt') return void res.writeHead(404).end();
    try {
      const bytes = await readFile(path.join(fixtures, path.basename(url)));
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' }, engine });
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Starts a two-image batch of `source` as a person would; answers its id. */
async function startBatch(source: Source, user: TestUser): Promise<string> {
  const images = [`${base}/img/rocket.jpg?${source}`, `${base}/img/coffee.jpg?${source}`];
  if (source === 'scrape') {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/generate-alt-text',
      headers: user.auth,
      payload: { selectedImages: images },
    });
    expect(response.statusCode).toBe(202);
    return response.json().batchId;
  }
  if (source === 'upload') {
    const parts = [];
    for (const name of ['rocket.jpg', 'coffee.jpg'])
      parts.push({
        name: 'images',
        fileName: name,
        contentType: 'image/jpeg',
        bytes: await readFile(path.join(fixtures, name)),
      });
    const response = await uploadImages(t, user.auth, parts);
    expect(response.statusCode).toBe(202);
    return response.json().batchId;
  }
  if (source === 'csv') {
    const body = multipartBody([
      {
        name: 'file',
        fileName: 'images.csv',
        contentType: 'text/csv',
        bytes: Buffer.from(['image_url', ...images].join('\n')),
      },
    ]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/import-csv',
      payload: body.payload,
      headers: { ...user.auth, ...body.headers },
    });
    expect(response.statusCode).toBe(202);
    return response.json().batchId;
  }
  const audit = await t.app.inject({
    method: 'POST',
    url: '/api/v1/audits',
    headers: user.auth,
    payload: { url: `${base}/`, scope: 'page' },
  });
  expect(audit.statusCode).toBe(202);
  const auditId = audit.json().id;
  await waitFor(async () => {
    const read = await t.app.inject({ method: 'GET', url: `/api/v1/audits/${auditId}`, headers: user.auth });
    return read.json().status === 'completed';
  }, 20_000);
  const fix = await t.app.inject({
    method: 'POST',
    url: `/api/v1/audits/${auditId}/fix`,
    headers: user.auth,
    payload: {},
  });
  expect(fix.statusCode).toBe(202);
  expect(fix.json()).toMatchObject({ creditsReserved: 2, remainingCredits: 8 });
  return fix.json().batchId;
}

/** The batch's reservation and the refund rows written against it. */
async function creditsOf(user: TestUser, batchId: string) {
  const db = t.app.deps.database.db;
  const [batch] = await db.select().from(generationBatches).where(eq(generationBatches.id, batchId));
  if (!batch) throw new Error(`no batch ${batchId}`);
  const [reservation] = await db
    .select()
    .from(creditReservations)
    .where(eq(creditReservations.id, batch.reservationId));
  const refunds = await db
    .select()
    .from(creditLedger)
    .where(
      and(eq(creditLedger.userId, user.id), like(creditLedger.reference, `refund:${batch.reservationId}%`)),
    );
  return { source: batch.source, reservation, refunds };
}

async function auditImagesOf(user: TestUser) {
  const [audit] = (await t.app.inject({ method: 'GET', url: '/api/v1/audits', headers: user.auth })).json();
  const images = await t.app.inject({
    method: 'GET',
    url: `/api/v1/audits/${audit.id}/images`,
    headers: user.auth,
  });
  return images.json().items;
}

describe('one paid batch start for every source', () => {
  it.each(sources)('%s: refunds each image exactly once when the engine fails every call', async (source) => {
    failing = true;
    const user = await createUser(t, 10);
    const batchId = await startBatch(source, user);
    const done = await waitForBatch(t, user.auth, batchId);
    expect(done).toMatchObject({ status: 'failed', total: 2, completed: 0, failed: 2 });
    expect(done.failures.map((failure: { error: string }) => failure.error)).toEqual([
      expect.stringMatching(/overloaded/),
      expect.stringMatching(/overloaded/),
    ]);
    expect(await balanceOf(t, user)).toBe(10);
    const credits = await creditsOf(user, batchId);
    expect(credits.source).toBe(source);
    expect(credits.reservation).toMatchObject({
      purpose: `generation:${source}`,
      amount: 2,
      refunded: 2,
      status: 'settled',
    });
    // One refund per image, each under its own reference: never twice.
    expect(credits.refunds.map((row) => row.delta)).toEqual([1, 1]);
    expect(new Set(credits.refunds.map((row) => row.reference)).size).toBe(2);
    // Nothing landed anywhere.
    const library = await t.app.deps.database.db
      .select()
      .from(libraryImages)
      .where(eq(libraryImages.userId, user.id));
    expect(library).toEqual([]);
    if (source === 'upload')
      // A failed image's upload has no purpose left: it is no longer served.
      for (const failure of done.failures as { src: string }[])
        expect((await t.app.inject({ method: 'GET', url: new URL(failure.src).pathname })).statusCode).toBe(
          404,
        );
    if (source === 'audit')
      for (const image of await auditImagesOf(user))
        expect(image).toMatchObject({ suggestion: null, reviewState: null, fixStatus: 'failed' });
  });

  it.each(sources)('%s: charges once and lands the images where that source keeps them', async (source) => {
    failing = false;
    const user = await createUser(t, 10);
    const batchId = await startBatch(source, user);
    const done = await waitForBatch(t, user.auth, batchId);
    expect(done).toMatchObject({ status: 'completed', total: 2, completed: 2, failed: 0 });
    expect(await balanceOf(t, user)).toBe(8);
    const credits = await creditsOf(user, batchId);
    expect(credits.reservation).toMatchObject({ amount: 2, refunded: 0, status: 'settled' });
    expect(credits.refunds).toEqual([]);
    const library = await t.app.deps.database.db
      .select()
      .from(libraryImages)
      .where(eq(libraryImages.userId, user.id));
    if (source === 'audit') {
      // A fix's results wait on the audit for the user's review; the library gets nothing yet.
      expect(library).toEqual([]);
      const images = await auditImagesOf(user);
      expect(images).toHaveLength(2);
      for (const image of images)
        expect(image).toMatchObject({
          suggestion: expect.stringMatching(/^Test description/),
          reviewState: 'pending',
          fixStatus: null,
        });
    } else {
      expect(library).toHaveLength(2);
      for (const row of library)
        expect(row).toMatchObject({ batchId, altText: expect.stringMatching(/^Test description/) });
    }
  });
});

describe('a fix batch run by a process that never saw its request', () => {
  it("lands as the audit's suggestions: the audit's lander is registered when a process is built", {
    timeout: 90_000,
  }, async () => {
    failing = false;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-fix-resume-'));
    const shared = process.env.TEST_DATABASE_URL
      ? await createPostgresDatabase(process.env.TEST_DATABASE_URL)
      : undefined;
    const env = { FETCH_ALLOW_PRIVATE: 'true', ...(shared ? { DATABASE_URL: shared.url } : {}) };
    try {
      // The first process audits the page (audits start in-process) but polls for jobs so rarely
      // that it never takes the fix's job.
      const first = await buildTestApp({
        env,
        dataDir,
        persistent: true,
        engine,
        workOptions: { pollingIntervalSeconds: 3600 },
      });
      let user: TestUser;
      let auditId: string;
      let batchId: string;
      try {
        user = await createUser(first, 10);
        const audit = await first.app.inject({
          method: 'POST',
          url: '/api/v1/audits',
          headers: user.auth,
          payload: { url: `${base}/`, scope: 'page' },
        });
        auditId = audit.json().id;
        await waitFor(async () => {
          const read = await first.app.inject({
            method: 'GET',
            url: `/api/v1/audits/${auditId}`,
            headers: user.auth,
          });
          return read.json().status === 'completed';
        }, 20_000);
        // The fix is stored as an API-only process stores it: batch, items, links and job, no run.
        const { db } = first.app.deps.database;
        const apiOnly = { db, queue: first.app.deps.queue, runsWorkers: false, logger: first.app.log };
        const generation = createGenerationService({
          ...apiOnly,
          files: first.app.deps.files,
          engine,
          config: first.config,
        });
        const audits = createAuditService({
          ...apiOnly,
          fetch: first.config.fetch,
          pages: first.app.deps.pages,
          generation,
        });
        const fixed = await audits.fix(user.id, auditId, {});
        expect(fixed).toMatchObject({ creditsReserved: 2, remainingCredits: 8 });
        batchId = fixed.batchId;
      } finally {
        await first.cleanup();
      }

      // The next process finds the unfinished batch at start and lands its results on the audit.
      const next = await buildTestApp({ env, dataDir, persistent: true, engine });
      try {
        const done = await waitForBatch(next, user.auth, batchId, 30_000);
        expect(done).toMatchObject({ status: 'completed', total: 2, completed: 2, failed: 0 });
        expect(await balanceOf(next, user)).toBe(8);
        const images = await next.app.inject({
          method: 'GET',
          url: `/api/v1/audits/${auditId}/images`,
          headers: user.auth,
        });
        expect(images.json().items).toEqual([
          expect.objectContaining({ reviewState: 'pending', suggestion: expect.stringMatching(/^Test/) }),
          expect.objectContaining({ reviewState: 'pending', suggestion: expect.stringMatching(/^Test/) }),
        ]);
        const library = await next.app.deps.database.db
          .select()
          .from(libraryImages)
          .where(eq(libraryImages.userId, user.id));
        expect(library).toEqual([]);
      } finally {
        await next.cleanup();
      }
    } finally {
      await shared?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
