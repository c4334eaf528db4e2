import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { generationItems } from '../src/db/tables/generation-items.ts';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { RateLimiter, Semaphore } from '../src/lib/throttle.ts';
import { reserveCredits } from '../src/modules/credits/service.ts';
import { createBatchRunner } from '../src/modules/generation/batch-runner.ts';
import {
  addToBatchCounts,
  claimNextItem,
  finishItem,
  insertBatch,
  insertItems,
  markBatchProcessing,
  renewClaims,
} from '../src/modules/generation/repository.ts';
import { addLibraryImages } from '../src/modules/library/service.ts';
import { balanceOf, createUser } from './billing-helpers.ts';
import { createTestEngine, distinctBytes, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, createPostgresDatabase, type TestApp } from './helper.ts';

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');
const names = ['astronaut.jpg', 'coffee.jpg', 'chelsea.jpg', 'rocket.jpg', 'camera.jpg', 'horse.webp'];

let server: Server;
let base: string;
let dataDir: string;
/** On Postgres both processes must open the same database (PGlite shares the data directory). */
let sharedPostgres: { url: string; drop: () => Promise<void> } | undefined;
const hits = new Map<string, number>();

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = req.url ?? '';
    hits.set(url, (hits.get(url) ?? 0) + 1);
    try {
      const bytes = await readFile(path.join(fixtures, path.basename(url.split('?')[0] ?? '')));
      // Each URL its own bytes, so every image is described (ADR 073 answers a copy from the first).
      res.writeHead(200).end(distinctBytes(bytes, url));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-resume-'));
  if (process.env.TEST_DATABASE_URL)
    sharedPostgres = await createPostgresDatabase(process.env.TEST_DATABASE_URL);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dataDir, { recursive: true, force: true });
  await sharedPostgres?.drop();
});

describe('a batch interrupted by a crash', () => {
  it('resumes when the next process starts: every image charged once, no result lost or duplicated', {
    timeout: 60_000,
  }, async () => {
    const env = {
      FETCH_ALLOW_PRIVATE: 'true',
      GENERATION_LEASE_SECONDS: '1',
      ...(sharedPostgres ? { DATABASE_URL: sharedPostgres.url } : {}),
    };
    // The first process stores the batch as the route does (credits reserved, items pending) but
    // dies before its job runs: the batch is written directly, with no job queued. Its lease is long
    // so that its own sweep (ADR 036) does not take the batch over while the crash is arranged.
    const first = await buildTestApp({
      env: { ...env, GENERATION_LEASE_SECONDS: '60' },
      dataDir,
      persistent: true,
    });
    const user = await createUser(first, 10);
    const db = first.app.deps.database.db;
    const batchId = await db.transaction(async (tx) => {
      const { reservationId } = await reserveCredits(tx, user.id, names.length, 'generation:scrape');
      const batch = await insertBatch(tx, {
        userId: user.id,
        source: 'scrape',
        reservationId,
        total: names.length,
      });
      await insertItems(
        tx,
        names.map((name, position) => ({ batchId: batch.id, position, src: `${base}/${name}`, context: {} })),
      );
      return batch.id;
    });

    // What a worker killed mid-batch leaves behind: two images done (library rows written with the
    // counts), two claimed and still `processing` (their claim now stale), two never started.
    for (let i = 0; i < 2; i++) {
      const claimId = randomUUID();
      const item = await claimNextItem(db, batchId, claimId, 60);
      if (!item) throw new Error('nothing to claim');
      await db.transaction(async (tx) => {
        const [image] = await addLibraryImages(tx, user.id, [
          { src: item.src, altText: `Done before the crash: ${item.src}`, batchId },
        ]);
        if (!image) throw new Error('no library row');
        await finishItem(tx, item.id, claimId, { status: 'done', libraryImageId: image.id });
        await addToBatchCounts(tx, batchId, { completed: 1 });
      });
    }
    for (let i = 0; i < 2; i++) await claimNextItem(db, batchId, randomUUID(), 60);
    await db
      .update(generationItems)
      .set({ claimedAt: sql`now() - interval '5 seconds'` })
      .where(eq(generationItems.status, 'processing'));
    const before = await queryRows<{ status: string; n: number }>(
      db,
      sql`select status, count(*)::int as n from generation_items group by status order by status`,
    );
    expect(before).toEqual([
      { status: 'done', n: 2 },
      { status: 'pending', n: 2 },
      { status: 'processing', n: 2 },
    ]);
    await first.cleanup();

    // The next process on the same data finds the unfinished batch at start and finishes it.
    const engine = createTestEngine({ delayMs: 10 });
    const second = await buildTestApp({ env, dataDir, persistent: true, engine });
    try {
      const done = await waitForBatch(second, user.auth, batchId, 30_000);
      expect(done).toMatchObject({ status: 'completed', total: 6, completed: 6, failed: 0 });
      // The two finished before the crash are not described again.
      expect(engine.calls).toHaveLength(4);
      const rows = await second.app.deps.database.db
        .select()
        .from(libraryImages)
        .where(eq(libraryImages.userId, user.id));
      expect(rows.map((row) => row.src).sort()).toEqual(names.map((name) => `${base}/${name}`).sort());
      expect(rows.filter((row) => row.altText.startsWith('Done before the crash'))).toHaveLength(2);
      // Charged once per image: 10 - 6, one reservation, no refund.
      expect(await balanceOf(second, user)).toBe(4);
      const ledger = await queryRows<{ reason: string; delta: number }>(
        second.app.deps.database.db,
        sql`select reason, delta from credit_ledger where user_id = ${user.id} order by created_at`,
      );
      expect(ledger).toEqual([
        { reason: 'grant', delta: 10 },
        { reason: 'spend', delta: -6 },
      ]);
    } finally {
      await second.cleanup();
    }
  });

  it('lets two workers share one batch without describing any image twice', { timeout: 60_000 }, async () => {
    const engine = createTestEngine({ delayMs: 30 });
    const t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true' }, engine });
    try {
      const user = await createUser(t, 20);
      const selectedImages = Array.from(
        { length: 12 },
        (_, i) => `${base}/${names[i % names.length]}?n=${i}`,
      );
      const { batchId } = (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/images/generate-alt-text',
          headers: user.auth,
          payload: { selectedImages },
        })
      ).json();
      // The route already started a run and queued the job; two more runners with their own
      // engine slots work the same batch at once, as other worker processes would.
      const otherProcess = () =>
        createBatchRunner({
          db: t.app.deps.database.db,
          engine,
          files: t.app.deps.files,
          fetch: t.config.fetch,
          limiter: new RateLimiter(0),
          engineSlots: new Semaphore(4),
          logger: t.app.log,
          config: t.config.generation,
          landerFor: t.app.deps.generation.landerFor,
        });
      await Promise.all([
        otherProcess().runBatch(batchId),
        otherProcess().runBatch(batchId),
        t.app.deps.generation.runBatch(batchId),
      ]);
      const done = await waitForBatch(t, user.auth, batchId);
      expect(done).toMatchObject({ status: 'completed', completed: 12, failed: 0 });
      expect(engine.calls).toHaveLength(12);
      const rows = await t.app.deps.database.db
        .select()
        .from(libraryImages)
        .where(eq(libraryImages.userId, user.id));
      expect(new Set(rows.map((row) => row.src)).size).toBe(12);
      expect(rows).toHaveLength(12);
      expect(await balanceOf(t, user)).toBe(8);
    } finally {
      await t.cleanup();
    }
  });
});

/** A batch as another worker process left it: paid for, under way, its job held elsewhere. */
async function storeRunningBatch(t: TestApp, userId: string, srcs: string[]): Promise<string> {
  const db = t.app.deps.database.db;
  return db.transaction(async (tx) => {
    const { reservationId } = await reserveCredits(tx, userId, srcs.length, 'generation:scrape');
    const batch = await insertBatch(tx, { userId, source: 'scrape', reservationId, total: srcs.length });
    await insertItems(
      tx,
      srcs.map((src, position) => ({ batchId: batch.id, position, src, context: {} })),
    );
    await markBatchProcessing(tx, batch.id);
    return batch.id;
  });
}

describe('a batch whose worker was killed while another worker lives', () => {
  it('is adopted by a live worker within two leases, unlike a batch whose claims are renewed', {
    timeout: 60_000,
  }, async () => {
    const engine = createTestEngine({ delayMs: 10 });
    const t = await buildTestApp({
      // Two seconds: room for a loaded machine to delay a renewal without the batch looking dead.
      env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_LEASE_SECONDS: '2' },
      engine,
    });
    let renewing: NodeJS.Timeout | undefined;
    try {
      const user = await createUser(t, 20);
      const db = t.app.deps.database.db;
      const orphanSrcs = names.map((name) => `${base}/${name}?orphan`);
      const liveSrcs = names.slice(0, 3).map((name) => `${base}/${name}?live`);

      // The killed worker's batch: one image landed, two claimed by it (claims no longer renewed),
      // three never started; no run in this process and no job in its queue.
      const orphanId = await storeRunningBatch(t, user.id, orphanSrcs);
      const doneClaim = randomUUID();
      const landed = await claimNextItem(db, orphanId, doneClaim, 1);
      if (!landed) throw new Error('nothing to claim');
      await db.transaction(async (tx) => {
        const [image] = await addLibraryImages(tx, user.id, [
          { src: landed.src, altText: 'Landed before the kill', batchId: orphanId },
        ]);
        if (!image) throw new Error('no library row');
        await finishItem(tx, landed.id, doneClaim, { status: 'done', libraryImageId: image.id });
        await addToBatchCounts(tx, orphanId, { completed: 1 });
      });
      for (let i = 0; i < 2; i++) await claimNextItem(db, orphanId, randomUUID(), 1);

      // Another process's live batch: it holds one image and keeps renewing the claim.
      const liveId = await storeRunningBatch(t, user.id, liveSrcs);
      const liveStored = Date.now();
      const liveClaim = randomUUID();
      await claimNextItem(db, liveId, liveClaim, 1);
      renewing = setInterval(() => void renewClaims(db, [liveClaim]).catch(() => {}), 200);

      const done = await waitForBatch(t, user.auth, orphanId, 30_000);
      expect(done).toMatchObject({ status: 'completed', total: 6, completed: 6, failed: 0 });
      // Three leases on, the live batch is still its owner's: nothing of it described here.
      await sleep(Math.max(0, liveStored + 6_000 - Date.now()));
      const liveItems = await db
        .select({ status: generationItems.status })
        .from(generationItems)
        .where(eq(generationItems.batchId, liveId));
      expect(liveItems.map((item) => item.status).sort()).toEqual(['pending', 'pending', 'processing']);
      expect(engine.calls).toHaveLength(5);

      // Its owner stops renewing (killed too): now it is adopted and finished here as well.
      clearInterval(renewing);
      expect(await waitForBatch(t, user.auth, liveId, 30_000)).toMatchObject({
        status: 'completed',
        completed: 3,
      });
      // Each image described once, landed once, paid once: 20 − 9, one spend per batch, no refund.
      expect(engine.calls).toHaveLength(8);
      const rows = await db
        .select({ src: libraryImages.src })
        .from(libraryImages)
        .where(inArray(libraryImages.batchId, [orphanId, liveId]));
      expect(rows.map((row) => row.src).sort()).toEqual([...orphanSrcs, ...liveSrcs].sort());
      expect(await balanceOf(t, user)).toBe(11);
      const ledger = await queryRows<{ reason: string; delta: number }>(
        db,
        sql`select reason, delta from credit_ledger where user_id = ${user.id} order by delta`,
      );
      expect(ledger).toEqual([
        { reason: 'spend', delta: -6 },
        { reason: 'spend', delta: -3 },
        { reason: 'grant', delta: 20 },
      ]);
    } finally {
      clearInterval(renewing);
      await t.cleanup();
    }
  });
});
