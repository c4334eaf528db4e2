import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AltTextReason } from '../src/engines/types.ts';
import { addLibraryImages } from '../src/modules/library/service.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { createTestEngine, multipartBody, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * Every library row carries the engine's confidence, its reasons and a needs-review flag;
 * the library lists and filters by the flag, and a person's approval or edit clears it.
 */

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');

const unsureReasons: AltTextReason[] = [
  { source: 'detection', detail: 'kite', score: 0.41 },
  { source: 'pixels', detail: 'mostly blue' },
];
const sureReasons: AltTextReason[] = [
  { source: 'caption', detail: 'A cup of coffee on a saucer' },
  { source: 'detection', detail: 'cup', score: 0.93 },
];

// The engine is unsure of uploads whose file name starts with "unsure-" and of any regenerate asked to
// "be unsure"; sure of the rest.
const engine = createTestEngine({
  verdict: (_bytes, describe) =>
    describe.context?.fileName?.startsWith('unsure-') || describe.prompt === 'be unsure'
      ? { confidence: 0.31, reasons: unsureReasons }
      : { confidence: 0.87, reasons: sureReasons },
});

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ engine });
});
afterAll(() => t.cleanup());

type Listed = {
  id: string;
  src: string;
  alt_text: string;
  confidence: number | null;
  needsReview: boolean;
  reasons: AltTextReason[];
};

const list = (user: TestUser, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/v1/images/altText${query}`, headers: user.auth });
const approve = (user: TestUser | null, id: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/images/altText/${id}/approve`,
    headers: user ? user.auth : {},
  });
const patch = (user: TestUser, id: string, altText: string) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/v1/images/altText/${id}`,
    payload: { alt_text: altText },
    headers: user.auth,
  });

/** Uploads these fixtures under these names as one batch and waits for it to end. */
async function uploadBatch(user: TestUser, files: { fixture: string; name: string }[]) {
  const body = multipartBody(
    await Promise.all(
      files.map(async (file) => ({
        name: 'images',
        fileName: file.name,
        contentType: file.name.endsWith('.png') ? 'image/png' : 'image/jpeg',
        bytes: await readFile(path.join(fixtures, file.fixture)),
      })),
    ),
  );
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/images/upload-and-generate',
    payload: body.payload,
    headers: { ...user.auth, ...body.headers },
  });
  expect(response.statusCode).toBe(202);
  const done = await waitForBatch(t, user.auth, response.json().batchId);
  expect(done).toMatchObject({ status: 'completed', failed: 0 });
}

/** Stores rows directly, a millisecond apart so that their order is known; `flagged` picks the flagged ones. */
async function addRows(user: TestUser, count: number, flagged: (index: number) => boolean) {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const review = flagged(index);
    const [row] = await t.app.deps.database.db.transaction((tx) =>
      addLibraryImages(tx, user.id, [
        {
          src: `https://example.com/${index}.jpg`,
          altText: `Harbour view ${index}`,
          engine: 'offline',
          confidence: review ? 0.2 : 0.8,
          reasons: [{ source: 'ocr', detail: `image ${index}` }],
          needsReview: review,
        },
      ]),
    );
    if (!row) throw new Error('no row');
    ids.push(row.id);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return ids;
}

describe('a batch stores each result’s confidence, reasons and review flag', () => {
  it('lists them beside id, src and alt_text: the unsure result is flagged, the sure one is not', async () => {
    const user = await createUser(t, 5);
    await uploadBatch(user, [
      { fixture: 'coffee.jpg', name: 'coffee.jpg' },
      { fixture: 'plain-background.png', name: 'unsure-background.png' },
    ]);
    const response = await list(user);
    expect(response.statusCode).toBe(200);
    const rows = response.json() as Listed[];
    expect(rows).toHaveLength(2);
    const unsure = rows.find((row) => row.alt_text.includes('unsure-background.png'));
    const sure = rows.find((row) => row.alt_text.includes('coffee.jpg'));
    expect(unsure).toEqual({
      id: expect.any(String),
      src: expect.any(String),
      alt_text: expect.any(String),
      origin: 'ai',
      confidence: 0.31,
      needsReview: true,
      reasons: unsureReasons,
      needsWords: false,
      needsWordsReason: null,
      publishable: true,
      longDescription: null,
      // An upload: its stored preview (ADR 051) and its own file name.
      thumbnailUrl: expect.stringMatching(/\/files\/previews\/.+\.webp$/),
      fileName: 'unsure-background.png',
    });
    expect(sure).toMatchObject({ confidence: 0.87, needsReview: false, reasons: sureReasons });

    // The filter lists only the flagged one, paged or not.
    expect((await list(user, '?needsReview=true')).json()).toEqual([unsure]);
    const paged = await list(user, '?page=1&pageSize=25&needsReview=true');
    expect(paged.headers['x-total-count']).toBe('1');
    expect(paged.json()).toEqual([unsure]);
    expect((await list(user, '?needsReview=false')).json()).toEqual([sure]);
  });

  it('answers null confidence and no reasons for rows written before confidence existed', async () => {
    const user = await createUser(t);
    await t.app.deps.database.db.transaction((tx) =>
      addLibraryImages(tx, user.id, [{ src: 'https://example.com/old.jpg', altText: 'An old row' }]),
    );
    expect((await list(user)).json()).toEqual([
      {
        id: expect.any(String),
        src: 'https://example.com/old.jpg',
        alt_text: 'An old row',
        origin: 'ai',
        confidence: null,
        needsReview: false,
        reasons: [],
        needsWords: false,
        needsWordsReason: null,
        publishable: true,
        longDescription: null,
        thumbnailUrl: null,
        fileName: 'old.jpg',
      },
    ]);
  });
});

describe('GET /images/altText?needsReview=true', () => {
  it('pages only the caller’s flagged images, newest first, and counts them in x-total-count', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    // 40 rows, every row but each fourth flagged: 30 flagged (newest first: 39, 38, 37, 35, ...).
    const ids = await addRows(owner, 40, (index) => index % 4 !== 0);
    await addRows(other, 3, () => true);
    const flaggedNewestFirst = ids.filter((_, index) => index % 4 !== 0).reverse();

    const first = await list(owner, `?userId=${owner.id}&page=1&pageSize=25&needsReview=true`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-total-count']).toBe('30');
    const second = await list(owner, '?page=2&pageSize=25&needsReview=true');
    expect(second.headers['x-total-count']).toBe('30');
    const seen = [...first.json(), ...second.json()] as Listed[];
    expect(seen.map((row) => row.id)).toEqual(flaggedNewestFirst);
    expect(seen.every((row) => row.needsReview && row.confidence === 0.2)).toBe(true);
    expect((await list(owner, '?page=3&pageSize=25&needsReview=true')).json()).toEqual([]);

    // Without the filter: the whole library, as before.
    const all = await list(owner, '?page=1&pageSize=25');
    expect(all.headers['x-total-count']).toBe('40');
    expect((await list(owner, '?needsReview=true')).json()).toHaveLength(30);
    expect((await list(owner, '?page=1&needsReview=false')).headers['x-total-count']).toBe('10');
  });

  it('answers 400 for a needsReview that is not true or false', async () => {
    const owner = await createUser(t);
    for (const value of ['yes', '1', '']) {
      const response = await list(owner, `?page=1&needsReview=${value}`);
      expect(response.statusCode, value).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    }
    expect((await list(owner, '?needsReview=maybe')).json().errors).toEqual([
      expect.objectContaining({ message: 'needsReview must be true or false' }),
    ]);
  });
});

describe('POST /images/altText/{id}/approve', () => {
  it('clears the flag, answers the updated image and keeps its alt text, confidence and reasons', async () => {
    const owner = await createUser(t);
    const [kept, flagged] = await addRows(owner, 2, (index) => index === 1);
    const response = await approve(owner, flagged ?? '');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: flagged,
      src: 'https://example.com/1.jpg',
      alt_text: 'Harbour view 1',
      // Approved unchanged: an engine's text is now reviewed (ADR 057).
      origin: 'ai-reviewed',
      confidence: 0.2,
      needsReview: false,
      reasons: [{ source: 'ocr', detail: 'image 1' }],
      needsWords: false,
      needsWordsReason: null,
      publishable: true,
      longDescription: null,
      thumbnailUrl: null,
      fileName: '1.jpg',
    });
    expect((await list(owner, '?needsReview=true')).json()).toEqual([]);
    expect((await list(owner)).json()).toEqual([response.json(), expect.objectContaining({ id: kept })]);
    // Approving again, or an image that needed no review, changes nothing.
    expect((await approve(owner, flagged ?? '')).json()).toEqual(response.json());
    expect((await approve(owner, kept ?? '')).json()).toMatchObject({ id: kept, needsReview: false });
  });

  it('answers 409 UNPUBLISHABLE_ALT for an image that needs words, naming it, and changes nothing', async () => {
    const owner = await createUser(t);
    const [row] = await t.app.deps.database.db.transaction((tx) =>
      addLibraryImages(tx, owner.id, [
        {
          src: 'https://example.com/dark.jpg',
          altText: '',
          confidence: 0.1,
          reasons: [{ source: 'pixels', detail: 'mostly black' }],
          needsReview: true,
        },
      ]),
    );
    const id = row?.id ?? '';
    const [listed] = (await list(owner)).json();
    expect(listed).toMatchObject({
      id,
      alt_text: '',
      needsWords: true,
      needsWordsReason: expect.stringContaining('needs your words'),
      publishable: false,
      reasons: [{ source: 'pixels', detail: 'mostly black' }],
    });
    const response = await approve(owner, id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'UNPUBLISHABLE_ALT',
      message: expect.stringContaining('Nothing was changed'),
      errors: [{ path: 'imageIds', imageId: id, code: 'needs-words', message: expect.any(String) }],
    });
    expect((await list(owner, '?needsReview=true')).json()).toHaveLength(1);
  });

  it('answers 404 for another user’s image and for no image, 400 for a malformed id, 401 signed out', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const [theirs] = await addRows(other, 1, () => true);
    for (const id of [theirs ?? '', randomUUID()]) {
      const response = await approve(owner, id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 'NOT_FOUND',
        message: 'There is no such image in your library.',
      });
    }
    const malformed = await approve(owner, 'not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    expect((await approve(null, theirs ?? '')).statusCode).toBe(401);
    // The other user's image still needs review.
    expect((await list(other, '?needsReview=true')).json()).toEqual([
      expect.objectContaining({ id: theirs }),
    ]);
  });
});

describe('PATCH /images/altText/{id} is a person’s review', () => {
  it('clears the flag with the new wording', async () => {
    const owner = await createUser(t);
    const [flagged] = await addRows(owner, 1, () => true);
    const response = await patch(owner, flagged ?? '', 'A red kite above a beach');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: flagged,
      alt_text: 'A red kite above a beach',
      needsReview: false,
    });
    expect((await list(owner, '?needsReview=true')).json()).toEqual([]);
  });
});

describe('POST /images/altText/{id}/regenerate', () => {
  it('replaces the confidence, reasons and flag with the new result’s, either way', async () => {
    const user = await createUser(t, 3);
    await uploadBatch(user, [{ fixture: 'coffee.jpg', name: 'coffee.jpg' }]);
    const [row] = (await list(user)).json() as Listed[];
    if (!row) throw new Error('no row');
    expect(row).toMatchObject({ confidence: 0.87, needsReview: false });

    const regenerate = (chatGptPrompt?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/images/altText/${row.id}/regenerate`,
        payload: chatGptPrompt ? { chatGptPrompt } : {},
        headers: user.auth,
      });
    expect((await regenerate('be unsure')).statusCode).toBe(200);
    expect((await list(user)).json()).toEqual([
      {
        ...row,
        alt_text: expect.stringContaining('be unsure'),
        confidence: 0.31,
        needsReview: true,
        reasons: unsureReasons,
      },
    ]);
    expect((await list(user, '?needsReview=true')).json()).toHaveLength(1);

    expect((await regenerate()).statusCode).toBe(200);
    expect((await list(user)).json()).toEqual([
      { ...row, alt_text: expect.not.stringContaining('be unsure'), confidence: 0.87, needsReview: false },
    ]);
    expect(await balanceOf(t, user)).toBe(0);
  });
});
