import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AltTextEngine } from '../src/engines/types.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { imageWithEmbeddedText } from './embedded-fixtures.ts';
import { createTestEngine, multipartBody, uploadImages, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

/**
 * Provenance (point 4; ADR 057): every alt text says where it came from, through the API,
 * the batch results and the audit report: `human`, `embedded`, `ai`, `ai-reviewed`, `ai-edited`.
 */

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');
const page = `<!doctype html><html><head><title>Launch day</title></head><body>
  <h1>Launch day</h1>
  <p>We went to see the launch. <img src="/img/rocket.jpg" alt="IMG_2041.jpg"></p>
  <img src="/img/camera.jpg">
  <img src="/img/coffee.jpg" alt="A cup of coffee on a saucer beside a croissant">
</body></html>`;

/**
 * The test engine, but keeping an existing alt of six words or more word for word (ending it as a
 * sentence), as the offline engine keeps a descriptive one.
 */
function keepingEngine(): AltTextEngine {
  const base = createTestEngine();
  return {
    ...base,
    async describeImage(bytes, options = {}) {
      const result = await base.describeImage(bytes, options);
      const existing = options.context?.existingAlt;
      return existing && existing.split(' ').length >= 6 ? { ...result, altText: `${existing}.` } : result;
    },
  };
}

let server: Server;
let base = '';
let t: TestApp;
let owner: TestUser;

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: owner.auth, ...(payload ? { payload } : {}) });

type Row = { id: string; src: string; alt_text: string; origin: string };
const library = async (): Promise<Row[]> => (await api('GET', '/images/altText?pageSize=500')).json();

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = req.url ?? '';
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (url === '/robots.txt') return void res.writeHead(404).end();
    try {
      const bytes = await readFile(path.join(fixtures, path.basename(url)));
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true' }, engine: keepingEngine() });
  owner = await createUser(t, 20);
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('library provenance', () => {
  it('marks an upload whose file carries IPTC alt text `embedded`, a plain one `ai`, and says so in results.csv', async () => {
    const embedded = await imageWithEmbeddedText(
      { altText: 'Red kite gliding over a heather hill' },
      'jpeg',
      48,
    );
    const plain = await readFile(path.join(fixtures, 'astronaut.jpg'));
    const response = await uploadImages(t, owner.auth, [
      { name: 'images', fileName: 'kite.jpg', contentType: 'image/jpeg', bytes: embedded },
      { name: 'images', fileName: 'astronaut.jpg', contentType: 'image/jpeg', bytes: plain },
    ]);
    expect(response.statusCode).toBe(202);
    const { batchId } = response.json();
    expect(await waitForBatch(t, owner.auth, batchId)).toMatchObject({ completed: 2 });
    const rows = await library();
    expect(rows.find((row) => row.alt_text === 'Red kite gliding over a heather hill.')?.origin).toBe(
      'embedded',
    );
    expect(rows.find((row) => row.alt_text.includes('astronaut'))?.origin).toBe('ai');
    const csv = await api('GET', `/images/batches/${batchId}/results.csv`);
    const [header, ...lines] = csv.body.trimEnd().split('\r\n');
    expect(header).toBe('id,image_url,alt_text,status,long_description,origin');
    expect(lines.map((line) => line.split(',').at(-1)).sort()).toEqual(['ai', 'embedded']);
  });

  it('turns `ai` into `ai-reviewed` on approve and on an unchanged save, and `ai-edited` on changed words', async () => {
    const ai = (await library()).find((row) => row.origin === 'ai') as Row;
    const approved = await api('POST', `/images/altText/${ai.id}/approve`);
    expect(approved.json()).toMatchObject({ origin: 'ai-reviewed' });
    const same = await api('PATCH', `/images/altText/${ai.id}`, { alt_text: ai.alt_text });
    expect(same.json()).toMatchObject({ origin: 'ai-reviewed' });
    const edited = await api('PATCH', `/images/altText/${ai.id}`, {
      alt_text: 'An astronaut floating above Earth',
    });
    expect(edited.json()).toMatchObject({
      origin: 'ai-edited',
      alt_text: 'An astronaut floating above Earth',
    });
    // Approving an edited text leaves it edited; the file's own words stay `embedded` when approved.
    expect((await api('POST', `/images/altText/${ai.id}/approve`)).json()).toMatchObject({
      origin: 'ai-edited',
    });
    const fromFile = (await library()).find((row) => row.origin === 'embedded') as Row;
    expect((await api('POST', `/images/altText/${fromFile.id}/approve`)).json()).toMatchObject({
      origin: 'embedded',
    });
    // A person's new words over the file's are a person's.
    const rewritten = await api('PATCH', `/images/altText/${fromFile.id}`, {
      alt_text: 'A red kite over the moor',
    });
    expect(rewritten.json()).toMatchObject({ origin: 'human' });
  });

  it('marks a CSV row whose existing alt the engine kept `human`', async () => {
    const file = [
      'id,image_url,existing_alt',
      `kept,${base}/img/chelsea.jpg,A tabby cat asleep on a sunny window sill`,
      `new,${base}/img/horse.webp,horse`,
    ].join('\n');
    const body = multipartBody([
      { name: 'file', fileName: 'images.csv', contentType: 'text/csv', bytes: Buffer.from(file) },
    ]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/import-csv',
      payload: body.payload,
      headers: { ...owner.auth, ...body.headers },
    });
    expect(response.statusCode).toBe(202);
    await waitForBatch(t, owner.auth, response.json().batchId);
    const csv = await api('GET', `/images/batches/${response.json().batchId}/results.csv`);
    const rows = csv.body
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(','));
    expect(rows.map((row) => [row[0], row.at(-1)])).toEqual([
      ['kept', 'human'],
      ['new', 'ai'],
    ]);
  });
});

describe('audit provenance', () => {
  let auditId: string;
  type Image = {
    id: string;
    src: string;
    alt: string | null;
    suggestion: string | null;
    origin: string | null;
  };
  const images = async (): Promise<Image[]> =>
    (await api('GET', `/audits/${auditId}/images?pageSize=500`)).json().items;
  const bySrc = (list: Image[], name: string) => list.find((image) => image.src.endsWith(name)) as Image;

  beforeAll(async () => {
    const started = await api('POST', '/audits', { url: `${base}/`, scope: 'page' });
    auditId = started.json().id;
    await waitFor(
      async () => ((await api('GET', `/audits/${auditId}`)).json().status === 'completed' ? true : null),
      20_000,
    );
  }, 30_000);

  it('says a page’s alt is `human` and an image without one has no origin until it is fixed', async () => {
    const list = await images();
    expect(bySrc(list, 'coffee.jpg').origin).toBe('human');
    expect(bySrc(list, 'rocket.jpg').origin).toBe('human');
    expect(bySrc(list, 'camera.jpg').origin).toBeNull();
  });

  it('marks fixes `ai`, then `ai-reviewed` on accept and `ai-edited` on edit, in the library and the report', async () => {
    const list = await images();
    const camera = bySrc(list, 'camera.jpg');
    const rocket = bySrc(list, 'rocket.jpg');
    const fix = await api('POST', `/audits/${auditId}/fix`, { imageIds: [camera.id, rocket.id] });
    expect(fix.statusCode).toBe(202);
    await waitForBatch(t, owner.auth, fix.json().batchId);
    const fixed = await images();
    expect(bySrc(fixed, 'camera.jpg')).toMatchObject({ origin: 'ai' });
    expect(bySrc(fixed, 'rocket.jpg')).toMatchObject({ origin: 'ai' });

    const accepted = await api('POST', `/audits/${auditId}/review`, {
      imageIds: [camera.id],
      action: 'accept',
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().items[0]).toMatchObject({ origin: 'ai-reviewed' });
    const edited = await api('POST', `/audits/${auditId}/review`, {
      imageIds: [rocket.id],
      action: 'edit',
      altText: 'A rocket lifting off in smoke',
    });
    expect(edited.json().items[0]).toMatchObject({ origin: 'ai-edited' });

    const rows = await library();
    expect(rows.find((row) => row.src.endsWith('camera.jpg'))?.origin).toBe('ai-reviewed');
    expect(rows.find((row) => row.alt_text === 'A rocket lifting off in smoke')?.origin).toBe('ai-edited');

    const report = await api('GET', `/audits/${auditId}/report.csv`);
    const [header, ...lines] = report.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    const column = header?.split(',').indexOf('Origin') ?? -1;
    expect(column).toBeGreaterThan(0);
    const origins = Object.fromEntries(
      lines.map((line) => [line.split(',')[1]?.split('/').at(-1), line.split(',')[column]]),
    );
    expect(origins).toEqual({
      'rocket.jpg': 'ai-edited',
      'camera.jpg': 'ai-reviewed',
      'coffee.jpg': 'human',
    });
  });

  it('keeps `human` when the engine kept the page’s alt word for word', async () => {
    const coffee = bySrc(await images(), 'coffee.jpg');
    const fix = await api('POST', `/audits/${auditId}/fix`, { imageIds: [coffee.id] });
    await waitForBatch(t, owner.auth, fix.json().batchId);
    expect(bySrc(await images(), 'coffee.jpg')).toMatchObject({
      suggestion: 'A cup of coffee on a saucer beside a croissant.',
      origin: 'human',
    });
    const accepted = await api('POST', `/audits/${auditId}/review`, {
      imageIds: [coffee.id],
      action: 'accept',
    });
    expect(accepted.json().items[0]).toMatchObject({ origin: 'human' });
  });
});
