/**
 * Offline engine benchmark: model start-up, per-image latency (p50, p95) one at a time,
 * throughput with the pool kept busy, and the process's peak memory (worker threads included).
 *   npm run bench:engine            (ENGINE_WORKERS and BENCH_ROUNDS tune it)
 *   npm run bench:engine -- --json  (last line: one JSON object)
 * Targets on the 2-core reference machine: p50 ≤ 0.8 s, p95 ≤ 2 s, peak ≤ 1 GB, start-up ≤ 5 s.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printBenchJson, round } from '../../../scripts/lib/bench-json.ts';
import { createAltTextEngine } from '../src/engines/alt-text-engine.ts';
import { engineOptionsFromEnv } from '../src/engines/engine-options.ts';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'images');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const files = (await readdir(fixtures)).filter(
  (f) => /\.(jpe?g|png|webp|gif)$/i.test(f) && !f.startsWith('not-'),
);
const images = await Promise.all(
  files.map(async (f) => ({ name: f, bytes: await readFile(join(fixtures, f)) })),
);

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 25);

// The benchmark is an entry point: it reads the environment through the engine's own schema.
const options = engineOptionsFromEnv({ ...process.env, ALT_TEXT_ENGINE: 'offline' });
const engine = createAltTextEngine(options);

const startupStarted = performance.now();
await engine.warmUp();
const startupMs = performance.now() - startupStarted;

const latencies: number[] = [];
const perImage = new Map<string, { ms: number[]; alt: string }>();
for (let round = 0; round < rounds; round++) {
  for (const image of images) {
    const t0 = performance.now();
    const result = await engine.describeImage(image.bytes, { context: { fileName: image.name } });
    const ms = performance.now() - t0;
    latencies.push(ms);
    const entry = perImage.get(image.name) ?? {
      ms: [],
      alt: result.decorative ? '(decorative)' : result.altText,
    };
    entry.ms.push(ms);
    perImage.set(image.name, entry);
  }
}

// Throughput: every image `rounds` times, with enough requests in flight to keep every worker busy.
const burst = Array.from({ length: rounds }, () => images).flat();
const inFlight = options.offline.workers * 4;
const burstStarted = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (next < burst.length) {
      const image = burst[next++];
      if (image) await engine.describeImage(image.bytes);
    }
  }),
);
const burstSeconds = (performance.now() - burstStarted) / 1000;

clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
await engine.close();

const p = (q: number) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
};
const verdict = (ok: boolean) => (ok ? 'ok' : 'OVER TARGET');
const lines = [
  `offline engine benchmark: ${images.length} images × ${rounds} rounds, ${options.offline.workers} worker thread(s)`,
  '',
  ...[...perImage.entries()].map(
    ([name, e]) => `  ${name.padEnd(22)} ${median(e.ms).toFixed(0).padStart(5)} ms  ${e.alt}`,
  ),
  '',
  `model start-up    ${(startupMs / 1000).toFixed(2)} s   (target ≤ 5 s)   ${verdict(startupMs <= 5000)}`,
  `latency p50       ${(p(0.5) / 1000).toFixed(2)} s   (target ≤ 0.8 s) ${verdict(p(0.5) <= 800)}`,
  `latency p95       ${(p(0.95) / 1000).toFixed(2)} s   (target ≤ 2 s)   ${verdict(p(0.95) <= 2000)}`,
  `throughput        ${(burst.length / burstSeconds).toFixed(2)} images/s (${burst.length} images, ${inFlight} in flight)`,
  `peak memory (RSS) ${(peakRss / 1024 / 1024).toFixed(0)} MB  (target ≤ 1024 MB) ${verdict(peakRss <= 1024 ** 3)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
printBenchJson('engine', {
  p50Seconds: round(p(0.5) / 1000, 2),
  p95Seconds: round(p(0.95) / 1000, 2),
  peakRssMb: Math.round(peakRss / 1024 / 1024),
  startupSeconds: round(startupMs / 1000, 2),
  imagesPerSecond: round(burst.length / burstSeconds, 2),
  images: images.length,
  rounds,
  workers: options.offline.workers,
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
