import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, type SQL, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { libraryCounts, libraryImages } from '../src/db/tables/library-images.ts';
import { users } from '../src/db/tables/users.ts';
import type { AltTextReason } from '../src/engines/types.ts';
import {
  type LibraryFilter,
  type LibraryKeyPageStatement,
  type LibraryPageStatement,
  listLibraryImagesPage,
  prepareLibraryPage,
  prepareLibraryPageFromKey,
  readLibraryBoundaries,
  readLibraryCounts,
  readLibraryPage,
  readLibraryPageFromKey,
} from '../src/modules/library/repository.ts';
import { addLibraryImages } from '../src/modules/library/service.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, uploadImages, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * ADR 032: the library's totals come from library_counts, which triggers keep exact whatever writes
 * the rows; a page is read from the nearer end of the listing by an index skip and a keyset seek, and
 * must be exactly the rows an OFFSET over the newest-first order would give. ADR 040: a shallow page
 * (and its total) comes from one statement, a deep one from the boundary-key path; its addendum: the
 * cached keys stay in use while rows are only added at the newest end.
 */
// The service's reads, watched (and run unchanged): whether a deep page started from a boundary key
// (in the transaction or in the one key-page statement) or walked from the nearer end, and when the
// keys were read.
vi.mock('../src/modules/library/repository.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/modules/library/repository.ts')>();
  return {
    ...actual,
    listLibraryImagesPage: vi.fn(actual.listLibraryImagesPage),
    readLibraryPageFromKey: vi.fn(actual.readLibraryPageFromKey),
    readLibraryBoundaries: vi.fn(actual.readLibraryBoundaries),
  };
});

const fixture = (name: string) => readFile(path.resolve(import.meta.dirname, 'fixtures/images', name));

let t: TestApp;
beforeAll(async () => {
  // Every image named low-*.jpg comes back below the review threshold.
  t = await buildTestApp({
    engine: createTestEngine({
      verdict: (_bytes, describe) => ({
        confidence: describe.context?.fileName?.startsWith('low-') ? 0.2 : 0.95,
      }),
    }),
  });
});
afterAll(() => t.cleanup());

const db = () => t.app.deps.database.db;

/**
 * `count` images of the user numbered from `from`, `perSecond` to each timestamp from 2026-01-01 on
 * (rows of one timestamp are ordered by id), flagged for review where `flagged`, a condition on n,
 * holds.
 */
const seedImages = (
  userId: string,
  count: number,
  {
    from = 1,
    perSecond = 20,
    flagged = sql`false`,
  }: { from?: number; perSecond?: number; flagged?: SQL } = {},
) =>
  db().execute(sql`insert into library_images (user_id, src, alt_text, needs_review, created_at)
    select ${userId}, 'https://example.com/' || n || '.jpg', 'Photo ' || n, ${flagged},
           timestamptz '2026-01-01 00:00:00+00' + ((n / ${sql.raw(String(perSecond))}) || ' seconds')::interval
    from generate_series(${from}::int, ${from + count - 1}::int) as n`);

/** The one-statement page at a given deep threshold, prepared once per filter and threshold. */
const statements = new Map<string, LibraryPageStatement>();
function pageStatement(filter: LibraryFilter, maxSkip: number) {
  const key = `${filter.needsReview ?? 'all'}_${maxSkip}`;
  let statement = statements.get(key);
  if (!statement) {
    statement = prepareLibraryPage(db(), filter, maxSkip, `test_library_page_${key}`);
    statements.set(key, statement);
  }
  return statement;
}
/** The key-page statement, prepared once per filter. */
const keyStatements = new Map<string, LibraryKeyPageStatement>();
function keyPageStatement(filter: LibraryFilter) {
  const key = `${filter.needsReview ?? 'all'}`;
  let statement = keyStatements.get(key);
  if (!statement) {
    statement = prepareLibraryPageFromKey(db(), filter, `test_library_key_page_${key}`);
    keyStatements.set(key, statement);
  }
  return statement;
}

/** What a caller sees: the pager's total with and without the needs-review filter, and imagecount. */
async function shownCounts(user: TestUser) {
  const total = async (query: string) =>
    Number(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/images/altText?page=1&pageSize=25${query}`,
          headers: user.auth,
        })
      ).headers['x-total-count'],
    );
  return {
    all: await total(''),
    needsReview: await total('&needsReview=true'),
    reviewed: await total('&needsReview=false'),
  };
}

/** The same, counted row by row. */
async function countedRows(userId: string) {
  const [row] = await queryRows<{ all: number; needs_review: number }>(
    db(),
    sql`select count(*)::int as all, (count(*) filter (where needs_review))::int as needs_review
        from library_images where user_id = ${userId}`,
  );
  const all = row?.all ?? 0;
  const needsReview = row?.needs_review ?? 0;
  return { all, needsReview, reviewed: all - needsReview };
}

async function expectExactCounts(user: TestUser) {
  expect(await shownCounts(user)).toEqual(await countedRows(user.id));
}

describe('the library totals (library_counts)', () => {
  it('stay exact across a batch, added rows, a rolled-back add, approve, edit and delete', async () => {
    const user = await createUser(t, 20);
    const neighbour = await createUser(t, 20);
    expect(await shownCounts(user)).toEqual({ all: 0, needsReview: 0, reviewed: 0 });

    // The batch runner lands each image with its own guarded insert (ADR 015).
    const parts = await Promise.all(
      ['astronaut.jpg', 'low-coffee.jpg', 'low-rocket.jpg'].map(async (fileName) => ({
        name: 'images',
        fileName,
        contentType: 'image/jpeg',
        bytes: await fixture(fileName.replace('low-', '')),
      })),
    );
    const upload = await uploadImages(t, user.auth, parts);
    expect(upload.statusCode, upload.body).toBe(202);
    expect((await waitForBatch(t, user.auth, upload.json().batchId)).status).toBe('completed');
    await expectExactCounts(user);
    expect((await shownCounts(user)).needsReview).toBe(2);

    // addLibraryImages inside a caller's transaction, one that commits and one that rolls back.
    await db().transaction((tx) =>
      addLibraryImages(tx, user.id, [
        { src: 'https://example.com/a.jpg', altText: 'A', needsReview: true },
        { src: 'https://example.com/b.jpg', altText: 'B' },
      ]),
    );
    await addLibraryImages(db(), neighbour.id, [{ src: 'https://example.com/n.jpg', altText: 'N' }]);
    await db()
      .transaction(async (tx) => {
        await addLibraryImages(tx, user.id, [{ src: 'https://example.com/c.jpg', altText: 'C' }]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await expectExactCounts(user);
    expect(await shownCounts(user)).toEqual({ all: 5, needsReview: 3, reviewed: 2 });

    // Approving and editing clear the flag; approving twice counts once.
    const flagged = (
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/images/altText?needsReview=true',
        headers: user.auth,
      })
    ).json() as { id: string }[];
    const [first, second, third] = flagged.map((row) => row.id);
    for (const id of [first, first]) {
      const approved = await t.app.inject({
        method: 'POST',
        url: `/api/v1/images/altText/${id}/approve`,
        headers: user.auth,
      });
      expect(approved.statusCode).toBe(200);
    }
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/images/altText/${second}`,
      headers: user.auth,
      payload: { alt_text: 'A person wrote this' },
    });
    expect(edited.statusCode).toBe(200);
    await expectExactCounts(user);
    expect(await shownCounts(user)).toEqual({ all: 5, needsReview: 1, reviewed: 4 });

    // Deleting: a flagged row, an approved one, and the neighbour's (not counted, not deleted).
    const neighbourRows = await db()
      .select({ id: libraryImages.id })
      .from(libraryImages)
      .where(eq(libraryImages.userId, neighbour.id));
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/images/altText',
      headers: user.auth,
      payload: { ids: [third, first, ...neighbourRows.map((row) => row.id)] },
    });
    expect(removed.json()).toEqual({ success: true, deleted: 2 });
    await expectExactCounts(user);
    await expectExactCounts(neighbour);
    expect(await shownCounts(user)).toEqual({ all: 3, needsReview: 0, reviewed: 3 });
    expect(await shownCounts(neighbour)).toEqual({ all: 1, needsReview: 0, reviewed: 1 });

    const profile = await t.app.inject({ method: 'GET', url: '/api/v1/users/profile', headers: user.auth });
    expect(profile.json().user.imagecount).toBe(3);
  });

  it('go with the account: deleting the user cascades to the rows and their counts', async () => {
    const user = await createUser(t);
    const neighbour = await createUser(t);
    await addLibraryImages(db(), user.id, [
      { src: 'https://example.com/a.jpg', altText: 'A', needsReview: true },
      { src: 'https://example.com/b.jpg', altText: 'B' },
    ]);
    await addLibraryImages(db(), neighbour.id, [{ src: 'https://example.com/n.jpg', altText: 'N' }]);
    await db().delete(users).where(eq(users.id, user.id));
    expect(await db().select().from(libraryCounts).where(eq(libraryCounts.userId, user.id))).toEqual([]);
    await expectExactCounts(neighbour);
    expect((await shownCounts(neighbour)).all).toBe(1);
  });

  it('stay exact when many writers land rows for one user at once', async () => {
    const user = await createUser(t);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db().transaction((tx) =>
          addLibraryImages(tx, user.id, [
            { src: `https://example.com/${i}.jpg`, altText: `Photo ${i}`, needsReview: i % 3 === 0 },
          ]),
        ),
      ),
    );
    await expectExactCounts(user);
    expect(await shownCounts(user)).toEqual({ all: 20, needsReview: 7, reviewed: 13 });
  });
});

describe('a page of the library', () => {
  it('is exactly the rows OFFSET would give, from either end, with or without the filter, in one statement when shallow', async () => {
    // Small libraries with few distinct timestamps, so that ties on created_at (one statement's rows)
    // are common and the id must break them as the naive order does.
    const libraryArb = fc.array(
      fc.record({
        minute: fc.integer({ min: 0, max: 4 }),
        flagged: fc.boolean(),
        confidence: fc.option(fc.constantFrom(0.2, 0.95, 1 / 3), { nil: null }),
        reasons: fc.constantFrom<AltTextReason[] | null>(
          null,
          [],
          [{ source: 'ocr', detail: 'EXIT', score: 0.91 }],
        ),
      }),
      {
        maxLength: 30,
      },
    );
    const filterArb = fc.constantFrom<LibraryFilter>({}, { needsReview: true }, { needsReview: false });
    await fc.assert(
      fc.asyncProperty(
        libraryArb,
        filterArb,
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: -1, max: 1 }),
        async (library, filter, limit, offset, step, threshold) => {
          const user = await createUser(t);
          if (library.length > 0)
            await db()
              .insert(libraryImages)
              .values(
                library.map((row, i) => ({
                  userId: user.id,
                  src: `https://example.com/${i}.jpg`,
                  altText: `Photo ${i}`,
                  needsReview: row.flagged,
                  confidence: row.confidence,
                  reasons: row.reasons,
                  createdAt: new Date(Date.UTC(2026, 0, 1, 12, row.minute)),
                })),
              );
          const flag =
            filter.needsReview === undefined ? sql`` : sql` and needs_review = ${filter.needsReview}`;
          const naive = await queryRows<{ id: string }>(
            db(),
            sql`select id from library_images where user_id = ${user.id}${flag}
                order by created_at desc, id desc limit ${limit} offset ${offset}`,
          );
          const total = library.filter((row) =>
            filter.needsReview === undefined ? true : row.flagged === filter.needsReview,
          ).length;
          const page = await listLibraryImagesPage(db(), user.id, { offset, limit, total }, filter);
          expect(page.map((row) => row.id)).toEqual(naive.map((row) => row.id));
          // One statement: the same total and rows (every field) unless the skip from the nearer end
          // reaches maxSkip (here just below, at or just above this page's skip), and then no row is read.
          const skip = Math.min(offset, Math.max(0, total - offset - limit));
          const maxSkip = Math.max(0, skip + threshold);
          const deep = offset < total && skip >= maxSkip;
          const { version, reorderVersion, ...shallow } = await readLibraryPage(
            pageStatement(filter, maxSkip),
            user.id,
            { offset, limit },
          );
          expect(shallow).toEqual({ total, deep, rows: deep ? [] : page });
          // The counts row's versions, in the same snapshot.
          const counts = await readLibraryCounts(db(), user.id);
          expect({ version, reorderVersion }).toEqual({
            version: counts.version,
            reorderVersion: counts.reorderVersion,
          });
          // From the nearest boundary key (every `step`-th row), as a cached listing reads it.
          const keys = await readLibraryBoundaries(db(), user.id, filter, step);
          expect(keys).toHaveLength(Math.ceil(total / step));
          const index = Math.min(Math.floor(offset / step), keys.length - 1);
          const key = keys[index];
          const start = key ? { key, position: index * step } : undefined;
          const fromKey = await listLibraryImagesPage(db(), user.id, { offset, limit, total, start }, filter);
          expect(fromKey.map((row) => row.id)).toEqual(naive.map((row) => row.id));
          // The same from the key in one statement (every field), while the counts' version is the
          // one seen; nothing once it has moved on.
          if (start && offset < total) {
            const statement = keyPageStatement(filter);
            expect(
              await readLibraryPageFromKey(statement, user.id, { offset, limit, start, version }),
            ).toEqual(page);
            expect(
              await readLibraryPageFromKey(statement, user.id, {
                offset,
                limit,
                start,
                version: version + 1,
              }),
            ).toBeUndefined();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('stays right in deep pages after rows are added, flagged and deleted (the boundary cache)', async () => {
    const user = await createUser(t);
    // 2,600 rows, 20 per timestamp: deep pages use boundary keys every 1,000 rows.
    const seed = (from: number, count: number) =>
      seedImages(user.id, count, { from, flagged: sql`n % 5 = 0` });
    await seed(1, 2600);
    const expectPagesAsOffset = async () => {
      for (const [filter, flag] of [
        ['', sql``],
        ['&needsReview=true', sql` and needs_review`],
      ] as const) {
        for (const page of [1, 30, 52, 60, 104]) {
          const response = await t.app.inject({
            method: 'GET',
            url: `/api/v1/images/altText?page=${page}&pageSize=25${filter}`,
            headers: user.auth,
          });
          const naive = await queryRows<{ id: string }>(
            db(),
            sql`select id from library_images where user_id = ${user.id}${flag}
                order by created_at desc, id desc limit 25 offset ${(page - 1) * 25}`,
          );
          expect(
            (response.json() as { id: string }[]).map((row) => row.id),
            `page ${page}${filter}`,
          ).toEqual(naive.map((row) => row.id));
        }
      }
    };
    await expectPagesAsOffset();
    // Older rows than all of them, then a flag cleared, then rows deleted from the middle.
    await db().execute(sql`insert into library_images (user_id, src, alt_text, created_at)
      select ${user.id}, 'https://example.com/old-' || n || '.jpg', 'Old ' || n, timestamptz '2025-01-01 00:00:00+00'
      from generate_series(1, 7) as n`);
    await expectPagesAsOffset();
    await db().execute(sql`update library_images set needs_review = false
      where id in (select id from library_images where user_id = ${user.id} and needs_review
                   order by created_at limit 3)`);
    await expectPagesAsOffset();
    await db().execute(sql`delete from library_images
      where id in (select id from library_images where user_id = ${user.id} order by created_at, id offset 1200 limit 11)`);
    await expectPagesAsOffset();
    await seed(5000, 40);
    await expectPagesAsOffset();
  });

  it('keeps its boundary keys while rows are only added at the newest end, and drops them after any other change', async () => {
    const user = await createUser(t);
    // 3,100 rows, 20 per timestamp, two in three flagged: both listings have deep pages.
    await seedImages(user.id, 3100, { flagged: sql`n % 3 <> 0` });
    const listings = [
      { query: '', flag: sql`` },
      { query: '&needsReview=true', flag: sql` and needs_review` },
    ] as const;
    const pageReads = vi.mocked(listLibraryImagesPage);
    const keyPageReads = vi.mocked(readLibraryPageFromKey);
    const boundaryReads = vi.mocked(readLibraryBoundaries);
    /**
     * A page through the API, checked (rows and total) against OFFSET over the whole listing; answers
     * whether the service started it from a boundary key fewer than 1,000 entries before it (in the
     * transaction or in the key-page statement, whichever read it: here nothing writes in between).
     */
    const readPage = async (listing: (typeof listings)[number], offset: number, limit = 25) => {
      pageReads.mockClear();
      keyPageReads.mockClear();
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/images/altText?page=${offset / limit + 1}&pageSize=${limit}${listing.query}`,
        headers: user.auth,
      });
      const naive = await queryRows<{ id: string; total: number }>(
        db(),
        sql`select id, (count(*) over ())::int as total from library_images where user_id = ${user.id}${listing.flag}
            order by created_at desc, id desc limit ${limit} offset ${offset}`,
      );
      const label = `offset ${offset}${listing.query}`;
      expect(
        (response.json() as { id: string }[]).map((row) => row.id),
        label,
      ).toEqual(naive.map((row) => row.id));
      expect(response.headers['x-total-count'], label).toBe(String(naive[0]?.total));
      // One read of the page: the key-page statement (its gate held), or the transaction's.
      expect(pageReads.mock.calls.length + keyPageReads.mock.calls.length, label).toBe(1);
      if (keyPageReads.mock.calls.length === 1)
        expect(await keyPageReads.mock.results[0]?.value, label).toBeDefined();
      const start = (pageReads.mock.calls[0] ?? keyPageReads.mock.calls[0])?.[2].start;
      return start && start.position <= offset && offset - start.position < 1000 ? 'key' : 'walk';
    };
    const total = async (listing: (typeof listings)[number]) =>
      (
        await queryRows<{ total: number }>(
          db(),
          sql`select count(*)::int as total from library_images where user_id = ${user.id}${listing.flag}`,
        )
      )[0]?.total ?? 0;
    const middle = async (listing: (typeof listings)[number]) => Math.floor((await total(listing)) / 50) * 25;
    /** The first deep page at a new version walks, the second reads the keys and starts from one. */
    const expectKeysReadAgain = async (what: string) => {
      for (const listing of listings) {
        boundaryReads.mockClear();
        expect(await readPage(listing, await middle(listing)), `${what}${listing.query}`).toBe('walk');
        expect(await readPage(listing, await middle(listing)), `${what}${listing.query}`).toBe('key');
        expect(boundaryReads, `${what}${listing.query}`).toHaveBeenCalledTimes(1);
      }
    };
    await expectKeysReadAgain('first deep pages');

    // Rows added newer than all (one statement's rows share a timestamp): every deep page still starts
    // from a key, the keys are not read again, and the answers are OFFSET's.
    let second = 0;
    boundaryReads.mockClear();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
        fc.constantFrom(25, 50),
        fc.nat(),
        async (flags, limit, pick) => {
          second += 1;
          await db()
            .insert(libraryImages)
            .values(
              flags.map((flagged, i) => ({
                userId: user.id,
                src: `https://example.com/new-${second}-${i}.jpg`,
                altText: `New ${second}-${i}`,
                needsReview: flagged,
                createdAt: new Date(Date.UTC(2026, 1, 1, 0, 0, second)),
              })),
            );
          for (const listing of listings) {
            // Any deep page: 1,000 or more rows from either end.
            const first = Math.ceil(1000 / limit);
            const last = Math.floor(((await total(listing)) - limit - 1000) / limit);
            const offset = (first + (pick % (last - first + 1))) * limit;
            expect(await readPage(listing, offset, limit)).toBe('key');
          }
        },
      ),
      { numRuns: 12 },
    );
    expect(boundaryReads).not.toHaveBeenCalled();

    // Writers landing rows at once (each its own transaction, created_at = its start): whichever
    // commits after a newer one is not an append; the pages stay OFFSET's either way.
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        db().transaction((tx) =>
          addLibraryImages(tx, user.id, [
            {
              src: `https://example.com/at-once-${i}.jpg`,
              altText: `At once ${i}`,
              needsReview: i % 2 === 0,
            },
          ]),
        ),
      ),
    );
    for (const listing of listings) await readPage(listing, await middle(listing));

    // An insert older than the newest row (an import with its own timestamps).
    await db().execute(sql`insert into library_images (user_id, src, alt_text, needs_review, created_at)
      values (${user.id}, 'https://example.com/old.jpg', 'Old', true, timestamptz '2026-01-01 00:01:00+00')`);
    await expectKeysReadAgain('after an older insert');
    // A delete.
    await db().execute(sql`delete from library_images
      where id in (select id from library_images where user_id = ${user.id} order by created_at, id offset 1500 limit 3)`);
    await expectKeysReadAgain('after a delete');
    // An approve (the flag clears: the row leaves the needs-review listing).
    const [flagged] = await queryRows<{ id: string }>(
      db(),
      sql`select id from library_images where user_id = ${user.id} and needs_review order by created_at limit 1 offset 700`,
    );
    const approved = await t.app.inject({
      method: 'POST',
      url: `/api/v1/images/altText/${flagged?.id}/approve`,
      headers: user.auth,
    });
    expect(approved.statusCode).toBe(200);
    await expectKeysReadAgain('after an approve');
    // A batch landing images one by one right after a reorder: the first deep page walks, the next
    // one (after an append) reads the keys, and later ones (after more appends) start from them.
    await db().execute(sql`delete from library_images
      where id in (select id from library_images where user_id = ${user.id} order by created_at, id offset 900 limit 1)`);
    for (const listing of listings) {
      boundaryReads.mockClear();
      const land = (n: number) =>
        addLibraryImages(db(), user.id, [
          {
            src: `https://example.com/landing-${listing.query}-${n}.jpg`,
            altText: `Landing ${n}`,
            needsReview: true,
          },
        ]);
      expect(await readPage(listing, await middle(listing)), `landing${listing.query}`).toBe('walk');
      await land(1);
      expect(await readPage(listing, await middle(listing)), `landing${listing.query}`).toBe('key');
      await land(2);
      expect(await readPage(listing, await middle(listing)), `landing${listing.query}`).toBe('key');
      expect(boundaryReads, `landing${listing.query}`).toHaveBeenCalledTimes(1);
    }
    // And rows added after all of them are an append again.
    await addLibraryImages(db(), user.id, [
      { src: 'https://example.com/last.jpg', altText: 'Last', needsReview: true },
    ]);
    for (const listing of listings) expect(await readPage(listing, await middle(listing))).toBe('key');
  });

  it('is one statement up to the deep threshold from either end, and the boundary-key path past it', async () => {
    const user = await createUser(t);
    // 2,050 rows, 10 per timestamp. At 25 per page the skip from the nearer end is 975 (page 40,
    // newest end), 1,000 (41), 1,000 (42, oldest end) and 975 (43, oldest end); deep from 1,000.
    await seedImages(user.id, 2050, { perSecond: 10 });
    const transaction = vi.spyOn(db(), 'transaction');
    try {
      for (const [page, deep] of [
        [40, false],
        [41, true],
        [42, true],
        [43, false],
      ] as const) {
        transaction.mockClear();
        const response = await t.app.inject({
          method: 'GET',
          url: `/api/v1/images/altText?page=${page}&pageSize=25`,
          headers: user.auth,
        });
        const naive = await queryRows<{ id: string }>(
          db(),
          sql`select id from library_images where user_id = ${user.id}
              order by created_at desc, id desc limit 25 offset ${(page - 1) * 25}`,
        );
        expect(response.headers['x-total-count']).toBe('2050');
        expect(
          (response.json() as { id: string }[]).map((row) => row.id),
          `page ${page}`,
        ).toEqual(naive.map((row) => row.id));
        expect(transaction, `page ${page}`).toHaveBeenCalledTimes(deep ? 1 : 0);
      }
    } finally {
      transaction.mockRestore();
    }
  });

  it('reads a deep page from a cached key in one more statement, without a transaction, unless a write lands in between', async () => {
    const user = await createUser(t);
    // 3,000 rows, 20 per timestamp, three in four flagged: both listings have deep pages at either end.
    await seedImages(user.id, 3000, { flagged: sql`n % 4 <> 0` });
    const transaction = vi.spyOn(db(), 'transaction');
    const keyPageReads = vi.mocked(readLibraryPageFromKey);
    const pageReads = vi.mocked(listLibraryImagesPage);
    /** A page through the API, rows and total checked against OFFSET; answers how it was read. */
    const readPage = async (query: string, flag: SQL, offset: number, limit: number) => {
      transaction.mockClear();
      keyPageReads.mockClear();
      pageReads.mockClear();
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/images/altText?page=${offset / limit + 1}&pageSize=${limit}${query}`,
        headers: user.auth,
      });
      const naive = await queryRows<{ id: string; total: number }>(
        db(),
        sql`select id, (count(*) over ())::int as total from library_images where user_id = ${user.id}${flag}
            order by created_at desc, id desc limit ${limit} offset ${offset}`,
      );
      const label = `offset ${offset} × ${limit}${query}`;
      expect(
        (response.json() as { id: string }[]).map((row) => row.id),
        label,
      ).toEqual(naive.map((row) => row.id));
      expect(response.headers['x-total-count'], label).toBe(String(naive[0]?.total));
      return {
        transactions: transaction.mock.calls.length,
        keyPage: await Promise.all(keyPageReads.mock.results.map((result) => result.value)),
        transactionStart: pageReads.mock.calls[0]?.[2].start,
      };
    };
    try {
      for (const [query, flag, total] of [
        ['', sql``, 3000],
        ['&needsReview=true', sql` and needs_review`, 2250],
      ] as const) {
        // The first deep page walks from the nearer end, the second reads the keys: transactions.
        for (let i = 0; i < 2; i++)
          expect(await readPage(query, flag, 1000, 25)).toMatchObject({ transactions: 1, keyPage: [] });
        // Then any deep page, nearer the newest or the oldest end: from a key, no transaction.
        for (const [offset, limit] of [
          [1000, 25],
          [total - 1025, 25],
          [Math.floor(total / 100) * 50, 50],
        ] as const) {
          const read = await readPage(query, flag, offset, limit);
          expect(read.transactions, `${offset}${query}`).toBe(0);
          expect(read.keyPage, `${offset}${query}`).toEqual([expect.any(Array)]);
        }
      }
      // A row lands between the two statements: the version moved, so the key-page statement reads
      // nothing and the transaction answers (from the keys still: the write was an append).
      const actual = await vi.importActual<typeof import('../src/modules/library/repository.ts')>(
        '../src/modules/library/repository.ts',
      );
      keyPageReads.mockImplementationOnce(async (...args) => {
        await addLibraryImages(db(), user.id, [
          { src: 'https://example.com/between.jpg', altText: 'Between' },
        ]);
        return actual.readLibraryPageFromKey(...args);
      });
      const fallback = await readPage('', sql``, 1500, 25);
      expect(fallback).toMatchObject({ transactions: 1, keyPage: [undefined] });
      expect(fallback.transactionStart).toBeDefined();
      expect(await readPage('', sql``, 1500, 25)).toMatchObject({
        transactions: 0,
        keyPage: [expect.any(Array)],
      });
    } finally {
      transaction.mockRestore();
    }
  });

  it('answers an empty list with the right total when the library is empty or the page is past its end', async () => {
    const user = await createUser(t);
    const page = async (query: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/images/altText?${query}`,
        headers: user.auth,
      });
      expect(response.statusCode).toBe(200);
      return { total: response.headers['x-total-count'], ids: (response.json() as { id: string }[]).length };
    };
    expect(await page('page=1')).toEqual({ total: '0', ids: 0 });
    expect(await page('page=1&needsReview=true')).toEqual({ total: '0', ids: 0 });
    await addLibraryImages(
      db(),
      user.id,
      Array.from({ length: 30 }, (_, i) => ({
        src: `https://example.com/${i}.jpg`,
        altText: `Photo ${i}`,
        needsReview: i < 3,
      })),
    );
    expect(await page('page=2&pageSize=25')).toEqual({ total: '30', ids: 5 });
    expect(await page('page=3&pageSize=25')).toEqual({ total: '30', ids: 0 });
    expect(await page('page=2&pageSize=25&needsReview=true')).toEqual({ total: '3', ids: 0 });
    expect(await page('page=2&pageSize=25&needsReview=false')).toEqual({ total: '27', ids: 2 });
    // Far beyond any count.
    expect(await page('page=900000000000000&pageSize=500')).toEqual({ total: '30', ids: 0 });
  });

  it('answers the same pages through the API as a walk over the whole library', async () => {
    const user = await createUser(t);
    await db()
      .insert(libraryImages)
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          userId: user.id,
          src: `https://example.com/${i}.jpg`,
          altText: `Photo ${i}`,
          needsReview: i % 4 === 0,
          createdAt: new Date(Date.UTC(2026, 0, 1, 12, i % 7)),
        })),
      );
    for (const filter of ['', '&needsReview=true']) {
      const whole = (
        await t.app.inject({ method: 'GET', url: `/api/v1/images/altText?x=1${filter}`, headers: user.auth })
      ).json() as { id: string }[];
      const paged: { id: string }[] = [];
      for (let page = 1; ; page++) {
        const response = await t.app.inject({
          method: 'GET',
          url: `/api/v1/images/altText?page=${page}&pageSize=25${filter}`,
          headers: user.auth,
        });
        expect(response.headers['x-total-count']).toBe(String(whole.length));
        const rows = response.json() as { id: string }[];
        if (rows.length === 0) break;
        paged.push(...rows);
      }
      expect(paged.map((row) => row.id)).toEqual(whole.map((row) => row.id));
    }
  });
});
