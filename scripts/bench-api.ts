/**
 * API read benchmark: 100 concurrent clients read the library page and the credits
 * balance for 20 s against one API process (PROCESS_ROLE=api) on a throw-away Postgres server.
 *   npm run bench:api
 *   npm run bench:api -- --connections 100 --duration 20 --json
 *   npm run bench:api -- --log-level warn   (without the per-request log lines the API writes at info)
 * Each client is one keep-alive connection of autocannon in a closed loop: a random account's library
 * page (a random page of 25 of its 1,000 images), then that account's credits, then again, with no
 * think time, so this is the process at saturation. Latency is measured per request; errors are
 * non-2xx answers, failed requests and timeouts. Traffic goes to 127.0.0.1 only, and stops after
 * --duration seconds.
 * Target: 0 errors, p95 ≤ 50 ms.
 */

import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
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
    // Read by lib/bench-json.ts; declared because parseArgs refuses unknown options.
    json: { type: 'boolean', default: false },
  },
});
const connections = Number(args.connections);
const durationMs = Number(args.duration) * 1000;
const accounts = Number(args.accounts);
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

    const pages = imagesPerAccount / pageSize;
    // What the load reads is a real answer: a full page of the account's own images and its total.
    const probe = users[0];
    if (probe) {
      const res = await fetch(`${cluster.apiUrl}/api/v1/images/altText?page=${pages}&pageSize=${pageSize}`, {
        headers: probe.headers,
      });
      const images = (await res.json()) as { alt_text?: string }[];
      const total = Number(res.headers.get('x-total-count'));
      if (
        res.status !== 200 ||
        images.length !== pageSize ||
        !images[0]?.alt_text ||
        total !== imagesPerAccount
      )
        throw new Error(`the library page answered ${res.status}, ${images.length} images, total ${total}`);
    }
    // Each connection repeats: a random account's library page (a random page of 25), then that
    // account's credits. autocannon's own histogram has no p95, so latencies are kept here.
    const load = (seconds: number) =>
      new Promise<{ result: autocannon.Result; latencies: number[]; firstErrors: string[] }>(
        (resolve, reject) => {
          const latencies: number[] = [];
          const firstErrors: string[] = [];
          type Round = { headers?: Record<string, string> };
          const instance = autocannon(
            {
              url: cluster.apiUrl,
              connections,
              duration: seconds,
              requests: [
                {
                  method: 'GET',
                  setupRequest: (request, context) => {
                    const round = context as Round;
                    round.headers = users[Math.floor(Math.random() * users.length)]?.headers ?? {};
                    const page = 1 + Math.floor(Math.random() * pages);
                    return {
                      ...request,
                      path: `/api/v1/images/altText?page=${page}&pageSize=${pageSize}`,
                      headers: round.headers,
                    };
                  },
                },
                {
                  method: 'GET',
                  setupRequest: (request, context) => ({
                    ...request,
                    path: '/api/v1/credits/remaining',
                    headers: (context as Round).headers ?? {},
                  }),
                },
              ],
            },
            (error, result) => (error ? reject(error) : resolve({ result, latencies, firstErrors })),
          );
          instance.on('response', (_client, statusCode, _bytes, responseTime) => {
            latencies.push(responseTime);
            if ((statusCode < 200 || statusCode > 299) && firstErrors.length < 3)
              firstErrors.push(`status ${statusCode}`);
          });
          instance.on('reqError', (error) => {
            if (firstErrors.length < 3) firstErrors.push(error.message);
          });
        },
      );

    // A short warm-up (JIT, connection pools), then the measured window.
    await load(2);
    const { result, latencies, firstErrors } = await load(durationMs / 1000);
    const seconds = result.duration;
    const errors = result.errors + result.timeouts + result.non2xx;
    const all = latencies.sort((a, b) => a - b);
    const row = (name: string, sorted: number[]) =>
      `${name.padEnd(10)} ${String(sorted.length).padStart(7)} requests  p50 ${percentile(sorted, 50).toFixed(1)} ms  p95 ${percentile(sorted, 95).toFixed(1)} ms  p99 ${percentile(sorted, 99).toFixed(1)} ms`;
    console.log(`${connections} clients for ${seconds.toFixed(1)} s against one API process on Postgres`);
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
