/**
 * Monitor benchmark (ADR 062): what a monitored audit's completion adds to its transaction (comparing
 * it with the previous run, in SQL), and one schedule tick over many monitors. Seeds one user, two
 * completed audits of BENCH_MONITOR_IMAGES images each (20,000, 200 a page; 5 % failing in each, never
 * the same ones, so every failure is new and every earlier one fixed: the most work for the lists),
 * and BENCH_MONITORS monitors (200) of one user due at once (10 start, the rest are skipped at the
 * active-audits limit and emailed: the slower path), then times `recordCompletedRun` and
 * `runDueMonitors` on an in-memory PGlite (a tick claims at most 100 monitors).
 *   node apps/api/bench/monitor-compare.ts
 */
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/db/client.ts';
import { createUser } from '../test/billing-helpers.ts';
import { buildTestApp } from '../test/helper.ts';

const imageCount = Number(process.env.BENCH_MONITOR_IMAGES ?? 20_000);
const monitorCount = Number(process.env.BENCH_MONITORS ?? 200);
const pages = Math.max(1, Math.ceil(imageCount / 200));

const step = (what: string) => process.stderr.write(`${new Date().toISOString()} ${what}\n`);
const t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true' } });
step('app built');
try {
  const db = t.app.deps.database.db;
  const user = await createUser(t);
  const seedStarted = performance.now();
  const [monitor] = await queryRows<{ id: string }>(
    db,
    sql`insert into monitors (user_id, url, scope, max_pages, every, next_run_at)
      values (${user.id}, 'https://bench.example/', 'site', 500, 'day', now() + interval '1 day') returning id`,
  );
  const auditIds: string[] = [];
  for (const [index, failEvery] of [
    [0, 20],
    [1, 20],
  ] as const) {
    const [audit] = await queryRows<{ id: string }>(
      db,
      sql`insert into audits (user_id, url, scope, max_pages, status, score, finished_at, created_at)
        values (${user.id}, 'https://bench.example/', 'site', 500, 'completed', 0.95, now(), now() - ${`${2 - index} days`}::interval)
        returning id`,
    );
    const auditId = audit?.id as string;
    auditIds.push(auditId);
    await db.execute(sql`insert into audit_pages (audit_id, url, status)
      select ${auditId}, 'https://bench.example/p' || p, 'scanned' from generate_series(1, ${pages}) p`);
    // The second audit's failing images are shifted by half a stride: none is failing in both.
    const offset = index === 0 ? 0 : failEvery / 2;
    await db.execute(sql`insert into audit_images (audit_id, page_id, position, page_url, src, alt, role, facts, verdict)
      select ${auditId}, pg.id, i % 200, pg.url, 'https://bench.example/img/' || i || '.jpg', 'alt', 'content', '{"element":"img"}'::jsonb,
        case when (i + ${offset}) % ${failEvery} = 0 then 'fail' else 'pass' end
      from generate_series(0, ${imageCount - 1}) i
      join audit_pages pg on pg.audit_id = ${auditId} and pg.url = 'https://bench.example/p' || (i / 200 + 1)`);
    await db.execute(sql`insert into monitor_runs (monitor_id, audit_id, created_at)
      values (${monitor?.id}, ${auditId}, now() - ${`${2 - index} days`}::interval)`);
  }
  const seedMs = performance.now() - seedStarted;
  step('seeded');

  const compareStarted = performance.now();
  const difference = await db.transaction((tx) =>
    t.app.deps.monitors.recordCompletedRun(tx, auditIds[1] as string),
  );
  const compareMs = performance.now() - compareStarted;
  step('compared');

  await db.execute(sql`insert into monitors (user_id, url, scope, max_pages, every, next_run_at)
    select ${user.id}, 'http://127.0.0.1:9/site-' || n || '/', 'page', 1, 'day', now() - interval '1 minute'
    from generate_series(1, ${monitorCount}) n`);
  const tickStarted = performance.now();
  const tick = await t.app.deps.monitors.runDueMonitors(new Date());
  const tickMs = performance.now() - tickStarted;

  console.log(
    JSON.stringify({
      images: imageCount,
      seedMs: Math.round(seedMs),
      compareMs: Math.round(compareMs),
      difference,
      monitorsDue: monitorCount,
      tick,
      tickMs: Math.round(tickMs),
      load: loadavg().map((n) => n.toFixed(2)),
    }),
  );
} finally {
  await t.cleanup();
}
