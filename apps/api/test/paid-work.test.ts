import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger } from '../src/db/tables/credit-ledger.ts';
import { creditReservations } from '../src/db/tables/credit-reservations.ts';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { EngineProviderError } from '../src/engines/errors.ts';
import { REGENERATE_LEASE_SECONDS } from '../src/modules/generation/service.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, distinctBytes, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

/**
 * Regenerate is paid work with a record (ADR 024): its reservation is settled when the new alt text
 * lands, refunded when it fails, and refunded by the recovery job when the process stops in between.
 */
let server: Server;
let base: string;
let t: TestApp;
const engineOptions: NonNullable<Parameters<typeof createTestEngine>[0]> = {};
const overloaded = () =>
  new EngineProviderError('The model is overloaded', { retryable: false, status: 502 });
const engine = createTestEngine(engineOptions);

beforeAll(async () => {
  const rocket = await readFile(path.resolve(import.meta.dirname, 'fixtures/images/rocket.jpg'));
  // Each path its own bytes: the same bytes twice would be answered once and refunded (ADR 073).
  server = createServer((req, res) =>
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(distinctBytes(rocket, req.url ?? '')),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' }, engine });
});
afterAll(async () => {
  await t.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function userWithImage(credits: number) {
  const user = await createUser(t, credits);
  const [row] = await t.app.deps.database.db
    .insert(libraryImages)
    .values({ userId: user.id, src: `${base}/rocket.jpg`, altText: 'old' })
    .returning();
  if (!row) throw new Error('no library row');
  return { user, imageId: row.id };
}

const regenerate = (user: TestUser, id: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/images/altText/${id}/regenerate`,
    payload: {},
    headers: user.auth,
  });

const reservationsOf = (user: TestUser) =>
  t.app.deps.database.db.select().from(creditReservations).where(eq(creditReservations.userId, user.id));

const refundRowsOf = (user: TestUser, reservationId: string) =>
  t.app.deps.database.db
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, user.id), like(creditLedger.reference, `refund:${reservationId}%`)));

/** Holds the engine's next calls until `release` is called; `fail` makes them throw then. */
function holdEngine() {
  let release: (outcome: 'succeed' | 'fail') => void = () => {};
  let failing = false;
  engineOptions.gate = new Promise<void>((resolve) => {
    release = (outcome) => {
      failing = outcome === 'fail';
      resolve();
    };
  });
  engineOptions.failWith = () => (failing ? overloaded() : undefined);
  return (outcome: 'succeed' | 'fail') => release(outcome);
}

function releaseEngine() {
  engineOptions.gate = undefined;
  engineOptions.failWith = undefined;
}

describe('regenerate as paid work', () => {
  it('settles its reservation when the alt text lands and refunds it, with the reason, when it fails', async () => {
    const { user, imageId } = await userWithImage(2);
    releaseEngine();
    expect((await regenerate(user, imageId)).statusCode).toBe(200);
    engineOptions.failWith = overloaded;
    expect((await regenerate(user, imageId)).statusCode).toBe(502);
    releaseEngine();
    expect(await balanceOf(t, user)).toBe(1);
    const rows = await reservationsOf(user);
    expect(rows.map((row) => [row.purpose, row.status, row.amount, row.refunded]).sort()).toEqual([
      ['regenerate', 'refunded', 1, 1],
      ['regenerate', 'settled', 1, 0],
    ]);
    expect(rows.find((row) => row.status === 'refunded')?.error).toMatch(/The model is overloaded/);
  });

  it('gives the credit back once when the process stops mid-way, even if the call fails later', async () => {
    const { user, imageId } = await userWithImage(3);
    const release = holdEngine();
    const pending = regenerate(user, imageId);
    // The crash: the credit is reserved and the engine never answers (no settle, no refund).
    const reservation = await waitFor(async () => (await reservationsOf(user))[0]);
    expect(await balanceOf(t, user)).toBe(2);
    expect(reservation).toMatchObject({ purpose: 'regenerate', status: 'open', amount: 1 });
    const leaseMs = (reservation.leaseExpiresAt?.getTime() ?? 0) - reservation.createdAt.getTime();
    expect(Math.abs(leaseMs - REGENERATE_LEASE_SECONDS * 1000)).toBeLessThan(5_000);

    // The browser cannot give back the server's paid work: its refund route answers 0.
    const byBrowser = await t.app.inject({
      method: 'POST',
      url: '/api/v1/credits/refund',
      headers: user.auth,
      payload: { reservationId: reservation.id, refundCredits: 1 },
    });
    expect(byBrowser.json()).toMatchObject({ success: true, refundedCredits: 0, remainingCredits: 2 });

    // Within the lease nothing is recovered; after it, the credit comes back exactly once.
    expect(await t.app.deps.credits.recoverAbandoned()).toEqual({ refunded: 0 });
    expect(await balanceOf(t, user)).toBe(2);
    const afterLease = new Date(Date.now() + (REGENERATE_LEASE_SECONDS + 60) * 1000);
    expect(await t.app.deps.credits.recoverAbandoned({ now: afterLease })).toEqual({ refunded: 1 });
    expect(await t.app.deps.credits.recoverAbandoned({ now: afterLease })).toEqual({ refunded: 0 });
    expect(await balanceOf(t, user)).toBe(3);

    // The stalled call fails after all: its refund finds the reservation ended and gives nothing more.
    release('fail');
    const late = await pending;
    releaseEngine();
    expect(late.statusCode).toBe(502);
    expect(await balanceOf(t, user)).toBe(3);
    expect(await refundRowsOf(user, reservation.id)).toHaveLength(1);
    expect((await reservationsOf(user))[0]).toMatchObject({
      status: 'refunded',
      refunded: 1,
      error: 'The work was interrupted.',
    });
  });

  it('keeps a recovered credit refunded when the stalled call lands after all', async () => {
    const { user, imageId } = await userWithImage(1);
    const release = holdEngine();
    const pending = regenerate(user, imageId);
    await waitFor(async () => (await reservationsOf(user))[0]);
    expect(await balanceOf(t, user)).toBe(0);
    const afterLease = new Date(Date.now() + (REGENERATE_LEASE_SECONDS + 60) * 1000);
    expect(await t.app.deps.credits.recoverAbandoned({ now: afterLease })).toEqual({ refunded: 1 });

    release('succeed');
    const landed = await pending;
    releaseEngine();
    expect(landed.statusCode).toBe(200);
    expect(landed.json().image.alt_text).toMatch(/^Test description/);
    // Not charged again, not refunded twice.
    expect(await balanceOf(t, user)).toBe(1);
    expect((await reservationsOf(user))[0]).toMatchObject({ status: 'refunded', refunded: 1 });
  });
});

describe('a batch as paid work', () => {
  it('refunds each failed image once under its own reference and settles the rest when the batch ends', async () => {
    const user = await createUser(t, 5);
    releaseEngine();
    engineOptions.failWith = (_bytes, describe) =>
      describe.context?.existingAlt === 'broken' ? overloaded() : undefined;
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/generate-alt-text',
      headers: user.auth,
      payload: {
        selectedImages: [
          { src: `${base}/a.jpg`, alt: 'fine' },
          { src: `${base}/b.jpg`, alt: 'broken' },
          { src: `${base}/c.jpg`, alt: 'fine too' },
        ],
      },
    });
    expect(started.statusCode).toBe(202);
    const done = await waitForBatch(t, user.auth, started.json().batchId);
    releaseEngine();
    expect(done).toMatchObject({ status: 'completed', completed: 2, failed: 1 });
    expect(await balanceOf(t, user)).toBe(3);

    const [reservation] = await reservationsOf(user);
    if (!reservation) throw new Error('no reservation');
    expect(reservation).toMatchObject({
      purpose: 'generation:scrape',
      status: 'settled',
      amount: 3,
      refunded: 1,
    });
    const refunds = await refundRowsOf(user, reservation.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.reference).toMatch(/^refund:[0-9a-f-]+:item:[0-9a-f-]+$/);
    // An ended reservation gives nothing more back, whoever asks.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/credits/refund',
      headers: user.auth,
      payload: { reservationId: reservation.id, refundCredits: 2 },
    });
    expect(again.json()).toMatchObject({ refundedCredits: 0, remainingCredits: 3 });
  });
});
