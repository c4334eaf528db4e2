import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationBatches } from '../src/db/tables/generation-batches.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, multipartBody, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * POST /images/import-csv reads a CSV or .xlsx file row by row into one
 * ordinary batch; GET /images/batches/{id}/results.csv gives the results back with the caller's ids.
 */

const rocket = readFile(path.resolve(import.meta.dirname, 'fixtures/images/rocket.jpg'));
let server: Server;
let base: string;

beforeAll(async () => {
  const bytes = await rocket;
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let t: TestApp;
const engine = createTestEngine();
beforeAll(async () => {
  t = await buildTestApp({
    env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' },
    engine,
  });
});
afterAll(() => t.cleanup());

function importFile(
  user: TestUser,
  file: { name?: string; type?: string; bytes: Uint8Array | string },
  fields: Record<string, string> = {},
) {
  const body = multipartBody([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    {
      name: 'file',
      fileName: file.name ?? 'images.csv',
      contentType: file.type ?? 'text/csv',
      bytes: typeof file.bytes === 'string' ? Buffer.from(file.bytes) : file.bytes,
    },
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/images/import-csv',
    payload: body.payload,
    headers: { ...user.auth, ...body.headers },
  });
}

const batchesOf = (user: TestUser) =>
  t.app.deps.database.db.select().from(generationBatches).where(eq(generationBatches.userId, user.id));

/** results.csv parsed the simple way: these tests' cells hold no commas or quotes. */
async function resultsOf(user: TestUser, batchId: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/images/batches/${batchId}/results.csv`,
    headers: user.auth,
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/csv/);
  const [header, ...lines] = response.body.trimEnd().split('\r\n');
  return { header, rows: lines.map((line) => line.split(',')) };
}

describe('POST /images/import-csv', () => {
  it('imports good rows once, names bad rows by line, charges accepted rows only and keeps the ids', async () => {
    const user = await createUser(t, 1_000);
    const lines = ['id,image_url,page_url,existing_alt,caption,keywords,language'];
    const expectedRejections: { line: number; reason: RegExp }[] = [];
    for (let n = 1; n <= 300; n++) {
      const line = lines.length + 1;
      if (n % 50 === 0) {
        lines.push(`sku-${n},ftp://example.com/${n}.jpg,,,,,`);
        expectedRejections.push({ line, reason: /http:\/\/ or https:\/\//i });
      } else if (n % 75 === 0) {
        lines.push(`sku-${n},not a url,,,,,`);
        expectedRejections.push({ line, reason: /not a URL/ });
      } else if (n % 60 === 0) {
        // Already imported as sku-1: imported once.
        lines.push(`sku-dup-${n},${base}/images/1.jpg,,,,,`);
      } else {
        lines.push(
          `sku-${n},${base}/images/${n}.jpg,https://shop.example/p/${n},old alt ${n},"Caption, with a comma ${n}",red shoe;running,en-GB`,
        );
      }
    }
    // A quoted cell across two lines, and a row in a language the offline engine cannot write.
    lines.push(`sku-multi,${base}/images/multi.jpg,,,"first line\nsecond line",,`);
    // Lines are the file's physical lines: the row above spans two.
    const germanLine = lines.length + 2;
    lines.push(`sku-de,${base}/images/de.jpg,,,,,de`);
    expectedRejections.push({ line: germanLine, reason: /writes English only/ });
    const emptyLine = lines.length + 2;
    lines.push('sku-empty,,,,,,');
    expectedRejections.push({ line: emptyLine, reason: /image_url is empty/ });
    const before = await balanceOf(t, user);

    const response = await importFile(user, { bytes: `${lines.join('\r\n')}\r\n` });
    expect(response.statusCode).toBe(202);
    const body = response.json();
    const rejectedLines = expectedRejections.map((rejection) => rejection.line).sort((a, b) => a - b);
    expect(body.rejected.map((row: { line: number }) => row.line)).toEqual(rejectedLines);
    for (const expected of expectedRejections)
      expect(body.rejected.find((row: { line: number }) => row.line === expected.line).reason).toMatch(
        expected.reason,
      );
    expect(body.rejectedTotal).toBe(expectedRejections.length);
    // Rows 60, 120, 180 and 240 repeat row 1's URL (300 is an ftp row).
    expect(body.duplicates).toBe(4);
    // 300 rows less 6 ftp, 2 bad URLs (75, 225) and 4 duplicates, plus the multi-line row.
    expect(body.accepted).toBe(300 - 6 - 2 - 4 + 1);
    expect(body.creditsReserved).toBe(body.accepted);
    expect(await balanceOf(t, user)).toBe(before - body.accepted);

    const progress = await waitForBatch(t, user.auth, body.batchId, 60_000);
    expect(progress).toMatchObject({ status: 'completed', total: body.accepted, completed: body.accepted });

    const results = await resultsOf(user, body.batchId);
    expect(results.header).toBe('id,image_url,alt_text,status,long_description,origin');
    expect(results.rows).toHaveLength(body.accepted);
    expect(results.rows[0]).toEqual([
      'sku-1',
      `${base}/images/1.jpg`,
      expect.stringContaining('Test description of old alt 1'),
      'done',
      '',
      'ai',
    ]);
    expect(results.rows.map((row) => row[0])).not.toContain('sku-dup-60');
    expect(results.rows.at(-1)?.[0]).toBe('sku-multi');

    // Context and keywords went with each image to the engine.
    const call = engine.calls.find((c) => c.options.context?.existingAlt === 'old alt 7');
    expect(call?.options).toMatchObject({
      language: 'en-GB',
      keywords: ['red shoe', 'running'],
      context: { caption: 'Caption, with a comma 7', pageUrl: 'https://shop.example/p/7' },
    });
  });

  it('exports ids that look like formulas with an apostrophe, so no spreadsheet runs them', async () => {
    const user = await createUser(t, 10);
    const ids = ["=cmd|' /C calc'!A0", '+1+1', '-2+3', '@SUM(A1:A2)', 'a=b'];
    const file = ['id,image_url', ...ids.map((id, n) => `${id},${base}/formula/${n}.jpg`)].join('\n');
    const response = await importFile(user, { bytes: `${file}\n` });
    expect(response.statusCode).toBe(202);
    await waitForBatch(t, user.auth, response.json().batchId);
    const results = await resultsOf(user, response.json().batchId);
    expect(results.rows.map((row) => row[0])).toEqual([
      "'=cmd|' /C calc'!A0",
      "'+1+1",
      "'-2+3",
      "'@SUM(A1:A2)",
      'a=b',
    ]);
    expect(results.rows.map((row) => row[3])).toEqual(Array(ids.length).fill('done'));
  });

  it('reads an .xlsx file with the same header', async () => {
    const user = await createUser(t, 10);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Images');
    sheet.addRow(['image_url', 'id', 'keywords']);
    sheet.addRow([`${base}/xlsx/a.jpg`, 'A-1', 'lamp;desk']);
    sheet.addRow(['mailto:someone@example.com', 'A-2', '']);
    sheet.addRow([`${base}/xlsx/b.jpg`, 'A-3', '']);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());

    const response = await importFile(user, {
      name: 'images.xlsx',
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      bytes,
    });
    expect(response.statusCode).toBe(202);
    const body = response.json();
    expect(body).toMatchObject({ accepted: 2, duplicates: 0, rejectedTotal: 1 });
    expect(body.rejected).toEqual([{ line: 3, reason: expect.stringMatching(/http/) }]);
    await waitForBatch(t, user.auth, body.batchId);
    const results = await resultsOf(user, body.batchId);
    expect(results.rows.map((row) => [row[0], row[3]])).toEqual([
      ['A-1', 'done'],
      ['A-3', 'done'],
    ]);
    expect(engine.calls.some((c) => c.options.keywords?.join() === 'lamp,desk')).toBe(true);
  });

  it('answers 400 naming an unknown or missing header column, and charges nothing', async () => {
    const user = await createUser(t, 10);
    const unknown = await importFile(user, { bytes: `image_url,colour\n${base}/a.jpg,red\n` });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('"colour"');
    const missing = await importFile(user, { bytes: `id,page_url\n1,${base}/\n` });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('"image_url"');
    const empty = await importFile(user, { bytes: '' });
    expect(empty.statusCode).toBe(400);
    expect(await balanceOf(t, user)).toBe(10);
    expect(await batchesOf(user)).toHaveLength(0);
  });

  it('answers 402 with the credits needed when the balance is short, and queues nothing', async () => {
    const user = await createUser(t, 2);
    const rows = Array.from({ length: 5 }, (_, n) => `${base}/short/${n}.jpg`);
    const response = await importFile(user, { bytes: `image_url\n${rows.join('\n')}\nftp://x/y.jpg\n` });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ code: 'INSUFFICIENT_CREDITS', creditsNeeded: 5 });
    expect(response.json().message).toMatch(/needs 5 credits/);
    expect(await balanceOf(t, user)).toBe(2);
    expect(await batchesOf(user)).toHaveLength(0);
  });

  it('refuses a file with a 100,001st row with 413, importing nothing', async () => {
    const user = await createUser(t, 200_000);
    const rows = Array.from({ length: 100_001 }, (_, n) => `${base}/many/${n}.jpg`);
    const response = await importFile(user, { bytes: `image_url\n${rows.join('\n')}\n` });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toMatch(/more than 100,000 rows/);
    expect(await balanceOf(t, user)).toBe(200_000);
    expect(await batchesOf(user)).toHaveLength(0);
  });

  it('answers 422 for a non-English language with the offline engine, charging nothing', async () => {
    const user = await createUser(t, 10);
    const response = await importFile(user, { bytes: `image_url\n${base}/lang/a.jpg\n` }, { language: 'fr' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'The offline engine writes English only; configure a vision model for other languages.',
      code: 'LANGUAGE_NOT_SUPPORTED',
    });
    expect(await balanceOf(t, user)).toBe(10);
    expect(await batchesOf(user)).toHaveLength(0);
  });

  it('shows a batch’s results only to its owner', async () => {
    const owner = await createUser(t, 5);
    const stranger = await createUser(t, 5);
    const response = await importFile(owner, { bytes: `image_url,id\n${base}/own/a.jpg,mine\n` });
    expect(response.statusCode).toBe(202);
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/v1/images/batches/${response.json().batchId}/results.csv`,
      headers: stranger.auth,
    });
    expect(other.statusCode).toBe(404);
    await waitForBatch(t, owner.auth, response.json().batchId);
  });
});
