import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { readEmbeddedText } from '../src/engines/embedded-text.ts';
import type { AltTextEngine } from '../src/engines/types.ts';
import { exiftoolConfigPath } from '../src/modules/image-metadata/exiftool.ts';
import { addLibraryImages } from '../src/modules/library/service.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, uploadImages, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

/**
 * Image files carry their alt text (point 2; ADR 064): downloads whose files have the
 * approved alt text in IPTC Alt Text (Accessibility), read back with ExifTool itself, with exifr and
 * with the product's own reader (an upload of the file finds it as `embedded` evidence, ADR 055).
 */

const exifr = createRequire(import.meta.url)('exifr') as typeof import('exifr');
const run = promisify(execFile);
const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');

const page = `<!doctype html><html><head><title>Launch day</title></head><body>
  <h1>Launch day</h1>
  <p><img src="/img/rocket.jpg" alt="A rocket lifting off from the launch pad in a cloud of smoke"></p>
  <img src="/img/camera.jpg">
  <img src="/img/coffee.jpg">
  <img src="/img/spacer.gif" alt="" width="1" height="1">
</body></html>`;

/** The test engine, keeping an existing alt of six words or more word for word, as the offline engine does. */
function keepingEngine(): AltTextEngine {
  const base = createTestEngine();
  return {
    ...base,
    async describeImage(bytes, options = {}) {
      const result = await base.describeImage(bytes, options);
      const existing = options.context?.existingAlt;
      return existing && existing.split(' ').length >= 6
        ? { ...result, altText: `${existing}.`, reasons: [{ source: 'existingAlt', detail: existing }] }
        : result;
    },
  };
}

let server: Server;
let base = '';
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let scratch: string;

const api = (who: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: who.auth, ...(payload ? { payload } : {}) });

type Row = {
  id: string;
  src: string;
  alt_text: string;
  origin: string;
  reasons: { source: string; detail: string }[];
};
const library = async (who: TestUser): Promise<Row[]> => (await api(who, 'GET', '/images/altText')).json();

/** ExifTool's own reading of the IPTC core and altwise fields. */
async function exiftoolRead(bytes: Uint8Array, extension: string): Promise<Record<string, string>> {
  const file = path.join(
    scratch,
    `${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}.${extension}`,
  );
  await writeFile(file, bytes);
  const { stdout } = await run('exiftool', [
    '-config',
    exiftoolConfigPath,
    '-j',
    '-XMP-iptcCore:all',
    '-XMP-altwise:all',
    file,
  ]);
  return (JSON.parse(stdout) as Record<string, string>[])[0] ?? {};
}

/** Every entry of a zip, by name. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** manifest.csv as rows of cells (these tests' cells hold no quotes). */
function manifestOf(entries: Map<string, Buffer>): Record<string, string>[] {
  const text =
    entries
      .get('manifest.csv')
      ?.toString('utf8')
      .replace(/^\uFEFF/, '') ?? '';
  const [header, ...lines] = text.trimEnd().split('\r\n');
  const names = (header ?? '').split(',');
  return lines.map((line) => {
    const cells =
      line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)?.map((cell) => cell.replace(/,$/, '').replace(/^"|"$/g, '')) ??
      [];
    return Object.fromEntries(names.map((name, i) => [name, cells[i] ?? '']));
  });
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'altwise-meta-test-'));
  server = createServer(async (req, res) => {
    const url = req.url ?? '';
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (url === '/robots.txt') return void res.writeHead(404).end();
    try {
      const bytes = await readFile(path.join(fixtures, path.basename(new URL(url, base).pathname)));
      res.writeHead(200, { 'content-type': 'image/png' }).end(bytes);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true' }, engine: keepingEngine() });
  owner = await createUser(t, 20);
  stranger = await createUser(t, 5);
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(scratch, { recursive: true, force: true });
});

describe('GET /images/altText/{id}/with-alt', () => {
  let uploaded: Row;
  let original: Buffer;

  beforeAll(async () => {
    original = await readFile(path.join(fixtures, 'astronaut.jpg'));
    const response = await uploadImages(t, owner.auth, [
      { name: 'images', fileName: 'astronaut.jpg', contentType: 'image/jpeg', bytes: original },
    ]);
    await waitForBatch(t, owner.auth, response.json().batchId);
    uploaded = (await library(owner))[0] as Row;
    await api(owner, 'POST', `/images/altText/${uploaded.id}/approve`);
  }, 60_000);

  it('answers a copy whose IPTC alt text, ExifTool and exifr agree, is the approved alt; the stored original is unchanged', async () => {
    const response = await api(owner, 'GET', `/images/altText/${uploaded.id}/with-alt`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['content-disposition']).toBe('attachment; filename="astronaut.jpg"');
    const bytes = response.rawPayload;
    expect(await exiftoolRead(bytes, 'jpg')).toMatchObject({
      AltTextAccessibility: uploaded.alt_text,
      AltTextOrigin: 'ai-reviewed',
      AltTextEngine: 'offline/test-engine',
    });
    const xmp = (await exifr.parse(bytes, { xmp: true, tiff: false, iptc: false })) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(xmp)).toContain(uploaded.alt_text);
    // The stored upload is the bytes that were sent.
    const stored = await t.app.inject({ method: 'GET', url: new URL(uploaded.src).pathname });
    expect(Buffer.compare(stored.rawPayload, original)).toBe(0);
  });

  it('names an upload in a zip and its manifest by its original file name, not its stored key', async () => {
    const response = await api(owner, 'POST', '/images/altText/with-alt.zip', { ids: [uploaded.id] });
    expect(response.statusCode).toBe(200);
    const entries = await unzip(response.rawPayload);
    expect([...entries.keys()]).toEqual(['001-astronaut.jpg', 'manifest.csv']);
    expect(manifestOf(entries).map((row) => [row.file, row.status])).toEqual([
      ['001-astronaut.jpg', 'written'],
    ]);
  });

  it('round trip: uploading the written file finds its alt text as `embedded` evidence', async () => {
    const written = (await api(owner, 'GET', `/images/altText/${uploaded.id}/with-alt`)).rawPayload;
    // A descriptive alt of its own, so the engine keeps it (the test engine keeps six words or more).
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/images/altText/${uploaded.id}`,
      headers: owner.auth,
      payload: { alt_text: 'An astronaut in a white suit floating above the Earth' },
    });
    expect(edited.json()).toMatchObject({ origin: 'ai-edited' });
    const rewritten = (await api(owner, 'GET', `/images/altText/${uploaded.id}/with-alt`)).rawPayload;
    expect(Buffer.compare(rewritten, written)).not.toBe(0);
    expect((await readEmbeddedText(rewritten))?.altText).toBe(
      'An astronaut in a white suit floating above the Earth',
    );
    const response = await uploadImages(t, owner.auth, [
      { name: 'images', fileName: 'again.jpg', contentType: 'image/jpeg', bytes: rewritten },
    ]);
    await waitForBatch(t, owner.auth, response.json().batchId);
    const again = (await library(owner))[0] as Row;
    expect(again).toMatchObject({
      alt_text: 'An astronaut in a white suit floating above the Earth.',
      origin: 'embedded',
    });
    expect(again.reasons).toContainEqual({
      source: 'embedded',
      detail: 'IPTC Alt Text (Accessibility): An astronaut in a white suit floating above the Earth',
    });
  }, 60_000);

  it('works with an API key like every route, and answers the same file', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: owner.auth,
      payload: { name: 'DAM' },
    });
    const withKey = await t.app.inject({
      method: 'GET',
      url: `/api/v1/images/altText/${uploaded.id}/with-alt`,
      headers: { authorization: `Bearer ${created.json().key}` },
    });
    expect(withKey.statusCode).toBe(200);
    expect((await exiftoolRead(withKey.rawPayload, 'jpg')).AltTextAccessibility).toBe(
      (await library(owner)).find((row) => row.id === uploaded.id)?.alt_text,
    );
  });

  it('answers 404 for another user’s image and 422 in words for a file that is not an image', async () => {
    expect((await api(stranger, 'GET', `/images/altText/${uploaded.id}/with-alt`)).statusCode).toBe(404);
    const [notImage] = await t.app.deps.database.db.transaction((tx) =>
      addLibraryImages(tx, owner.id, [{ src: `${base}/img/not-an-image.png`, altText: 'A chart of sales' }]),
    );
    const response = await api(owner, 'GET', `/images/altText/${notImage?.id}/with-alt`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ code: 'UNPROCESSABLE', message: 'The file is not an image.' });
  });
});

describe('POST /images/altText/with-alt.zip', () => {
  it('zips PNG, WebP and GIF copies with their alt text, skips the files it cannot write with a reason, leaves others’ ids out', async () => {
    const rows = await t.app.deps.database.db.transaction((tx) =>
      addLibraryImages(tx, owner.id, [
        {
          src: `${base}/img/logo.png`,
          altText: 'Altwise logo',
          origin: 'human',
          longDescription: 'A long description, with a comma.',
        },
        {
          src: `${base}/img/horse.webp`,
          altText: 'A brown horse in a field',
          engine: 'offline',
          model: 'm1',
        },
        { src: `${base}/img/spacer.gif?x=../../etc/passwd`, altText: 'A spacer', origin: 'ai-edited' },
        { src: `${base}/img/gone.jpg`, altText: 'A harbour at dusk' },
        { src: `${base}/img/not-an-image.png`, altText: 'A lighthouse on a cliff' },
      ]),
    );
    const [theirs] = await t.app.deps.database.db.transaction((tx) =>
      addLibraryImages(tx, stranger.id, [{ src: `${base}/img/logo.png`, altText: 'Theirs' }]),
    );
    const response = await api(owner, 'POST', '/images/altText/with-alt.zip', {
      ids: [...rows.map((row) => row.id), theirs?.id],
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    const entries = await unzip(response.rawPayload);
    expect([...entries.keys()]).toEqual(['001-logo.png', '002-horse.webp', '003-spacer.gif', 'manifest.csv']);
    const manifest = manifestOf(entries);
    expect(manifest.map((row) => [row.file, row.status, row.origin, row.reason])).toEqual([
      ['001-logo.png', 'written', 'human', ''],
      ['002-horse.webp', 'written', 'ai', ''],
      ['003-spacer.gif', 'written', 'ai-edited', ''],
      ['', 'skipped', 'ai', expect.stringMatching(/^Could not download the image: .*404/)],
      ['', 'skipped', 'ai', 'The file is not an image.'],
    ]);

    const png = entries.get('001-logo.png') as Buffer;
    expect(await exiftoolRead(png, 'png')).toMatchObject({
      AltTextAccessibility: 'Altwise logo',
      ExtDescrAccessibility: 'A long description, with a comma.',
      AltTextOrigin: 'human',
    });
    expect(await readEmbeddedText(png)).toMatchObject({
      altText: 'Altwise logo',
      extendedDescription: 'A long description, with a comma.',
    });
    const webp = entries.get('002-horse.webp') as Buffer;
    expect(await exiftoolRead(webp, 'webp')).toMatchObject({
      AltTextAccessibility: 'A brown horse in a field',
      AltTextOrigin: 'ai',
      AltTextEngine: 'offline/m1',
    });
    expect((await readEmbeddedText(webp))?.altText).toBe('A brown horse in a field');
    expect(await exiftoolRead(entries.get('003-spacer.gif') as Buffer, 'gif')).toMatchObject({
      AltTextAccessibility: 'A spacer',
      AltTextOrigin: 'ai-edited',
    });
  }, 60_000);

  it('refuses a bad selection in words: empty, not ids, too many, and none of them yours', async () => {
    const cases: [object, number, RegExp][] = [
      [{ ids: [] }, 400, /Select at least one image to download/],
      [{ ids: ['../etc/passwd'] }, 400, /Each id must be an image id/],
      [{ ids: Array.from({ length: 501 }, () => crypto.randomUUID()) }, 400, /At most 500 images/],
      [{ ids: [crypto.randomUUID()] }, 404, /None of these images is in your library/],
    ];
    for (const [payload, status, message] of cases) {
      const response = await api(owner, 'POST', '/images/altText/with-alt.zip', payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(status);
      expect(response.json().message).toMatch(message);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/altText/with-alt.zip',
      payload: { ids: [crypto.randomUUID()] },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /audits/{id}/images-with-alt.zip', () => {
  it('writes the accepted suggestion and the page’s passing alt, and names the images without one', async () => {
    const started = await api(owner, 'POST', '/audits', { url: `${base}/`, scope: 'page' });
    const auditId = started.json().id as string;
    await waitFor(
      async () =>
        (await api(owner, 'GET', `/audits/${auditId}`)).json().status === 'completed' ? true : null,
      30_000,
    );
    const images = (await api(owner, 'GET', `/audits/${auditId}/images`)).json().items as {
      id: string;
      src: string;
    }[];
    const camera = images.find((image) => image.src.endsWith('camera.jpg'));
    const fix = await api(owner, 'POST', `/audits/${auditId}/fix`, { imageIds: [camera?.id] });
    await waitForBatch(t, owner.auth, fix.json().batchId);
    await api(owner, 'POST', `/audits/${auditId}/review`, { imageIds: [camera?.id], action: 'accept' });

    expect((await api(stranger, 'GET', `/audits/${auditId}/images-with-alt.zip`)).statusCode).toBe(404);
    const response = await api(owner, 'GET', `/audits/${auditId}/images-with-alt.zip`);
    expect(response.statusCode).toBe(200);
    const entries = await unzip(response.rawPayload);
    const manifest = manifestOf(entries);
    const bySrc = (name: string) => manifest.find((row) => row.image_url?.endsWith(name));
    expect(bySrc('rocket.jpg')).toMatchObject({ status: 'written', origin: 'human' });
    expect(bySrc('camera.jpg')).toMatchObject({ status: 'written', origin: 'ai-reviewed' });
    expect(bySrc('coffee.jpg')).toMatchObject({
      status: 'skipped',
      reason: 'It has no approved alt text yet: fix it and accept the suggestion.',
    });
    expect(bySrc('spacer.gif')).toMatchObject({
      status: 'skipped',
      reason: 'Decorative: its empty alt says so; there is no alt text to write.',
    });
    const rocket = entries.get(bySrc('rocket.jpg')?.file ?? '') as Buffer;
    expect(await exiftoolRead(rocket, 'jpg')).toMatchObject({
      AltTextAccessibility: 'A rocket lifting off from the launch pad in a cloud of smoke',
      AltTextOrigin: 'human',
    });
    const camera2 = entries.get(bySrc('camera.jpg')?.file ?? '') as Buffer;
    expect((await exiftoolRead(camera2, 'jpg')).AltTextAccessibility).toBe(bySrc('camera.jpg')?.alt_text);
  }, 90_000);
});
