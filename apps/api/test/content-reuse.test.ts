import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentResults } from '../src/db/tables/content-results.ts';
import { creditLedger } from '../src/db/tables/credit-ledger.ts';
import { generationBatches } from '../src/db/tables/generation-batches.ts';
import { generationItems } from '../src/db/tables/generation-items.ts';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, uploadImages, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

/**
 * ADR 073: results are keyed by the image's bytes (SHA-256) and the context that changes its alt,
 * per user. The same bytes in the same context are answered again and their credit comes back, so
 * the same image is never paid twice, whichever way it arrives (two file names, two URLs, a second
 * fix of the same audit images).
 */
const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');
let rocket: Buffer;
let rocketChanged: Buffer;
let coffee: Buffer;

/** A page whose two images have no alt: an audit fails both. */
const page = `<!doctype html><html><head><title>Two photos</title></head><body>
  <h1>Two photos</h1><img src="/img/rocket.jpg"><img src="/img/coffee.jpg"></body></html>`;

let server: Server;
let base = '';
let t: TestApp;
/** The engine writes nothing for bytes listed here, as an engine with nothing grounded does. */
const ungrounded = new Set<string>();
const inner = createTestEngine();
const engine = {
  ...inner,
  async describeImage(...args: Parameters<typeof inner.describeImage>) {
    const result = await inner.describeImage(...args);
    const hash = inner.calls.at(-1)?.hash ?? '';
    return ungrounded.has(hash)
      ? { ...result, altText: '', needsWords: true, needsWordsReason: 'Nothing to go on.' }
      : result;
  },
};

beforeAll(async () => {
  rocket = await readFile(path.join(fixtures, 'rocket.jpg'));
  coffee = await readFile(path.join(fixtures, 'coffee.jpg'));
  rocketChanged = Buffer.from(rocket);
  // One byte in the middle of the picture: another image as far as bytes go.
  const middle = Math.floor(rocketChanged.length / 2);
  rocketChanged[middle] = (rocketChanged[middle] ?? 0) ^ 0x01;
  server = createServer((req, res) => {
    const url = (req.url ?? '').split('?')[0] ?? '';
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (url === '/robots.txt') return void res.writeHead(404).end();
    const bytes =
      url === '/img/rocket.jpg' || url === '/cdn/launch-photo.jpg'
        ? rocket
        : url === '/img/coffee.jpg'
          ? coffee
          : url === '/img/rocket-changed.jpg'
            ? rocketChanged
            : undefined;
    if (!bytes) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' }, engine });
}, 180_000);

afterAll(async () => {
  await t?.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const api = (who: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: who.auth, ...(payload ? { payload } : {}) });

async function upload(user: TestUser, files: { name: string; bytes: Buffer }[]) {
  const response = await uploadImages(
    t,
    user.auth,
    files.map((file) => ({
      name: 'images',
      fileName: file.name,
      contentType: 'image/jpeg',
      bytes: file.bytes,
    })),
  );
  expect(response.statusCode).toBe(202);
  const batchId: string = response.json().batchId;
  expect(await waitForBatch(t, user.auth, batchId)).toMatchObject({ status: 'completed', failed: 0 });
  return batchId;
}

async function scrape(user: TestUser, urls: string[], extra: object = {}) {
  const response = await api(user, 'POST', '/images/generate-alt-text', { selectedImages: urls, ...extra });
  expect(response.statusCode).toBe(202);
  const batchId: string = response.json().batchId;
  expect(await waitForBatch(t, user.auth, batchId)).toMatchObject({ status: 'completed', failed: 0 });
  return batchId;
}

/** The user's ledger rows of spending and refunds (not the credits they were given). */
async function chargesOf(user: TestUser) {
  return t.app.deps.database.db
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, user.id), inArray(creditLedger.reason, ['spend', 'refund'])));
}

async function libraryOf(user: TestUser, batchId: string) {
  return t.app.deps.database.db
    .select()
    .from(libraryImages)
    .where(and(eq(libraryImages.userId, user.id), eq(libraryImages.batchId, batchId)));
}

async function itemsOf(batchId: string) {
  return t.app.deps.database.db.select().from(generationItems).where(eq(generationItems.batchId, batchId));
}

describe('the same image is never paid twice', () => {
  it('costs 1 credit for one file uploaded under two names, and 0 for a third upload', async () => {
    const user = await createUser(t, 10);
    const calls = inner.calls.length;
    const batchId = await upload(user, [
      { name: 'launch.jpg', bytes: rocket },
      { name: 'launch-copy.jpg', bytes: rocket },
    ]);
    expect(await balanceOf(t, user)).toBe(9);
    // The engine saw the picture once.
    expect(inner.calls.length - calls).toBe(1);
    const rows = await libraryOf(user, batchId);
    expect(rows).toHaveLength(2);
    expect(rows[0]?.altText).toBe(rows[1]?.altText);
    const items = await itemsOf(batchId);
    expect(items.filter((item) => item.reused)).toHaveLength(1);
    expect(new Set(items.map((item) => item.contentSha256)).size).toBe(1);

    // The ledger: the batch's hold of 2, one refund for the reused copy; one credit charged.
    const [batch] = await t.app.deps.database.db
      .select()
      .from(generationBatches)
      .where(eq(generationBatches.id, batchId));
    const reusedItem = items.find((item) => item.reused);
    const ledger = await chargesOf(user);
    expect(ledger.map((row) => [row.reason, row.delta]).sort()).toEqual([
      ['refund', 1],
      ['spend', -2],
    ]);
    expect(ledger.find((row) => row.reason === 'refund')?.reference).toBe(
      `refund:${batch?.reservationId}:item:${reusedItem?.id}`,
    );
    expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(-1);

    await upload(user, [{ name: 'IMG_0001.jpg', bytes: rocket }]);
    expect(await balanceOf(t, user)).toBe(9);
    expect(inner.calls.length - calls).toBe(1);
  });

  it('costs 1 credit for the same image behind two URLs, and a credit for a changed byte', async () => {
    const user = await createUser(t, 10);
    const calls = inner.calls.length;
    await scrape(user, [`${base}/img/rocket.jpg`, `${base}/cdn/launch-photo.jpg`]);
    expect(await balanceOf(t, user)).toBe(9);
    expect(inner.calls.length - calls).toBe(1);

    const changed = await scrape(user, [`${base}/img/rocket-changed.jpg`]);
    expect(await balanceOf(t, user)).toBe(8);
    expect(inner.calls.length - calls).toBe(2);
    expect((await itemsOf(changed))[0]?.reused).toBe(false);
  });

  it('charges again for the same bytes in a context that changes the alt, and not for another user', async () => {
    const user = await createUser(t, 10);
    await scrape(user, [`${base}/img/coffee.jpg`]);
    expect(await balanceOf(t, user)).toBe(9);
    // A prompt and keywords change what the alt says: new results, paid.
    await scrape(user, [`${base}/img/coffee.jpg`], { chatGptPrompt: 'Mention the crema' });
    expect(await balanceOf(t, user)).toBe(8);
    await scrape(user, [`${base}/img/coffee.jpg`], { keywords: ['espresso'] });
    expect(await balanceOf(t, user)).toBe(7);
    // The same prompt again: reused.
    await scrape(user, [`${base}/img/coffee.jpg`], { chatGptPrompt: 'Mention the crema' });
    expect(await balanceOf(t, user)).toBe(7);
    // The same bytes, another account: its own result, its own credit.
    const other = await createUser(t, 10);
    await scrape(other, [`${base}/img/coffee.jpg`]);
    expect(await balanceOf(t, other)).toBe(9);
  });

  it('answers a repeat of a needs-words result as still needing words, at no credit', async () => {
    const user = await createUser(t, 10);
    ungrounded.add(createHash('sha256').update(coffee).digest('hex').slice(0, 8));
    try {
      const first = await upload(user, [{ name: 'cup.jpg', bytes: coffee }]);
      const second = await upload(user, [{ name: 'cup-again.jpg', bytes: coffee }]);
      expect(await balanceOf(t, user)).toBe(9);
      const [stored] = await t.app.deps.database.db
        .select()
        .from(contentResults)
        .where(eq(contentResults.userId, user.id));
      expect(stored).toMatchObject({ needsWords: true, approved: false });
      expect(stored?.result.altText).toBe('');
      for (const batchId of [first, second]) expect((await libraryOf(user, batchId))[0]?.altText).toBe('');
      expect((await itemsOf(second))[0]?.reused).toBe(true);
    } finally {
      ungrounded.clear();
    }
  });
});

describe('re-running an audit fix', () => {
  async function completedAudit(user: TestUser): Promise<string> {
    const started = await api(user, 'POST', '/audits', { url: `${base}/`, scope: 'page' });
    expect(started.statusCode).toBe(202);
    const { id } = started.json();
    await waitFor(
      async () => (await api(user, 'GET', `/audits/${id}`)).json().status === 'completed',
      20_000,
    );
    return id;
  }

  async function fixAll(user: TestUser, auditId: string) {
    const fix = await api(user, 'POST', `/audits/${auditId}/fix`, {});
    expect(fix.statusCode).toBe(202);
    await waitForBatch(t, user.auth, fix.json().batchId);
    const images = (await api(user, 'GET', `/audits/${auditId}/images`)).json().items;
    return images as {
      id: string;
      src: string;
      suggestion: string | null;
      origin: string | null;
      suggestionEvidence: { reused?: true } | null;
    }[];
  }

  it('costs 0 credits the second time, and gives back the words a person approved', async () => {
    const user = await createUser(t, 10);
    const firstAudit = await completedAudit(user);
    const first = await fixAll(user, firstAudit);
    expect(await balanceOf(t, user)).toBe(8);
    expect(first.every((image) => image.suggestion?.startsWith('Test description'))).toBe(true);
    const rocketImage = first.find((image) => image.src.endsWith('rocket.jpg'));
    const edit = await api(user, 'POST', `/audits/${firstAudit}/review`, {
      imageIds: [rocketImage?.id],
      action: 'edit',
      altText: 'A white rocket lifting off at dawn',
    });
    expect(edit.statusCode).toBe(200);

    // The same site audited again (as a WordPress re-import does) and fixed again.
    const calls = inner.calls.length;
    const second = await fixAll(user, await completedAudit(user));
    expect(await balanceOf(t, user)).toBe(8);
    expect(inner.calls.length).toBe(calls);
    expect(second.find((image) => image.src.endsWith('rocket.jpg'))).toMatchObject({
      suggestion: 'A white rocket lifting off at dawn',
      origin: 'ai-edited',
      suggestionEvidence: { reused: true },
    });
    expect(second.find((image) => image.src.endsWith('coffee.jpg'))).toMatchObject({
      suggestion: first.find((image) => image.src.endsWith('coffee.jpg'))?.suggestion,
      suggestionEvidence: { reused: true },
    });
    // Each fix's hold, and the second one's two refunds: two credits charged in all.
    const ledger = await chargesOf(user);
    expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(-2);
    expect(ledger.filter((row) => row.reason === 'refund')).toHaveLength(2);
  });
});
