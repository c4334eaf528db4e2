import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { packedRepeat, sheetXml, xlsxOf, zipParts } from './fixtures/zip.ts';
import { createTestEngine, multipartBody } from './generation-helpers.ts';
import { watchHealth } from './health-watch.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * Import files built to hurt. Each is answered in words (a 4xx, or
 * its bad rows rejected by line), nothing is charged for rows that were not accepted, and the API
 * keeps answering: /health never waits a second while the file is read (the file is read in the
 * import sandbox's thread, not on the event loop).
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true' }, engine: createTestEngine() });
});
afterAll(() => t.cleanup());

const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function importFile(user: TestUser, file: { name: string; type: string; bytes: Uint8Array }) {
  const body = multipartBody([
    { name: 'file', fileName: file.name, contentType: file.type, bytes: file.bytes },
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/images/import-csv',
    payload: body.payload,
    headers: { ...user.auth, ...body.headers },
  });
}

/** Sends the file while /health is polled; the answer, and the longest /health wait. */
async function importWatched(user: TestUser, file: { name: string; type: string; bytes: Uint8Array }) {
  const health = watchHealth(t.app);
  const response = await importFile(user, file);
  const { worstMs, answers } = await health.stop();
  expect(answers).toBeGreaterThan(0);
  return { response, worstMs };
}

describe('hostile import files', () => {
  it('refuses an .xlsx zip bomb (1 MB whose shared strings unpack to 400 MB) with 413, /health answering', async () => {
    const user = await createUser(t, 10);
    const before = await balanceOf(t, user);
    const strings = await packedRepeat(
      '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>',
      'a'.repeat(1024 * 1024),
      400,
      '</t></si></sst>',
    );
    const bytes = xlsxOf({ sheet: sheetXml([['image_url']]), sharedStrings: strings });
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024);

    const { response, worstMs } = await importWatched(user, { name: 'bomb.xlsx', type: xlsxType, bytes });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringMatching(/shared-strings part of the \.xlsx file unpacks to more than 64 MB/),
    });
    expect(worstMs).toBeLessThan(1000);
    expect(await balanceOf(t, user)).toBe(before);
  });

  it('refuses a zip bomb whose headers claim a small size, in words', async () => {
    const user = await createUser(t, 10);
    const strings = await packedRepeat('<sst><si><t>', 'b'.repeat(1024 * 1024), 200, '</t></si></sst>');
    const bytes = xlsxOf({
      sheet: sheetXml([['image_url']]),
      sharedStrings: strings,
      sharedStringsClaimedSize: 1000,
    });
    const { response, worstMs } = await importWatched(user, { name: 'liar.xlsx', type: xlsxType, bytes });
    expect([400, 413]).toContain(response.statusCode);
    expect(response.json().message).toMatch(/\.xlsx file/);
    expect(worstMs).toBeLessThan(1000);
  });

  it('refuses more than a million shared strings with 413', async () => {
    const user = await createUser(t, 10);
    const strings = await packedRepeat('<sst>', '<si><t>x</t></si>'.repeat(1000), 1001, '</sst>');
    const bytes = xlsxOf({ sheet: sheetXml([['image_url']]), sharedStrings: strings });
    const response = await importFile(user, { name: 'many.xlsx', type: xlsxType, bytes });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toMatch(/more than 1,000,000 distinct texts/);
  });

  it('reads an .xlsx whose rows and cells have no r reference (optional in OOXML)', async () => {
    const user = await createUser(t, 10);
    const rows = [
      ['id', 'image_url', 'caption'],
      ['n-1', 'http://127.0.0.1:9/a.jpg', 'First'],
      ['n-2', 'not a url', ''],
      ['n-3', 'http://127.0.0.1:9/c.jpg', 'Third'],
    ];
    const bytes = xlsxOf({ sheet: sheetXml(rows, false) });
    const response = await importFile(user, { name: 'norefs.xlsx', type: xlsxType, bytes });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({
      accepted: 2,
      rejectedTotal: 1,
      rejected: [{ line: 3, reason: expect.stringMatching(/not a URL/) }],
    });
  });

  it('answers 400 in words for an .xlsx whose zip is broken, has no worksheet or broken XML', async () => {
    const user = await createUser(t, 10);
    const notZip = await importFile(user, {
      name: 'x.xlsx',
      type: xlsxType,
      bytes: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]),
    });
    expect(notZip.statusCode).toBe(400);
    expect(notZip.json().message).toMatch(/\.xlsx file could not be read: it is not a zip archive/);
    const noSheet = await importFile(user, {
      name: 'empty.xlsx',
      type: xlsxType,
      bytes: zipParts([{ name: 'hello.txt', data: 'hi' }]),
    });
    expect(noSheet.statusCode).toBe(400);
    expect(noSheet.json().message).toMatch(/it has no worksheet/);
    const brokenXml = await importFile(user, {
      name: 'broken.xlsx',
      type: xlsxType,
      bytes: zipParts([
        { name: 'xl/worksheets/sheet1.xml', data: '<worksheet><sheetData><row><c t="s"><v>99' },
      ]),
    });
    expect(brokenXml.statusCode).toBe(400);
  });

  it('rejects a CSV row of 5 MB of filled cells and a 1 MB cell by line, keeping the other rows', async () => {
    const user = await createUser(t, 10);
    const before = await balanceOf(t, user);
    const csv = [
      'id,image_url',
      'ok-1,http://127.0.0.1:9/1.jpg',
      `commas,http://127.0.0.1:9/2.jpg${',x'.repeat(2.5 * 1024 * 1024)}`,
      `long-${'x'.repeat(1024 * 1024)},http://127.0.0.1:9/3.jpg`,
      'ok-4,http://127.0.0.1:9/4.jpg',
    ].join('\n');
    const { response, worstMs } = await importWatched(user, {
      name: 'wide.csv',
      type: 'text/csv',
      bytes: Buffer.from(csv),
    });
    expect(response.statusCode).toBe(202);
    const body = response.json();
    expect(body).toMatchObject({ accepted: 2, rejectedTotal: 2 });
    expect(body.rejected).toEqual([
      { line: 3, reason: expect.stringMatching(/more than 64 cells or a cell longer than 4,096 characters/) },
      { line: 4, reason: expect.stringMatching(/more than 64 cells or a cell longer than 4,096 characters/) },
    ]);
    expect(await balanceOf(t, user)).toBe(before - 2);
    expect(worstMs).toBeLessThan(1000);
  });

  it('rejects CSV rows with a NUL byte in id, existing_alt or caption by line, never a 500', async () => {
    const user = await createUser(t, 10);
    const csv = [
      'id,image_url,existing_alt,caption',
      'a\u0000b,http://127.0.0.1:9/1.jpg,,',
      'n-2,http://127.0.0.1:9/2.jpg,old\u0000alt,',
      'n-3,http://127.0.0.1:9/3.jpg,,cap\u0000tion',
      'n-4,http://127.0.0.1:9/4.jpg,,',
    ].join('\n');
    const response = await importFile(user, { name: 'nul.csv', type: 'text/csv', bytes: Buffer.from(csv) });
    expect(response.statusCode).toBe(202);
    const body = response.json();
    expect(body.accepted).toBe(1);
    expect(body.rejected.map((r: { line: number }) => r.line)).toEqual([2, 3, 4]);
    for (const row of body.rejected) expect(row.reason).toMatch(/NUL character/);
  });

  it('imports x.png and x.png#frag as one row and charges one credit', async () => {
    const user = await createUser(t, 10);
    const before = await balanceOf(t, user);
    const csv = [
      'image_url',
      'http://127.0.0.1:9/x.png',
      'http://127.0.0.1:9/x.png#frag',
      'http://127.0.0.1:9/x.png#other',
    ].join('\n');
    const response = await importFile(user, { name: 'frag.csv', type: 'text/csv', bytes: Buffer.from(csv) });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ accepted: 1, duplicates: 2 });
    expect(await balanceOf(t, user)).toBe(before - 1);
  });
});
