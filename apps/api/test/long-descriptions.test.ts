import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, uploadImages, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

/**
 * Long descriptions (point 5; ADR 050): an engine's long description for a chart is stored
 * with the library row and the audit suggestion, answered by the API, edited by PATCH and review,
 * and exported (results.csv, the audit report as CSV and xlsx).
 */

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');
const chartDescription =
  'Visitors per month. January: 1,200; February: 1,450; March: 1,800; April: 2,100; May: 2,400; June: 2,650.';
/** The engine gives a long description to charts only (their file name or old alt says "chart"). */
const engine = createTestEngine({
  longDescription: (_bytes, describe) =>
    /chart/i.test(`${describe.context?.fileName ?? ''} ${describe.context?.existingAlt ?? ''}`)
      ? chartDescription
      : null,
});

const page = `<!doctype html><html><head><title>Traffic</title></head><body>
  <h1>Traffic report</h1>
  <img src="/img/bar-chart.png" alt="chart.png">
  <img src="/img/coffee.jpg" alt="IMG_2041.jpg">
</body></html>`;

let server: Server;
let base = '';
let t: TestApp;

const api = (who: TestUser, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: who.auth, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = req.url ?? '';
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    try {
      const bytes = await readFile(path.join(fixtures, path.basename(url)));
      res.writeHead(200, { 'content-type': url.endsWith('.png') ? 'image/png' : 'image/jpeg' }).end(bytes);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' }, engine });
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('long descriptions in the library', () => {
  let owner: TestUser;
  let chartId: string;
  let photoId: string;
  let batchId: string;

  beforeAll(async () => {
    owner = await createUser(t, 5);
    const response = await uploadImages(t, owner.auth, [
      {
        name: 'images',
        fileName: 'bar-chart.png',
        contentType: 'image/png',
        bytes: await readFile(path.join(fixtures, 'bar-chart.png')),
      },
      {
        name: 'images',
        fileName: 'coffee.jpg',
        contentType: 'image/jpeg',
        bytes: await readFile(path.join(fixtures, 'coffee.jpg')),
      },
    ]);
    expect(response.statusCode).toBe(202);
    batchId = response.json().batchId;
    expect(await waitForBatch(t, owner.auth, batchId)).toMatchObject({ completed: 2, failed: 0 });
    const images = (await api(owner, 'GET', '/images/altText')).json() as {
      id: string;
      longDescription: string | null;
    }[];
    const chart = images.find((image) => image.longDescription !== null);
    const photo = images.find((image) => image.longDescription === null);
    if (!chart || !photo) throw new Error(`expected one chart and one photo: ${JSON.stringify(images)}`);
    chartId = chart.id;
    photoId = photo.id;
  }, 30_000);

  it('stores the engine’s long description with the chart’s row and answers null for the photo', async () => {
    const listed = await api(owner, 'GET', '/images/altText?page=1&pageSize=25');
    expect(listed.statusCode).toBe(200);
    const byId = new Map(listed.json().map((image: { id: string }) => [image.id, image]));
    expect(byId.get(chartId)).toMatchObject({ longDescription: chartDescription });
    expect(byId.get(photoId)).toMatchObject({ longDescription: null });
  });

  it('exports the long description in results.csv, before the origin', async () => {
    const response = await api(owner, 'GET', `/images/batches/${batchId}/results.csv`);
    expect(response.statusCode).toBe(200);
    const [header, ...lines] = response.body.trimEnd().split('\r\n');
    expect(header).toBe('id,image_url,alt_text,status,long_description,origin');
    // The description holds commas and semicolons: its cell is quoted (RFC 4180).
    expect(lines.some((line) => line.endsWith(`,done,"${chartDescription}",ai`))).toBe(true);
    expect(lines.some((line) => line.endsWith(',done,,ai'))).toBe(true);
  });

  it('replaces the long description with the alt text, keeps it when left out and removes it with null', async () => {
    const edited = await api(owner, 'PATCH', `/images/altText/${chartId}`, {
      alt_text: 'Bar chart: visitors per month, January to June',
      longDescription: '  January: 1,200; June: 2,650.  ',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      alt_text: 'Bar chart: visitors per month, January to June',
      longDescription: 'January: 1,200; June: 2,650.',
      needsReview: false,
    });

    const altOnly = await api(owner, 'PATCH', `/images/altText/${chartId}`, { alt_text: 'Visitors chart' });
    expect(altOnly.json()).toMatchObject({
      alt_text: 'Visitors chart',
      longDescription: 'January: 1,200; June: 2,650.',
    });

    const cleared = await api(owner, 'PATCH', `/images/altText/${chartId}`, {
      alt_text: 'Visitors chart',
      longDescription: null,
    });
    expect(cleared.json()).toMatchObject({ longDescription: null });
    const blank = await api(owner, 'PATCH', `/images/altText/${photoId}`, {
      alt_text: 'A cup of coffee',
      longDescription: '   ',
    });
    expect(blank.json()).toMatchObject({ longDescription: null });
  });

  it.each([
    ['1,001 characters', 'x'.repeat(1001), /at most 1,000 characters/],
    ['a number instead of text', 42, /must be text/],
  ])(
    'refuses a long description of %s with a 400 and changes nothing',
    async (_name, longDescription, message) => {
      const before = await t.app.deps.database.db
        .select()
        .from(libraryImages)
        .where(eq(libraryImages.id, photoId));
      const response = await api(owner, 'PATCH', `/images/altText/${photoId}`, {
        alt_text: 'Something else',
        longDescription,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(message),
      });
      const after = await t.app.deps.database.db
        .select()
        .from(libraryImages)
        .where(eq(libraryImages.id, photoId));
      expect(after).toEqual(before);
    },
  );

  it('accepts exactly 1,000 characters', async () => {
    const response = await api(owner, 'PATCH', `/images/altText/${photoId}`, {
      alt_text: 'A cup of coffee',
      longDescription: 'y'.repeat(1000),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().longDescription).toHaveLength(1000);
  });

  it('writes the engine’s long description again when the chart is regenerated (1 credit)', async () => {
    const before = (await api(owner, 'GET', '/images/altText')).json();
    expect(before.find((image: { id: string }) => image.id === chartId)).toMatchObject({
      longDescription: null,
    });
    const response = await api(owner, 'POST', `/images/altText/${chartId}/regenerate`, {});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, remainingCredits: 2 });
    const after = (await api(owner, 'GET', '/images/altText')).json();
    expect(after.find((image: { id: string }) => image.id === chartId)).toMatchObject({
      longDescription: chartDescription,
    });
  });
});

describe('long descriptions of audit suggestions', () => {
  let owner: TestUser;
  let auditId: string;
  type Image = { id: string; src: string; suggestion: string | null; longDescription: string | null };
  const images = async (): Promise<Image[]> =>
    (await api(owner, 'GET', `/audits/${auditId}/images?pageSize=500`)).json().items;
  const chartOf = (list: Image[]) => {
    const image = list.find((candidate) => candidate.src.endsWith('/img/bar-chart.png'));
    if (!image) throw new Error('no chart');
    return image;
  };

  beforeAll(async () => {
    owner = await createUser(t, 5);
    const started = await api(owner, 'POST', '/audits', { url: `${base}/`, scope: 'page' });
    expect(started.statusCode).toBe(202);
    auditId = started.json().id;
    await waitFor(async () => {
      const audit = (await api(owner, 'GET', `/audits/${auditId}`)).json();
      return audit.status === 'completed' ? audit : null;
    }, 20_000);
    const fixed = await api(owner, 'POST', `/audits/${auditId}/fix`, {});
    expect(fixed.statusCode).toBe(202);
    expect(await waitForBatch(t, owner.auth, fixed.json().batchId)).toMatchObject({ completed: 2 });
  }, 40_000);

  it('answers the suggestion’s long description for the chart and null for the photo', async () => {
    const list = await images();
    expect(chartOf(list)).toMatchObject({ longDescription: chartDescription });
    expect(list.find((image) => image.src.endsWith('/img/coffee.jpg'))).toMatchObject({
      suggestion: expect.any(String),
      longDescription: null,
    });
  });

  it('exports it in the report as CSV and xlsx', async () => {
    const csv = await api(owner, 'GET', `/audits/${auditId}/report.csv`);
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(header?.split(',').at(-3)).toBe('Long description');
    expect(lines.find((line) => line.includes('/img/bar-chart.png'))).toMatch(
      new RegExp(`,pending,"${chartDescription.replace(/[.]/g, '\\.')}",ai,[a-z]+$`),
    );

    const xlsx = await api(owner, 'GET', `/audits/${auditId}/report.xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    expect(sheet.getRow(1).getCell(9).value).toBe('Long description');
    const values: unknown[] = [];
    sheet.eachRow((row) => values.push(row.getCell(9).value));
    expect(values).toContain(chartDescription);
  });

  it('refuses a long description with accept (400) and lands an edited one in the library', async () => {
    const chart = chartOf(await images());
    const refused = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [chart.id],
      action: 'accept',
      longDescription: 'Not with accept',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(chartOf(await images())).toMatchObject({ longDescription: chartDescription });

    const tooLong = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [chart.id],
      action: 'edit',
      altText: 'Bar chart: visitors per month, January to June',
      longDescription: 'z'.repeat(1001),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toMatch(/at most 1,000 characters/);

    const edited = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [chart.id],
      action: 'edit',
      altText: 'Bar chart: visitors per month, January to June',
      longDescription: 'January: 1,200; June: 2,650.',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().items[0]).toMatchObject({
      reviewState: 'edited',
      longDescription: 'January: 1,200; June: 2,650.',
    });
    const library = (await api(owner, 'GET', '/images/altText')).json();
    expect(library).toEqual([
      expect.objectContaining({
        alt_text: 'Bar chart: visitors per month, January to June',
        longDescription: 'January: 1,200; June: 2,650.',
      }),
    ]);
  });

  it('keeps the suggestion’s long description when an accept lands it', async () => {
    const coffee = (await images()).find((image) => image.src.endsWith('/img/coffee.jpg'));
    if (!coffee) throw new Error('no coffee');
    const accepted = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [coffee.id],
      action: 'accept',
    });
    expect(accepted.statusCode).toBe(200);
    const library = (await api(owner, 'GET', '/images/altText')).json();
    expect(library).toHaveLength(2);
    expect(library.find((image: { src: string }) => image.src.endsWith('/img/coffee.jpg'))).toMatchObject({
      longDescription: null,
    });
  });
});
