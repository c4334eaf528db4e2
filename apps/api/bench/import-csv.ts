/**
 * CSV import benchmark: a 100,000-row file (BENCH_IMPORT_ROWS) with every column filled,
 * written to disk and streamed to POST /images/import-csv over real HTTP, as a client would send it.
 * Prints the file size, the time to the 202 and the process's peak RSS above where it started
 * (sampled every 20 ms), and the same for the parser alone (no database).
 *   node apps/api/bench/import-csv.ts            (embedded PGlite in memory)
 *   TEST_DATABASE_URL=postgres://… node --expose-gc apps/api/bench/import-csv.ts   (a Postgres server)
 * With BENCH_IMPORT_LIVE=1 (and --expose-gc) it also collects garbage every 250 ms and prints the
 * peak of the heap still in use: what the import holds, which the RSS peak mixes with uncollected
 * garbage (slower; use it to compare sizes, not for the time).
 */
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkImportRecords, type ImportRow } from '../src/modules/generation/check-import.ts';
import { readCsvRecords } from '../src/modules/generation/import-file.ts';
import { createRowSpool } from '../src/modules/generation/import-spool.ts';
import { createUser } from '../test/billing-helpers.ts';
import { buildTestApp } from '../test/helper.ts';

const rowCount = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const live = process.env.BENCH_IMPORT_LIVE === '1' && globalThis.gc;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Peak RSS while `work` runs, sampled every 20 ms; with BENCH_IMPORT_LIVE, the live heap's peak. */
async function measure<T>(work: () => Promise<T>) {
  globalThis.gc?.();
  const startRss = process.memoryUsage().rss;
  const startHeap = process.memoryUsage().heapUsed;
  let peak = startRss;
  let liveHeap = startHeap;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const collector = live
    ? setInterval(() => {
        live();
        liveHeap = Math.max(liveHeap, process.memoryUsage().heapUsed);
      }, 250)
    : undefined;
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    if (live) console.log(`  live heap (collected every 250 ms): peak +${mb(liveHeap - startHeap)}`);
    return { result, ms: performance.now() - started, startRss, peak };
  } finally {
    clearInterval(timer);
    clearInterval(collector);
  }
}

const dir = await mkdtemp(path.join(tmpdir(), 'altwise-import-bench-'));
const file = path.join(dir, 'images.csv');
const lines = ['id,image_url,page_url,existing_alt,caption,keywords,language'];
for (let n = 1; n <= rowCount; n++)
  lines.push(
    `sku-${n},https://cdn.example.com/products/${n}/main-photo.jpg,https://shop.example.com/p/${n},"Product photo ${n}","A red running shoe, side view, number ${n}",running shoe;red;sport,en`,
  );
await writeFile(file, `${lines.join('\r\n')}\r\n`);
lines.length = 0;
const size = (await stat(file)).size;

const spool = await createRowSpool<ImportRow>();
const parse = await measure(() =>
  checkImportRecords(readCsvRecords(createReadStream(file)), { englishOnly: true }, spool),
);
await spool.remove();
console.log(
  `parser alone: ${parse.result.accepted.count.toLocaleString('en-US')} rows of ${mb(size)} in ${parse.ms.toFixed(0)} ms; ` +
    `RSS ${mb(parse.startRss)} → peak ${mb(parse.peak)} (+${mb(parse.peak - parse.startRss)})`,
);

// One process as `npm start` runs it (an API-only role needs Postgres); one engine slot, so the
// batch's first images (unreachable example.com URLs, refunded) barely compete with the import.
const t = await buildTestApp({ env: { GENERATION_CONCURRENCY: '1' } });
try {
  const user = await createUser(t, rowCount);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const boundary = '----altwisebench';
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="images.csv"\r\ncontent-type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const upload = await measure(async () => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/images/import-csv',
      headers: {
        ...user.auth,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    req.write(head);
    for await (const chunk of createReadStream(file)) if (!req.write(chunk)) await once(req, 'drain');
    req.end(tail);
    const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
    let body = '';
    for await (const chunk of res) body += chunk;
    return { status: res.statusCode, body: JSON.parse(body) };
  });
  console.log(
    `POST /images/import-csv: ${upload.result.status}, accepted ${upload.result.body.accepted?.toLocaleString('en-US')} ` +
      `in ${(upload.ms / 1000).toFixed(1)} s; RSS ${mb(upload.startRss)} → peak ${mb(upload.peak)} (+${mb(upload.peak - upload.startRss)})`,
  );
} finally {
  await t.cleanup();
  await rm(dir, { recursive: true, force: true });
}
