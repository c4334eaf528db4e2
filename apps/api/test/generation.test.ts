import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { generationBatches } from '../src/db/tables/generation-batches.ts';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { EngineProviderError } from '../src/engines/errors.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import {
  createTestEngine,
  multipartBody,
  providerDown,
  uploadImages,
  waitForBatch,
} from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');
const fixture = (name: string) => readFile(path.join(fixtures, name));

let server: Server;
let base: string;
/** Requests per path, to tell retries apart. */
const hits = new Map<string, number>();

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = req.url ?? '';
    hits.set(url, (hits.get(url) ?? 0) + 1);
    if (url === '/flaky.jpg' && hits.get(url) === 1) return void res.writeHead(503).end('busy');
    const name =
      url === '/flaky.jpg' ? 'rocket.jpg' : url === '/text.png' ? 'not-an-image.png' : url.slice(1);
    try {
      const bytes = await fixture(path.basename(name));
      res.writeHead(200, { 'content-type': url.endsWith('.png') ? 'image/png' : 'image/jpeg' }).end(bytes);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const testEnv = { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' };

const generate = (t: TestApp, user: TestUser, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/v1/images/generate-alt-text', payload, headers: user.auth });

const libraryOf = (t: TestApp, user: TestUser) =>
  t.app.deps.database.db.select().from(libraryImages).where(eq(libraryImages.userId, user.id));

describe('POST /images/generate-alt-text', () => {
  let t: TestApp;
  let busyOnceSeen = false;
  const engine = createTestEngine({
    delayMs: 20,
    failWith: (_bytes, describe) => {
      const alt = describe.context?.existingAlt;
      if (alt === 'engine refuses') return new EngineProviderError('Bad answer', { retryable: false });
      if (alt === 'always busy') return providerDown();
      if (alt === 'busy once' && !busyOnceSeen) {
        busyOnceSeen = true;
        return providerDown();
      }
      return undefined;
    },
  });
  beforeAll(async () => {
    t = await buildTestApp({ env: testEnv, engine });
  });
  afterAll(() => t.cleanup());

  it('starts x.png and x.png#frag as one image: one row, one credit', async () => {
    const user = await createUser(t, 10);
    const response = await generate(t, user, {
      userId: user.id,
      selectedImages: [
        `${base}/coffee.jpg`,
        `${base}/coffee.jpg#frag`,
        { src: `${base}/coffee.jpg#other`, alt: 'Coffee' },
      ],
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toMatchObject({ total: 1, creditsReserved: 1, remainingCredits: 9 });
    const done = await waitForBatch(t, user.auth, response.json().batchId);
    expect(done).toMatchObject({ status: 'completed', total: 1, completed: 1, failed: 0 });
    expect((await libraryOf(t, user)).map((row) => row.src)).toEqual([`${base}/coffee.jpg`]);
    expect(await balanceOf(t, user)).toBe(9);
  });

  it('reserves a credit per image at once and refunds every image that fails: the user pays for alt texts that landed', async () => {
    const user = await createUser(t, 10);
    const response = await generate(t, user, {
      userId: user.id,
      chatGptPrompt: 'Mention the colours',
      pageUrl: `${base}/page.html`,
      selectedImages: [
        {
          src: `${base}/astronaut.jpg`,
          alt: 'An astronaut',
          context: { pageTitle: 'Space', heading: 'Crew' },
        },
        { src: `${base}/coffee.jpg`, alt: '' },
        `${base}/flaky.jpg`,
        { src: `${base}/missing.jpg`, alt: 'Gone' },
        { src: `${base}/text.png`, alt: 'Text' },
      ],
    });
    expect(response.statusCode).toBe(202);
    const started = response.json();
    expect(started).toMatchObject({
      success: true,
      total: 5,
      creditsReserved: 5,
      remainingCredits: 5,
      message: 'Generating alt text for 5 images. Results are added to your library as they finish.',
      batchId: expect.any(String),
    });

    const done = await waitForBatch(t, user.auth, started.batchId);
    expect(done).toMatchObject({
      status: 'completed',
      total: 5,
      completed: 3,
      failed: 2,
      creditsReserved: 5,
    });
    expect(done.finishedAt).toEqual(expect.any(String));
    expect(done.failures).toEqual([
      {
        src: `${base}/missing.jpg`,
        error: expect.stringMatching(/Could not download the image: .*HTTP 404/),
      },
      { src: `${base}/text.png`, error: expect.stringMatching(/not an image/) },
    ]);
    // 10 - 5 reserved + 2 refunded.
    expect(await balanceOf(t, user)).toBe(7);

    const rows = await libraryOf(t, user);
    expect(rows.map((row) => row.src).sort()).toEqual(
      [`${base}/astronaut.jpg`, `${base}/coffee.jpg`, `${base}/flaky.jpg`].sort(),
    );
    const astronaut = rows.find((row) => row.src.endsWith('astronaut.jpg'));
    expect(astronaut).toMatchObject({ batchId: started.batchId, engine: 'offline', model: 'test-engine' });
    expect(astronaut?.altText).toMatch(/^Test description of An astronaut .* per "Mention the colours"$/);
    expect(astronaut?.context).toMatchObject({
      pageTitle: 'Space',
      heading: 'Crew',
      existingAlt: 'An astronaut',
    });
    // The engine got the page context and the page URL; the flaky image was retried after its 503.
    const call = engine.calls.find((c) => c.options.context?.existingAlt === 'An astronaut');
    expect(call?.options.context).toMatchObject({ pageTitle: 'Space', pageUrl: `${base}/page.html` });
    expect(hits.get('/flaky.jpg')).toBe(2);

    const list = await t.app.inject({ method: 'GET', url: '/api/v1/images/batches', headers: user.auth });
    expect(list.json()).toEqual([expect.objectContaining({ id: started.batchId, status: 'completed' })]);
  });

  it('fails the batch and refunds everything when no image lands', async () => {
    const user = await createUser(t, 3);
    const response = await generate(t, user, {
      selectedImages: [
        { src: `${base}/rocket.jpg`, alt: 'engine refuses' },
        { src: `${base}/nothing-here.jpg`, alt: '' },
      ],
    });
    expect(response.statusCode).toBe(202);
    const done = await waitForBatch(t, user.auth, response.json().batchId);
    expect(done).toMatchObject({ status: 'failed', completed: 0, failed: 2 });
    expect(done.failures[0].error).toContain('The alt-text engine could not describe this image: Bad answer');
    expect(await balanceOf(t, user)).toBe(3);
    expect(await libraryOf(t, user)).toEqual([]);
  });

  it('retries an engine that is down, and refunds the image when it stays down', async () => {
    const user = await createUser(t, 2);
    const response = await generate(t, user, {
      selectedImages: [
        { src: `${base}/camera.jpg`, alt: 'busy once' },
        { src: `${base}/horse.webp`, alt: 'always busy' },
      ],
    });
    const done = await waitForBatch(t, user.auth, response.json().batchId);
    expect(done).toMatchObject({ status: 'completed', completed: 1, failed: 1 });
    expect(done.failures).toEqual([
      {
        src: `${base}/horse.webp`,
        error:
          'The alt-text engine could not describe this image: The provider answered 503. (gave up after 3 attempts)',
      },
    ]);
    expect(engine.calls.filter((call) => call.options.context?.existingAlt === 'always busy')).toHaveLength(
      3,
    );
    expect(engine.calls.filter((call) => call.options.context?.existingAlt === 'busy once')).toHaveLength(2);
    expect(await balanceOf(t, user)).toBe(1);
  });

  it('refuses with 402 Insufficient credits and writes nothing when the balance is short', async () => {
    const user = await createUser(t, 1);
    const response = await generate(t, user, {
      selectedImages: [`${base}/rocket.jpg`, `${base}/coffee.jpg`],
    });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ code: 'INSUFFICIENT_CREDITS', message: 'Insufficient credits' });
    expect(await balanceOf(t, user)).toBe(1);
    const batches = await t.app.deps.database.db
      .select()
      .from(generationBatches)
      .where(eq(generationBatches.userId, user.id));
    expect(batches).toEqual([]);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/images/batches', headers: user.auth });
    expect(list.json()).toEqual([]);
  });

  it('answers 403 when the body names another user, and 400 for sources that cannot be fetched', async () => {
    const user = await createUser(t, 5);
    const other = await createUser(t, 5);
    const forbidden = await generate(t, user, { userId: other.id, selectedImages: [`${base}/rocket.jpg`] });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().message).toMatch(/your own account/);

    for (const src of [
      'data:image/png;base64,iVBORw0KGgo=',
      'javascript:alert(1)',
      'ftp://example.com/a.png',
      '',
    ]) {
      const bad = await generate(t, user, { selectedImages: [{ src, alt: '' }] });
      expect(bad.statusCode, src).toBe(400);
      expect(bad.json().message).toMatch(/http or https URL|needs a source URL/);
    }
    const empty = await generate(t, user, { selectedImages: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Select at least one image');
    expect(await balanceOf(t, user)).toBe(5);
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/generate-alt-text',
      payload: { selectedImages: [`${base}/rocket.jpg`] },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('batch progress', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: testEnv, engine: createTestEngine({ delayMs: 150 }) });
  });
  afterAll(() => t.cleanup());

  it('is readable only by its owner', async () => {
    const owner = await createUser(t, 5);
    const stranger = await createUser(t, 5);
    const { batchId } = (await generate(t, owner, { selectedImages: [`${base}/rocket.jpg`] })).json();
    for (const url of [`/api/v1/images/batches/${batchId}`, `/api/v1/images/batches/${batchId}/events`]) {
      const response = await t.app.inject({ method: 'GET', url, headers: stranger.auth });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().message).toBe('There is no such generation batch.');
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/images/batches', headers: stranger.auth });
    expect(list.json()).toEqual([]);
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/images/batches/nope',
      headers: owner.auth,
    });
    expect(malformed.statusCode).toBe(400);
    await waitForBatch(t, owner.auth, batchId);
  });

  it('streams progress events until the batch ends', async () => {
    const user = await createUser(t, 5);
    const { batchId } = (
      await generate(t, user, {
        selectedImages: [
          `${base}/rocket.jpg`,
          `${base}/coffee.jpg`,
          `${base}/chelsea.jpg`,
          `${base}/missing.jpg`,
        ],
      })
    ).json();
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/images/batches/${batchId}/events`,
      headers: user.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = response.body
      .split('\n\n')
      .filter((block) => block.startsWith('event: progress'))
      .map((block) => JSON.parse(block.split('\ndata: ')[1] ?? 'null'));
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events[0]).toMatchObject({ id: batchId, total: 4 });
    expect(events.at(-1)).toMatchObject({ status: 'completed', completed: 3, failed: 1 });
    const counts = events.map((event) => event.completed + event.failed);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });
});

describe('the event stream over a real connection', () => {
  let t: TestApp;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  beforeAll(async () => {
    t = await buildTestApp({ env: testEnv, engine: createTestEngine({ gate }) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    release();
    await t.cleanup();
  });

  it('sends the first event at once and lets go of the connection when the client leaves', async () => {
    const user = await createUser(t, 2);
    const { batchId } = (await generate(t, user, { selectedImages: [`${base}/rocket.jpg`] })).json();
    const address = t.app.server.address() as AddressInfo;
    const abort = new AbortController();
    const response = await fetch(`http://127.0.0.1:${address.port}/api/v1/images/batches/${batchId}/events`, {
      headers: user.auth,
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body?.getReader();
    const first = new TextDecoder().decode((await reader?.read())?.value);
    expect(first).toMatch(/^event: progress\ndata: \{.*"total":1/);
    abort.abort();
    const openConnections = () =>
      new Promise<number>((resolve, reject) =>
        t.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    const deadline = Date.now() + 5_000;
    while ((await openConnections()) > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(await openConnections()).toBe(0);
    // The server stopped looking at the batch for the stream that went away.
    const reads = { count: 0 };
    const getProgress = t.app.deps.generation.getProgress;
    t.app.deps.generation.getProgress = (...args) => {
      reads.count++;
      return getProgress(...args);
    };
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    t.app.deps.generation.getProgress = getProgress;
    expect(reads.count).toBe(0);
    release();
    await waitForBatch(t, user.auth, batchId);
  });
});

describe('POST /images/upload-and-generate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: testEnv, engine: createTestEngine() });
  });
  afterAll(() => t.cleanup());

  const upload = (user: TestUser, parts: Parameters<typeof multipartBody>[0]) =>
    uploadImages(t, user.auth, parts);
  const storedFileCount = async () =>
    (
      await queryRows<{ n: number }>(t.app.deps.database.db, sql`select count(*)::int as n from stored_files`)
    )[0]?.n;

  it('stores the files, serves them at a stable URL and writes their alt text', async () => {
    const user = await createUser(t, 4);
    const response = await upload(user, [
      {
        name: 'images',
        fileName: 'astronaut.jpg',
        contentType: 'image/jpeg',
        bytes: await fixture('astronaut.jpg'),
      },
      // The browser's type is ignored: the bytes say WebP.
      {
        name: 'images',
        fileName: 'horse.webp',
        contentType: 'application/octet-stream',
        bytes: await fixture('horse.webp'),
      },
      { name: 'userId', value: user.id },
      { name: 'chatGptPrompt', value: 'Keep it short' },
    ]);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({
      success: true,
      total: 2,
      creditsReserved: 2,
      remainingCredits: 2,
    });
    const done = await waitForBatch(t, user.auth, response.json().batchId);
    expect(done).toMatchObject({ status: 'completed', completed: 2, failed: 0 });
    expect(await balanceOf(t, user)).toBe(2);

    const rows = await libraryOf(t, user);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.src).toMatch(/^http:\/\/altwise\.test\/files\/uploads\/.+\.(jpg|webp)$/);
      expect(row.fileKey).toMatch(/^uploads\//);
      expect(row.altText).toMatch(
        /^Test description of (astronaut\.jpg|horse\.webp) .* per "Keep it short"$/,
      );
      const served = await t.app.inject({ method: 'GET', url: new URL(row.src).pathname });
      expect(served.statusCode).toBe(200);
    }
    // Kept for good: no longer temporary.
    const temporary = await queryRows<{ n: number }>(
      t.app.deps.database.db,
      sql`select count(*)::int as n from stored_files where expires_at is not null`,
    );
    expect(temporary[0]?.n).toBe(0);
  });

  it('refuses a file over 5 MB with 413 naming it; nothing is stored or charged', async () => {
    const user = await createUser(t, 4);
    const before = await storedFileCount();
    const big = Buffer.concat([await fixture('coffee.jpg'), Buffer.alloc(6 * 1024 * 1024)]);
    const response = await upload(user, [
      {
        name: 'images',
        fileName: 'coffee.jpg',
        contentType: 'image/jpeg',
        bytes: await fixture('coffee.jpg'),
      },
      { name: 'images', fileName: 'holiday-huge.jpg', contentType: 'image/jpeg', bytes: big },
    ]);
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe(
      'The following files exceed 5MB: "holiday-huge.jpg". Please upload images under 5MB.',
    );
    expect(await storedFileCount()).toBe(before);
    expect(await balanceOf(t, user)).toBe(4);
    expect(await libraryOf(t, user)).toEqual([]);
  });

  it('refuses a file that is not an image (a .png of text) with 415, and an empty upload with 400', async () => {
    const user = await createUser(t, 4);
    const before = await storedFileCount();
    const fake = await upload(user, [
      {
        name: 'images',
        fileName: 'rocket.jpg',
        contentType: 'image/jpeg',
        bytes: await fixture('rocket.jpg'),
      },
      {
        name: 'images',
        fileName: 'notes.png',
        contentType: 'image/png',
        bytes: Buffer.from('just some text, honest'),
      },
    ]);
    expect(fake.statusCode).toBe(415);
    expect(fake.json()).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'notes.png is not a JPEG, PNG, WebP, GIF, AVIF or SVG image.',
    });

    const none = await upload(user, [{ name: 'chatGptPrompt', value: 'hello' }]);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Choose at least one image to send as "images".');

    const notMultipart = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/upload-and-generate',
      payload: { images: [] },
      headers: user.auth,
    });
    expect(notMultipart.statusCode).toBe(415);

    expect(await storedFileCount()).toBe(before);
    expect(await balanceOf(t, user)).toBe(4);
  });

  it('answers 403 for another user’s id and 402 when short of credits, deleting the saved files', async () => {
    const user = await createUser(t, 1);
    const other = await createUser(t, 1);
    const before = await storedFileCount();
    const files = [
      { name: 'images', fileName: 'a.jpg', contentType: 'image/jpeg', bytes: await fixture('rocket.jpg') },
      { name: 'images', fileName: 'b.jpg', contentType: 'image/jpeg', bytes: await fixture('coffee.jpg') },
    ];
    // The userId comes first: reading stops at the first file the credits cannot pay for (402).
    const forbidden = await upload(user, [{ name: 'userId', value: other.id }, ...files]);
    expect(forbidden.statusCode).toBe(403);
    const short = await upload(user, files);
    expect(short.statusCode).toBe(402);
    expect(short.json().message).toBe('Insufficient credits');
    expect(await storedFileCount()).toBe(before);
    expect(await balanceOf(t, user)).toBe(1);
  });
});

describe('POST /images/altText/{id}/regenerate', () => {
  let t: TestApp;
  let failNext = false;
  const engine = createTestEngine({
    failWith: () => {
      if (!failNext) return undefined;
      failNext = false;
      return new EngineProviderError('The model is overloaded', { retryable: true, status: 503 });
    },
  });
  beforeAll(async () => {
    t = await buildTestApp({ env: testEnv, engine });
  });
  afterAll(() => t.cleanup());

  const regenerate = (user: TestUser, id: string, payload: object = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/images/altText/${id}/regenerate`,
      payload,
      headers: user.auth,
    });

  it('charges 1 credit for a new alt text, and refunds it when none lands', async () => {
    const user = await createUser(t, 4);
    const { batchId } = (
      await generate(t, user, {
        selectedImages: [{ src: `${base}/chelsea.jpg`, alt: 'A cat', context: { heading: 'Pets' } }],
      })
    ).json();
    await waitForBatch(t, user.auth, batchId);
    const [row] = await libraryOf(t, user);
    if (!row) throw new Error('no library row');
    expect(await balanceOf(t, user)).toBe(3);

    const response = await regenerate(user, row.id, { chatGptPrompt: 'Say it is sleeping' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      remainingCredits: 2,
      image: { id: row.id, src: row.src, alt_text: expect.stringContaining('per "Say it is sleeping"') },
    });
    // The stored page context is used again.
    expect(engine.calls.at(-1)?.options.context).toMatchObject({ heading: 'Pets', existingAlt: 'A cat' });

    failNext = true;
    const failed = await regenerate(user, row.id);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toMatch(/The model is overloaded.*credit was refunded/);
    expect(await balanceOf(t, user)).toBe(2);

    const stranger = await createUser(t, 2);
    const notTheirs = await regenerate(stranger, row.id);
    expect(notTheirs.statusCode).toBe(404);
    expect(await balanceOf(t, stranger)).toBe(2);
  });

  it('refunds with 422 when the image can no longer be downloaded, and 402 without credits', async () => {
    const user = await createUser(t, 2);
    const { batchId } = (await generate(t, user, { selectedImages: [`${base}/rocket.jpg`] })).json();
    await waitForBatch(t, user.auth, batchId);
    const [row] = await libraryOf(t, user);
    if (!row) throw new Error('no library row');
    await t.app.deps.database.db
      .update(libraryImages)
      .set({ src: `${base}/deleted.jpg` })
      .where(eq(libraryImages.id, row.id));
    const gone = await regenerate(user, row.id);
    expect(gone.statusCode).toBe(422);
    expect(gone.json().message).toMatch(/Could not download the image.*HTTP 404.*refunded/);
    expect(await balanceOf(t, user)).toBe(1);

    const broke = await createUser(t, 0);
    const [theirs] = await t.app.deps.database.db
      .insert(libraryImages)
      .values({ userId: broke.id, src: `${base}/rocket.jpg`, altText: 'old' })
      .returning();
    const short = await regenerate(broke, theirs?.id ?? '');
    expect(short.statusCode).toBe(402);
    expect(short.json().message).toBe('Insufficient credits');
  });
});

describe('the real offline engine', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { ...testEnv, ALT_TEXT_ENGINE: 'offline' } });
  });
  afterAll(() => t.cleanup());

  it('describes an uploaded photo', { timeout: 180_000 }, async () => {
    const user = await createUser(t, 1);
    const body = multipartBody([
      {
        name: 'images',
        fileName: 'coffee.jpg',
        contentType: 'image/jpeg',
        bytes: await fixture('coffee.jpg'),
      },
    ]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/upload-and-generate',
      payload: body.payload,
      headers: { ...user.auth, ...body.headers },
    });
    expect(response.statusCode).toBe(202);
    const done = await waitForBatch(t, user.auth, response.json().batchId, 170_000);
    expect(done).toMatchObject({ status: 'completed', completed: 1, failed: 0 });
    const [row] = await libraryOf(t, user);
    expect(row?.engine).toBe('offline');
    // Nothing the offline engine can ground names this photo's subject (ADR 067): no filler, a
    // person's words are asked for instead.
    expect(row?.altText).toBe('');
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/images/altText', headers: user.auth });
    expect(listed.json()[0]).toMatchObject({ alt_text: '', needsWords: true, publishable: false });
    expect(await balanceOf(t, user)).toBe(0);
  });
});
