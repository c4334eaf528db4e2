/**
 * Library benchmark: one user with 100,000 images (BENCH_LIBRARY_IMAGES), then the calls the /images
 * screen makes, each timed over BENCH_ROUNDS rounds (100; after BENCH_WARMUP = 3 untimed calls) through
 * the whole HTTP stack (app.inject):
 * the first page, a middle page and the last page at 25 and 500 per page, the same with the
 * "needs review" filter (every 10th image is flagged), an edit, and a delete of 500 ids.
 * Then what the counting triggers cost a write (ADR 032): one-row inserts (as the batch runner lands
 * images) and a 500-row insert, with the triggers on and off. Prints p50 and p95 per call and the
 * load average; with `--json` the last line is one JSON object.
 *   npm run bench:library                     (embedded PGlite on disk, the default)
 *   npm run bench:library -- --postgres       (a throw-away Postgres server, as the test suite starts)
 *   TEST_DATABASE_URL=postgres://… npm run bench:library   (a Postgres server of yours)
 * Target on the 2-core reference machine: every page p95 ≤ 25 ms on PGlite, ≤ 10 ms on Postgres.
 */
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { printBenchJson, round } from '../../../scripts/lib/bench-json.ts';
import { startPostgres } from '../../../scripts/lib/postgres.ts';
import { createUser } from '../test/billing-helpers.ts';
import { buildTestApp } from '../test/helper.ts';

const imageCount = Number(process.env.BENCH_LIBRARY_IMAGES ?? 100_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 100);
/** Untimed calls before each label's rounds, as a running server has already made them (JIT, plans). */
const warmUp = Number(process.env.BENCH_WARMUP ?? 3);
const postgres = process.argv.includes('--postgres') ? await startPostgres() : undefined;
if (postgres) process.env.TEST_DATABASE_URL = postgres.url;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const loadBefore = load();

const t = await buildTestApp({ persistent: true });
const driver = t.config.database.driver;
const targetP95Ms = driver === 'postgres' ? 10 : 25;
try {
  const user = await createUser(t);
  const seedStarted = performance.now();
  // Spread over a year so that the newest-first order has real work to do. Every row carries a
  // confidence and two reasons, as the engine writes them; every 10th needs review.
  await t.app.deps.database.db.execute(sql`
    insert into library_images (user_id, src, alt_text, engine, created_at, confidence, reasons, needs_review)
    select ${user.id}, 'https://example.com/images/' || n || '.jpg', 'A photo numbered ' || n, 'offline',
           now() - (n || ' seconds')::interval * 300,
           case when n % 10 = 0 then 0.3 else 0.8 end,
           '[{"source":"caption","detail":"A harbour at dusk with fishing boats"},{"source":"detection","detail":"boat","score":0.91}]'::jsonb,
           n % 10 = 0
    from generate_series(1, ${imageCount}) as n`);
  // Someone else's library of the same size shares the table.
  const other = await createUser(t);
  await t.app.deps.database.db.execute(sql`
    insert into library_images (user_id, src, alt_text)
    select ${other.id}, 'https://example.com/other/' || n || '.jpg', 'Another photo ' || n
    from generate_series(1, ${imageCount}) as n`);
  // The steady state: a Postgres server's autovacuum marks the inserted pages all-visible (so an
  // index-only walk reads no rows); BENCH_VACUUM=0 measures right after the inserts instead.
  await t.app.deps.database.db.execute(
    process.env.BENCH_VACUUM === '0' ? sql`analyze library_images` : sql`vacuum analyze library_images`,
  );
  const seedMs = performance.now() - seedStarted;

  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  };

  async function time(
    label: string,
    call: () => Promise<{ statusCode: number }>,
    before?: () => Promise<unknown>,
  ) {
    const samples: number[] = [];
    for (let round = 0; round < warmUp; round++) {
      await before?.();
      await call();
    }
    for (let round = 0; round < rounds; round++) {
      await before?.();
      const started = performance.now();
      const response = await call();
      samples.push(performance.now() - started);
      if (response.statusCode >= 300) throw new Error(`${label}: HTTP ${response.statusCode}`);
    }
    return { label, p50: percentile(samples, 50), p95: percentile(samples, 95) };
  }

  const get = (query: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1/images/altText${query}`, headers: user.auth });
  const results: { label: string; p50: number; p95: number }[] = [];
  // First, middle and last page at 25 and 500 per page, of the whole library and of the
  // needs-review filter (every 10th image).
  for (const review of [false, true]) {
    const rows = review ? Math.floor(imageCount / 10) : imageCount;
    for (const size of [25, 500]) {
      const last = Math.max(1, Math.ceil(rows / size));
      const pages: [string, number][] = [
        ['first', 1],
        ['middle', Math.max(1, Math.ceil(last / 2))],
        ['last', last],
      ];
      for (const [where, page] of pages) {
        const label = `${review ? 'review ' : ''}${where} p${page} × ${size}`;
        const filter = review ? '&needsReview=true' : '';
        results.push(
          await time(label, () => get(`?userId=${user.id}&page=${page}&pageSize=${size}${filter}`)),
        );
      }
    }
  }
  const pageResults = [...results];

  const firstPage = (await get('?page=1&pageSize=500')).json() as { id: string }[];
  const target = firstPage[0]?.id ?? '';
  results.push(
    await time('edit one alt text', () =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v1/images/altText/${target}`,
        headers: user.auth,
        payload: { alt_text: 'A lighthouse at dusk' },
      }),
    ),
  );
  const db = t.app.deps.database.db;
  const insertOne = () =>
    db.execute(sql`insert into library_images (user_id, src, alt_text, needs_review)
                   values (${user.id}, 'https://example.com/new.jpg', 'A new photo', false)`);
  const insertMany = () =>
    db.execute(sql`insert into library_images (user_id, src, alt_text, needs_review)
                   select ${user.id}, 'https://example.com/new/' || n || '.jpg', 'A new photo', n % 10 = 0
                   from generate_series(1, 500) as n`);
  // Each round deletes a different page of 500, as a person clearing the library would; 500 new rows
  // are added before each round (untimed) so that any number of rounds keeps the library's size.
  let offset = 0;
  results.push(
    await time(
      'delete 500 ids',
      async () => {
        offset = (offset % 50) + 1;
        const page = (await get(`?page=${offset}&pageSize=500`)).json() as { id: string }[];
        return t.app.inject({
          method: 'DELETE',
          url: '/api/v1/images/altText',
          headers: user.auth,
          payload: { ids: page.map((row) => row.id) },
        });
      },
      insertMany,
    ),
  );

  // What the counting triggers add to a write: one-row inserts as the batch runner lands them, and
  // a 500-row insert, each with the triggers on, then off (then on again).
  const asCall = (run: () => Promise<unknown>) => async () => {
    await run();
    return { statusCode: 200 };
  };
  const writeResults = [
    await time('insert 1 row (counted)', asCall(insertOne)),
    await time('insert 500 rows (counted)', asCall(insertMany)),
  ];
  const triggers = ['library_counts_insert', 'library_counts_delete', 'library_counts_update'];
  for (const name of triggers)
    await db.execute(sql`alter table library_images disable trigger ${sql.identifier(name)}`);
  writeResults.push(
    await time('insert 1 row (no triggers)', asCall(insertOne)),
    await time('insert 500 rows (no trig.)', asCall(insertMany)),
  );
  for (const name of triggers)
    await db.execute(sql`alter table library_images enable trigger ${sql.identifier(name)}`);
  results.push(...writeResults);
  // A deep page right after the listing changed: the process's boundary keys are stale and are read
  // again (one index-only walk over the listing) before the page (ADR 032). Not a page target row.
  const middle = Math.ceil(Math.ceil(imageCount / 25) / 2);
  results.push(await time('middle × 25 after a write', () => get(`?page=${middle}&pageSize=25`), insertOne));

  console.log(
    `library benchmark: ${imageCount.toLocaleString('en-US')} images per user, ${driver}, ${rounds} rounds`,
  );
  console.log(
    `seeded in ${(seedMs / 1000).toFixed(1)} s; load average before ${loadBefore}, after ${load()}`,
  );
  for (const r of results)
    console.log(
      `${r.label.padEnd(28)} p50 ${r.p50.toFixed(1).padStart(7)} ms   p95 ${r.p95.toFixed(1).padStart(7)} ms`,
    );
  const worst = Math.max(...pageResults.map((r) => r.p95));
  const first = Math.max(...pageResults.filter((r) => r.label.includes('first')).map((r) => r.p95));
  console.log(
    `worst page p95: ${worst.toFixed(1)} ms (target ≤ ${targetP95Ms} ms) ${worst <= targetP95Ms ? 'OK' : 'SLOW'}`,
  );
  printBenchJson('library', {
    worstPageP95Ms: round(worst),
    firstPageP95Ms: round(first),
    driver,
    images: imageCount,
    targetP95Ms,
    loadAverage: load(),
    pages: Object.fromEntries(pageResults.map((r) => [r.label, { p50: round(r.p50), p95: round(r.p95) }])),
    writes: Object.fromEntries(writeResults.map((r) => [r.label, { p50: round(r.p50), p95: round(r.p95) }])),
  });
} finally {
  await t.cleanup();
  await postgres?.stop();
}
