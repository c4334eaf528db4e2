import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextSchema, looksLikeImage } from '../../bin/describe-inputs.ts';
import { csvColumns, reasonsText } from '../../bin/describe-output.ts';
import { mapInOrder } from '../../bin/map-in-order.ts';
import { altwiseProcess, type Run, altwise as runAltwise } from '../cli/static-site.ts';

/**
 * `altwise describe` over many images: the CLI with the real offline engine, on the committed
 * fixtures, run in this process as the binary runs it (one usage error goes through the real
 * binary in a child process). Two engine runs for the whole file (one --json, one --csv) over the
 * same folder and manifest; usage errors stop before the models load.
 */

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'images');

const altwise = (args: string[], cwd: string) => runAltwise(args, { cwd });

/** RFC 4180 reader, independent of the writer under test. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field || record.length) throw new Error('CSV does not end with CRLF');
  return records;
}

const awkwardId = 'He said "hi", then\nleft';
const taylorCaption =
  'Peter Taylor was the first Palace player to be capped by England while in the Third Division.';

let dir: string;
let server: Server;
let jsonRun: Run;
let csvRun: Run;
let csvText: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'altwise-cli-'));
  const photos = join(dir, 'photos');
  await mkdir(join(photos, 'nested'), { recursive: true });
  await mkdir(join(dir, 'site', 'img'), { recursive: true });
  await mkdir(join(dir, 'elsewhere'));
  for (const name of ['sale-banner.png', 'spacer.gif', 'not-an-image.png']) {
    await copyFile(join(fixtures, name), join(photos, name));
  }
  // An image without an extension is found by its first bytes; a text file is skipped.
  await copyFile(join(fixtures, 'bar-chart.png'), join(photos, 'chart'));
  await writeFile(join(photos, 'notes.txt'), 'not a picture\n');
  await copyFile(join(fixtures, 'horse.webp'), join(photos, 'nested', 'horse.webp'));
  await copyFile(join(fixtures, 'astronaut.jpg'), join(dir, 'site', 'img', 'astronaut.jpg'));
  await copyFile(join(fixtures, 'spacer.gif'), join(dir, 'site', 'img', 'spacer.gif'));

  server = createServer((request, response) => {
    readFile(join(fixtures, (request.url ?? '/').slice(1))).then(
      (bytes) => response.writeHead(200, { 'content-type': 'image/png' }).end(bytes),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const remote = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sale-banner.png`;

  const lines = [
    {
      id: 'taylor',
      image: 'img/astronaut.jpg',
      context: { pageTitle: 'Peter Taylor', caption: taylorCaption },
    },
    // Scrapers write "" or null for what they did not find: that is no context, not an error.
    { id: 'no-context', image: 'img/astronaut.jpg', context: { caption: '', existingAlt: null } },
    '{"id": "broken", "image": ',
    { id: 'gone', image: 'img/missing.jpg' },
    { id: 'typo', image: 'img/astronaut.jpg', context: { captoin: 'A typo in a key' } },
    { id: awkwardId, image: 'img/spacer.gif' },
    { id: 'remote', image: remote },
  ];
  await writeFile(
    join(dir, 'site', 'items.jsonl'),
    `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n\n`,
  );

  // Run from another folder: manifest paths must resolve against the manifest, not the working folder.
  const inputs = [photos, '--manifest', join(dir, 'site', 'items.jsonl')];
  [jsonRun, csvRun] = await Promise.all([
    altwise(['describe', ...inputs, '--json'], join(dir, 'elsewhere')),
    altwise(['describe', ...inputs, '--allow-private', '--csv', 'out.csv'], join(dir, 'elsewhere')),
  ]);
  csvText = await readFile(join(dir, 'elsewhere', 'out.csv'), 'utf8');
}, 180_000);

afterAll(async () => {
  await new Promise((done) => server?.close(done));
  if (dir) await rm(dir, { recursive: true, force: true });
});

const expectedIds = () => [
  join(dir, 'photos', 'chart'),
  join(dir, 'photos', 'not-an-image.png'),
  join(dir, 'photos', 'sale-banner.png'),
  join(dir, 'photos', 'spacer.gif'),
  'taylor',
  'no-context',
  'items.jsonl:3',
  'gone',
  'typo',
  awkwardId,
  'remote',
];

describe('altwise describe --json over a folder and a manifest', () => {
  const rows = () =>
    jsonRun.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  const row = (id: string) => rows().find((r) => r.id === id);

  it('exits 0 and prints one JSON line per image, in input order', () => {
    expect(jsonRun.code, jsonRun.stderr).toBe(0);
    expect(rows().map((r) => r.id)).toEqual(expectedIds());
  });

  it('gives every described image the promised fields', () => {
    const described = rows().filter((r) => !('error' in r));
    expect(described.map((r) => r.id)).toEqual([
      join(dir, 'photos', 'chart'),
      join(dir, 'photos', 'sale-banner.png'),
      join(dir, 'photos', 'spacer.gif'),
      'taylor',
      'no-context',
      awkwardId,
    ]);
    for (const r of described) {
      expect(r).toMatchObject({ engine: 'offline', decorative: expect.any(Boolean) });
      expect(typeof r.altText).toBe('string');
      expect(r.confidence).toBeGreaterThanOrEqual(0);
      expect(r.confidence).toBeLessThanOrEqual(1);
      expect(typeof r.needsReview).toBe('boolean');
      expect(Array.isArray(r.reasons)).toBe(true);
      expect(r.model).toMatch(/centernet/);
      // A chart's long description, or null (ADR 050).
      expect(r.longDescription === null || typeof r.longDescription === 'string').toBe(true);
    }
    // No page or file gave these images words: the engine wrote them (ADR 057).
    expect(row('taylor').origin).toBe('ai');
    expect(row('no-context').origin).toBe('ai');
    expect(row(join(dir, 'photos', 'sale-banner.png')).altText).toMatch(/Summer Sale/);
    expect(row(join(dir, 'photos', 'chart')).altText).not.toBe('');
    expect(row(awkwardId)).toMatchObject({ image: 'img/spacer.gif', decorative: true, altText: '' });
  });

  it('uses a manifest line’s context', () => {
    expect(row('taylor')).toMatchObject({ image: 'img/astronaut.jpg' });
    expect(row('taylor').altText).toMatch(/Peter Taylor/);
    expect(row('taylor').signals.contextUsed).toContain('caption');
    expect(row('no-context').altText).not.toMatch(/Peter Taylor/);
  });

  it('reports a bad line, a missing image, an unreadable file and a refused URL on their own lines', () => {
    expect(row('items.jsonl:3')).toEqual({
      id: 'items.jsonl:3',
      image: null,
      error: expect.stringMatching(/JSON/),
    });
    expect(row('gone')).toEqual({ id: 'gone', image: 'img/missing.jpg', error: 'The file does not exist.' });
    expect(row('typo')).toEqual({
      id: 'typo',
      image: 'img/astronaut.jpg',
      error: expect.stringMatching(/captoin/),
    });
    expect(row(join(dir, 'photos', 'not-an-image.png')).error).toMatch(/not an image/);
    // Without --allow-private the SSRF-safe fetcher refuses a local address.
    expect(row('remote').error).toMatch(/private or local address/);
    expect(row('remote').altText).toBeUndefined();
  });

  it('skips non-images and sub-folders in a folder and says so on stderr', () => {
    expect(jsonRun.stderr).toContain(`skipped ${join(dir, 'photos', 'notes.txt')} (not an image)`);
    expect(jsonRun.stderr).toContain(`skipped ${join(dir, 'photos', 'nested')}`);
    expect(jsonRun.stdout).not.toMatch(/horse|notes\.txt/);
    expect(jsonRun.stderr).toMatch(/6 of 11 images described, 5 failed/);
  });
});

describe('altwise describe --csv over a folder and a manifest', () => {
  const records = () => parseCsv(csvText);
  const record = (id: string) => {
    const [header, ...rows] = records();
    const found = rows.find((r) => r[0] === id);
    return found && Object.fromEntries((header ?? []).map((name, i) => [name, found[i]]));
  };

  it('writes a header and one row per image, in input order', () => {
    expect(csvRun.code, csvRun.stderr).toBe(0);
    const [header, ...rows] = records();
    expect(header).toEqual([...csvColumns]);
    expect(rows.map((r) => r[0])).toEqual(expectedIds());
    expect(rows.every((r) => r.length === csvColumns.length)).toBe(true);
  });

  it('quotes fields with quotes, commas and line breaks (RFC 4180)', () => {
    expect(csvText).toContain('"He said ""hi"", then\nleft",img/spacer.gif,,true,');
    expect(record(awkwardId)).toMatchObject({ decorative: 'true', altText: '', error: '' });
  });

  it('fills the described columns or the error column', () => {
    expect(record('taylor')).toMatchObject({
      image: 'img/astronaut.jpg',
      altText: expect.stringMatching(/Peter Taylor/),
      decorative: 'false',
      engine: 'offline',
      longDescription: '',
      error: '',
      origin: 'ai',
    });
    expect(Number(record('taylor')?.confidence)).toBeGreaterThan(0);
    expect(record('taylor')?.needsReview).toMatch(/^(true|false)$/);
    expect(record('gone')).toMatchObject({
      altText: '',
      confidence: '',
      error: 'The file does not exist.',
      origin: '',
    });
    expect(record('typo')?.error).toMatch(/captoin/);
    // With --allow-private the URL is fetched and described.
    expect(record('remote')).toMatchObject({ altText: expect.stringMatching(/Summer Sale/), error: '' });
  });

  it('prints a readable line per image and a summary naming the file', () => {
    expect(csvRun.stdout).toMatch(/^taylor \(img\/astronaut\.jpg\): .*Peter Taylor.*\(confidence \d\.\d\d/m);
    expect(csvRun.stdout).toMatch(/^gone \(img\/missing\.jpg\): error: The file does not exist\.$/m);
    expect(csvRun.stderr).toMatch(/7 of 11 images described, 4 failed.*\(written to out\.csv\)/);
  });
});

describe('altwise describe usage errors', () => {
  it('exits 2 with a message and no output for each usage error, and 0 for --help', async () => {
    const cwd = dir;
    const banner = join(fixtures, 'sale-banner.png');
    await writeFile(join(dir, 'bad-context.json'), JSON.stringify({ pageTitel: 'Typo' }));
    const runs = await Promise.all([
      altwiseProcess(['describe'], { cwd }),
      altwise(['describe', banner, '--colour'], cwd),
      altwise(['describe', '--manifest', 'no-such.jsonl'], cwd),
      altwise(['describe', banner, '--json', '--csv', 'out.csv'], cwd),
      altwise(['describe', banner, '--context-file', 'bad-context.json'], cwd),
      altwise(['describe', banner, '--concurrency', '0'], cwd),
      altwise(['summarise', banner], cwd),
      altwise(['describe', '--help'], cwd),
    ]);
    const messages = [
      /at least one image, folder, URL or --manifest/,
      /Unknown option '--colour'/,
      /manifest no-such\.jsonl does not exist/,
      /either --json or --csv/,
      /pageTitel/,
      /--concurrency must be a whole number/,
      /Unknown command "summarise"/,
    ];
    messages.forEach((message, i) => {
      expect(runs[i]).toMatchObject({ code: 2, stdout: '' });
      expect(runs[i]?.stderr).toMatch(message);
      expect(runs[i]?.stderr).toMatch(/Usage: altwise describe/);
    });
    expect(runs.at(-1)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: altwise describe/) });
  }, 60_000);
});

describe('batch helpers', () => {
  it('writes reasons as one short line', () => {
    expect(
      reasonsText([
        { source: 'caption', detail: `${'A very long caption '.repeat(5)}end` },
        { source: 'detection', detail: 'person', score: 0.912 },
      ]),
    ).toMatch(/^caption “A very long caption .{30,}…”; detection “person” 0\.91$/);
    expect(reasonsText([])).toBe('');
  });

  it('reads a page context, dropping empty fields and refusing unknown ones', () => {
    expect(contextSchema.parse({ caption: ' A dog ', heading: '', pageTitle: null, role: null })).toEqual({
      caption: 'A dog',
    });
    expect(contextSchema.safeParse({ caption: 'A dog', captoin: 'typo' }).success).toBe(false);
    expect(contextSchema.safeParse({ role: 'banner' }).success).toBe(false);
  });

  it('recognises images by their first bytes', async () => {
    for (const name of ['astronaut.jpg', 'bar-chart.png', 'spacer.gif', 'horse.webp']) {
      expect(looksLikeImage(await readFile(join(fixtures, name))), name).toBe(true);
    }
    expect(looksLikeImage(await readFile(join(fixtures, 'not-an-image.png')))).toBe(false);
    expect(looksLikeImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe(true);
  });

  it('runs a few at a time and yields in input order', async () => {
    let running = 0;
    let most = 0;
    const delays = [30, 5, 20, 1, 10, 1, 15];
    const results: number[] = [];
    for await (const n of mapInOrder(delays.keys(), 3, async (i) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((done) => setTimeout(done, delays[i]));
      running -= 1;
      return i;
    })) {
      results.push(n);
    }
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(3);
  });
});
