/**
 * API read benchmark (issue 15): 100 concurrent clients read the library page and the credits
 * balance for 20 s against one API process (PROCESS_ROLE=api) on a throw-away Postgres server.
 *   npm run bench:api
 *   npm run bench:api -- --connections 100 --duration 20 --json
 *   npm run bench:api -- --log-level warn   (without the per-request log lines the API writes at info)
 *   npm run bench:api -- --think 500         (each client pauses 250–750 ms between rounds, as people do)
 * Each client is a closed loop over keep-alive connections (Node's fetch): library page (a random
 * page of 25 of its account's 1,000 images), then credits, then again; no think time, so this is
 * the process at saturation. Latency is measured per request; errors are non-2xx answers and
 * failed requests. Traffic goes to 127.0.0.1 only, and stops after --duration seconds.
 * Target: 0 errors, p95 ≤ 50 ms.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { addLibraryImages } from '../apps/api/src/modules/library/service.ts';
import { createBenchUser, startCluster, startModelServer } from './lib/app-processes.ts';
import { printBenchJson, round } from './lib/bench-json.ts';
import { startPostgres } from './lib/postgres.ts';

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '100' },
    duration: { type: 'string', default: '20' },
    accounts: { type: 'string', default: '10' },
    'log-level': { type: 'string', default: 'info' },
    think: { type: 'string', default: '0' },
    // Read by lib/bench-json.ts; declared because parseArgs refuses unknown options.
    json: { type: 'boolean', default: false },
  },
});
const connections = Number(args.connections);
const durationMs = Number(args.duration) * 1000;
const accounts = Number(args.accounts);
const thinkMs = Number(args.think);
const imagesPerAccount = 1_000;
const pageSize = 25;
const targetP95Ms = 50;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main() {
  const postgres = await startPostgres();
  // The API needs an engine configured to start; nothing here calls it.
  const model = await startModelServer(200);
  const cluster = await startCluster({
    databaseUrl: postgres.url,
    modelUrl: model.url,
    env: {
      LOG_LEVEL: args['log-level'],
      ...(process.env.BENCH_API_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_API_NODE_OPTIONS } : {}),
    },
  });
  try {
    const users: Awaited<ReturnType<typeof createBenchUser>>[] = [];
    const handle = await openDatabase({ driver: 'postgres', url: postgres.url });
    try {
      for (let a = 0; a < accounts; a++) {
        const user = await createBenchUser(cluster, 100);
        await addLibraryImages(
          handle.db,
          user.id,
          Array.from({ length: imagesPerAccount }, (_, i) => ({
            src: `https://example.com/${a}/${i}.jpg`,
            altText: `Image ${i} of account ${a}.`,
            engine: 'openai',
            model: 'bench-vision',
          })),
        );
        users.push(user);
      }
    } finally {
      await handle.close();
    }

    const base = `${cluster.apiUrl}/api/v1`;
    const pages = imagesPerAccount / pageSize;
    const latencies: { library: number[]; credits: number[] } = { library: [], credits: [] };
    let errors = 0;
    const firstErrors: string[] = [];
    const get = async (kind: 'library' | 'credits', url: string, headers: Record<string, string>) => {
      const started = performance.now();
      try {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        latencies[kind].push(performance.now() - started);
        if (!res.ok) {
          errors++;
          if (firstErrors.length < 3) firstErrors.push(`${url} → ${res.status}`);
        }
      } catch (error) {
        errors++;
        if (firstErrors.length < 3) firstErrors.push(`${url} → ${(error as Error).message}`);
      }
    };

    // A short warm-up (JIT, connection pools), then the measured window.
    const stopAt = { warm: performance.now() + 2_000, end: 0 };
    const client = async (i: number, until: () => number) => {
      const user = users[i % users.length];
      if (!user) return;
      while (performance.now() < until()) {
        const page = 1 + Math.floor(Math.random() * pages);
        await get('library', `${base}/images/altText?page=${page}&pageSize=${pageSize}`, user.headers);
        await get('credits', `${base}/credits/remaining`, user.headers);
        if (thinkMs > 0) await sleep(thinkMs * (0.5 + Math.random()));
      }
    };
    await Promise.all(Array.from({ length: connections }, (_, i) => client(i, () => stopAt.warm)));
    latencies.library = [];
    latencies.credits = [];
    errors = 0;
    stopAt.end = performance.now() + durationMs;
    const started = performance.now();
    await Promise.all(Array.from({ length: connections }, (_, i) => client(i, () => stopAt.end)));
    const seconds = (performance.now() - started) / 1000;

    const all = [...latencies.library, ...latencies.credits].sort((a, b) => a - b);
    const row = (name: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `${name.padEnd(10)} ${String(sorted.length).padStart(7)} requests  p50 ${percentile(sorted, 50).toFixed(1)} ms  p95 ${percentile(sorted, 95).toFixed(1)} ms  p99 ${percentile(sorted, 99).toFixed(1)} ms`;
    };
    console.log(
      `${connections} clients${thinkMs ? ` (think time ~${thinkMs} ms)` : ''} for ${seconds.toFixed(1)} s against one API process on Postgres`,
    );
    console.log(row('library', latencies.library));
    console.log(row('credits', latencies.credits));
    console.log(row('all', all));
    console.log(`throughput ${(all.length / seconds).toFixed(0)} requests/s, errors ${errors}`);
    for (const line of firstErrors) console.log(`  error: ${line}`);
    const p95 = percentile(all, 95);
    console.log(
      `p95 ${p95.toFixed(1)} ms (target ≤ ${targetP95Ms} ms) ${p95 <= targetP95Ms && errors === 0 ? 'OK' : 'ABOVE TARGET'}`,
    );
    if (p95 > targetP95Ms || errors > 0) process.exitCode = 1;
    printBenchJson('api', {
      p95Ms: round(p95),
      errors,
      p50Ms: round(percentile(all, 50)),
      p99Ms: round(percentile(all, 99)),
      connections,
      thinkMs,
      requests: all.length,
      requestsPerSecond: Math.round(all.length / seconds),
    });
  } finally {
    await cluster.stop();
    await model.close();
    await postgres.stop();
  }
}

await main();
