/**
 * Library benchmark: one user with 100,000 images (BENCH_LIBRARY_IMAGES), then the calls the /images
 * screen makes, each timed over BENCH_ROUNDS rounds through the whole HTTP stack (app.inject):
 * the first page, a middle page and the last page at 25 and 500 per page, the same with the
 * "needs review" filter (every 10th image is flagged, issue 11), an edit, and a delete of 500 ids.
 * Prints p50 and p95 per call.
 *   npm run bench:library                     (embedded PGlite on disk, the default)
 *   TEST_DATABASE_URL=postgres://… npm run bench:library   (a Postgres server)
 * Target on the 2-core reference machine: every page p95 ≤ 100 ms on PGlite.
 */
import { sql } from 'drizzle-orm';
import { createUser } from '../test/billing-helpers.ts';
import { buildTestApp } from '../test/helper.ts';

const imageCount = Number(process.env.BENCH_LIBRARY_IMAGES ?? 100_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
const targetP95Ms = 100;

const t = await buildTestApp({ persistent: true });
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
  await t.app.deps.database.db.execute(sql`analyze library_images`);
  const seedMs = performance.now() - seedStarted;

  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  };

  async function time(label: string, call: () => Promise<{ statusCode: number }>) {
    const samples: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      const response = await call();
      samples.push(performance.now() - started);
      if (response.statusCode >= 300) throw new Error(`${label}: HTTP ${response.statusCode}`);
    }
    return { label, p50: percentile(samples, 50), p95: percentile(samples, 95) };
  }

  const get = (query: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1/images/altText${query}`, headers: user.auth });
  const lastPage = (size: number) => Math.ceil(imageCount / size);
  const lastReviewPage = (size: number) => Math.max(1, Math.ceil(Math.floor(imageCount / 10) / size));
  const results = [
    await time('page 1 × 25', () => get(`?userId=${user.id}&page=1&pageSize=25`)),
    await time('page 1 × 500', () => get('?page=1&pageSize=500')),
    await time(`page ${lastPage(25) >> 1} × 25 (middle)`, () =>
      get(`?page=${lastPage(25) >> 1}&pageSize=25`),
    ),
    await time(`page ${lastPage(25)} × 25 (last)`, () => get(`?page=${lastPage(25)}&pageSize=25`)),
    await time(`page ${lastPage(500)} × 500 (last)`, () => get(`?page=${lastPage(500)}&pageSize=500`)),
    await time('review page 1 × 25', () => get('?page=1&pageSize=25&needsReview=true')),
    await time(`review page ${lastReviewPage(25)} × 25 (last)`, () =>
      get(`?page=${lastReviewPage(25)}&pageSize=25&needsReview=true`),
    ),
    await time(`review page ${lastReviewPage(500)} × 500 (last)`, () =>
      get(`?page=${lastReviewPage(500)}&pageSize=500&needsReview=true`),
    ),
  ];
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
  // Each round deletes a different page of 500, as a person clearing the library would.
  let offset = 0;
  results.push(
    await time('delete 500 ids', async () => {
      offset += 1;
      const page = (await get(`?page=${offset}&pageSize=500`)).json() as { id: string }[];
      return t.app.inject({
        method: 'DELETE',
        url: '/api/v1/images/altText',
        headers: user.auth,
        payload: { ids: page.map((row) => row.id) },
      });
    }),
  );

  const driver = t.config.database.driver;
  console.log(
    `library benchmark: ${imageCount.toLocaleString('en-US')} images per user, ${driver}, ${rounds} rounds`,
  );
  console.log(`seeded in ${(seedMs / 1000).toFixed(1)} s`);
  for (const r of results)
    console.log(
      `${r.label.padEnd(28)} p50 ${r.p50.toFixed(1).padStart(7)} ms   p95 ${r.p95.toFixed(1).padStart(7)} ms`,
    );
  const worst = Math.max(...pageResults.map((r) => r.p95));
  console.log(
    `worst page p95: ${worst.toFixed(1)} ms (target ≤ ${targetP95Ms} ms) ${worst <= targetP95Ms ? 'OK' : 'SLOW'}`,
  );
} finally {
  await t.cleanup();
}
