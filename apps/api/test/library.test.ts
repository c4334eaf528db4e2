import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { addLibraryImages, countLibraryImages } from '../src/modules/library/service.ts';
import { createUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.cleanup());

const list = (headers: Record<string, string>, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/v1/images/altText${query}`, headers });
const remove = (payload: unknown, headers: Record<string, string>) =>
  t.app.inject({ method: 'DELETE', url: '/api/v1/images/altText', payload: payload as object, headers });

/** Stores images one by one, a millisecond apart, so that their order is known. */
async function addImages(userId: string, names: string[]) {
  const stored = [];
  for (const name of names) {
    const [row] = await t.app.deps.database.db.transaction((tx) =>
      addLibraryImages(tx, userId, [
        { src: `https://example.com/${name}.jpg`, altText: `A photo of ${name}`, engine: 'offline' },
      ]),
    );
    if (!row) throw new Error('no row');
    stored.push(row);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return stored;
}

describe('GET /images/altText', () => {
  it('needs a signed-in user', async () => {
    const response = await list({});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
    expect((await remove({ ids: [randomUUID()] }, {})).statusCode).toBe(401);
  });

  it('lists only the caller’s images, newest first, as {id, src, alt_text} and the review fields', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const [cat, dog] = await addImages(owner.id, ['cat', 'dog']);
    await addImages(other.id, ['secret']);

    const response = await list(owner.auth, `?userId=${owner.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    // Rows written without an engine verdict: no confidence, no reasons, nothing to review.
    const unrated = {
      origin: 'ai',
      confidence: null,
      needsReview: false,
      reasons: [],
      // No evidence was ever recorded and the words are not filler: it may go live (ADR 067).
      needsWords: false,
      needsWordsReason: null,
      publishable: true,
      longDescription: null,
      thumbnailUrl: null,
    };
    expect(response.json()).toEqual([
      // An image added by its address is named by the address's last segment.
      {
        id: dog?.id,
        src: 'https://example.com/dog.jpg',
        alt_text: 'A photo of dog',
        ...unrated,
        fileName: 'dog.jpg',
      },
      {
        id: cat?.id,
        src: 'https://example.com/cat.jpg',
        alt_text: 'A photo of cat',
        ...unrated,
        fileName: 'cat.jpg',
      },
    ]);
    // Without userId too: the token says who is asking.
    expect((await list(owner.auth)).json()).toHaveLength(2);
    expect((await list(other.auth)).json()).toEqual([
      expect.objectContaining({ src: 'https://example.com/secret.jpg' }),
    ]);
    const fresh = await createUser(t);
    expect((await list(fresh.auth)).json()).toEqual([]);
  });

  it('refuses a userId that names someone else with 403', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    await addImages(other.id, ['private']);
    const response = await list(owner.auth, `?userId=${other.id}`);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.any(String) });
  });
});

describe('GET /images/altText?page=&pageSize=', () => {
  it('pages the caller’s library newest first and counts the whole library in x-total-count', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    // 27 images: page 1 of size 25 holds the 25 newest, page 2 the 2 oldest.
    const names = Array.from({ length: 27 }, (_, i) => `img-${String(i).padStart(2, '0')}`);
    await t.app.deps.database.db.transaction(async (tx) => {
      for (const name of names)
        await addLibraryImages(tx, owner.id, [{ src: `https://example.com/${name}.jpg`, altText: name }]);
    });
    await addImages(other.id, ['not-mine']);

    const first = await list(owner.auth, `?userId=${owner.id}&page=1&pageSize=25`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-total-count']).toBe('27');
    expect(first.json()).toHaveLength(25);
    const second = await list(owner.auth, '?page=2&pageSize=25');
    expect(second.headers['x-total-count']).toBe('27');
    expect(second.json()).toHaveLength(2);
    const seen = [...first.json(), ...second.json()].map((row: { alt_text: string }) => row.alt_text);
    expect(new Set(seen).size).toBe(27);
    expect(seen).not.toContain('A photo of not-mine');
    // Past the end: an empty page, not an error. Default page size is 25.
    expect((await list(owner.auth, '?page=9')).json()).toEqual([]);
    expect((await list(owner.auth, '?page=1')).json()).toHaveLength(25);
  });

  it('refuses bad paging with 400 and someone else’s userId with 403', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    for (const query of ['?page=0', '?page=-1', '?page=abc', '?page=1&pageSize=7', '?page=1&pageSize=1000']) {
      const response = await list(owner.auth, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    }
    expect((await list(owner.auth, '?page=1&pageSize=7')).json().errors).toEqual([
      expect.objectContaining({ message: 'pageSize must be one of 25, 50, 100, 500' }),
    ]);
    expect((await list(owner.auth, `?page=1&userId=${other.id}`)).statusCode).toBe(403);
  });
});

describe('PATCH /images/altText/{id}', () => {
  const patch = (id: string, payload: unknown, headers: Record<string, string>) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/v1/images/altText/${id}`,
      payload: payload as object,
      headers,
    });

  it('replaces the caller’s alt text, trimmed, and leaves the image otherwise as it was', async () => {
    const owner = await createUser(t);
    const [image] = await addImages(owner.id, ['dog']);
    const id = image?.id ?? '';
    const response = await patch(id, { alt_text: '  A brown dog catching a red frisbee  ' }, owner.auth);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id,
      src: 'https://example.com/dog.jpg',
      alt_text: 'A brown dog catching a red frisbee',
      // A person's words over an engine's (ADR 057).
      origin: 'ai-edited',
      confidence: null,
      needsReview: false,
      reasons: [],
      needsWords: false,
      needsWordsReason: null,
      publishable: true,
      longDescription: null,
      thumbnailUrl: null,
      fileName: 'dog.jpg',
    });
    expect((await list(owner.auth)).json()).toEqual([response.json()]);
    const [row] = await t.app.deps.database.db.select().from(libraryImages).where(eq(libraryImages.id, id));
    expect(row?.engine).toBe('manual');
  });

  it('answers 404 for another user’s image and for no image, and changes nothing', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const [theirs] = await addImages(other.id, ['theirs']);
    for (const id of [theirs?.id ?? '', randomUUID()]) {
      const response = await patch(id, { alt_text: 'Taken over' }, owner.auth);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        code: 'NOT_FOUND',
        message: 'There is no such image in your library.',
      });
    }
    expect((await list(other.auth)).json()[0].alt_text).toBe('A photo of theirs');
    expect((await patch(theirs?.id ?? '', { alt_text: 'x' }, {})).statusCode).toBe(401);
  });

  it('answers 400 for an empty, missing or overlong alt text and for a malformed id', async () => {
    const owner = await createUser(t);
    const [image] = await addImages(owner.id, ['cat']);
    const id = image?.id ?? '';
    const cases: [unknown, string][] = [
      [{ alt_text: '   ' }, 'Alt text cannot be empty'],
      [{}, 'Alt text is required'],
      [{ alt_text: 'x'.repeat(1001) }, 'Alt text must be at most 1,000 characters'],
      [{ alt_text: 'ok', extra: true }, ''],
    ];
    for (const [payload, message] of cases) {
      const response = await patch(id, payload, owner.auth);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      if (message) expect(response.json().errors).toEqual([expect.objectContaining({ message })]);
    }
    expect((await patch('not-a-uuid', { alt_text: 'x' }, owner.auth)).statusCode).toBe(400);
    expect((await list(owner.auth)).json()[0].alt_text).toBe('A photo of cat');
  });
});

describe('DELETE /images/altText', () => {
  it('deletes only the caller’s rows among the ids', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const [a, b, c] = await addImages(owner.id, ['a', 'b', 'c']);
    const [theirs] = await addImages(other.id, ['theirs']);

    const response = await remove({ ids: [a?.id, c?.id, theirs?.id, randomUUID()] }, owner.auth);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, deleted: 2 });
    expect((await list(owner.auth)).json()).toEqual([expect.objectContaining({ id: b?.id })]);
    expect((await list(other.auth)).json()).toEqual([expect.objectContaining({ id: theirs?.id })]);

    // Deleting again changes nothing.
    expect((await remove({ ids: [a?.id] }, owner.auth)).json()).toEqual({ success: true, deleted: 0 });
  });

  it('answers 400 with a clear message unless ids is a list of 1 to 500 UUIDs', async () => {
    const owner = await createUser(t);
    const [kept] = await addImages(owner.id, ['kept']);
    for (const payload of [
      { ids: ['not-an-id'] },
      { ids: [kept?.id, "1' OR '1'='1"] },
      { ids: [] },
      { ids: 'all' },
      {},
      { ids: Array.from({ length: 501 }, () => randomUUID()) },
    ]) {
      const response = await remove(payload, owner.auth);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    }
    const bad = (await remove({ ids: ['not-an-id'] }, owner.auth)).json();
    expect(bad.errors).toEqual([
      expect.objectContaining({ message: 'Each id must be an image id (a UUID)' }),
    ]);
    const many = await remove({ ids: Array.from({ length: 501 }, () => randomUUID()) }, owner.auth);
    expect(many.json().errors).toEqual([
      expect.objectContaining({ message: 'At most 500 images can be deleted at once' }),
    ]);
    expect((await list(owner.auth)).json()).toEqual([expect.objectContaining({ id: kept?.id })]);
    const ok = await remove({ ids: Array.from({ length: 500 }, () => randomUUID()) }, owner.auth);
    expect(ok.json()).toEqual({ success: true, deleted: 0 });
  });
});

describe('deleting an uploaded image', () => {
  it('removes its stored file with its row, and leaves the files of rows that stay', async () => {
    const owner = await createUser(t);
    const saved = await Promise.all(
      ['gone', 'kept'].map((name) =>
        t.app.deps.files.saveFile({
          body: new TextEncoder().encode(
            `<svg xmlns="http://www.w3.org/2000/svg"><title>${name}</title></svg>`,
          ),
          contentType: 'image/svg+xml',
          folder: 'uploads',
          ownerId: owner.id,
        }),
      ),
    );
    const rows = await t.app.deps.database.db
      .insert(libraryImages)
      .values(
        saved.map((file) => ({
          userId: owner.id,
          src: `http://altwise.test/files/${file.key}`,
          altText: 'An uploaded drawing',
          fileKey: file.key,
        })),
      )
      .returning();
    const fetchFile = (key: string) => t.app.inject({ method: 'GET', url: `/files/${key}` });
    expect((await fetchFile(saved[0]?.key ?? '')).statusCode).toBe(200);

    expect((await remove({ ids: [rows[0]?.id] }, owner.auth)).json()).toEqual({ success: true, deleted: 1 });
    expect((await fetchFile(saved[0]?.key ?? '')).statusCode).toBe(404);
    expect(await t.app.deps.files.findFile(saved[0]?.key ?? '')).toBeUndefined();
    expect((await fetchFile(saved[1]?.key ?? '')).statusCode).toBe(200);
  });
});

describe('the library in the profile and the account', () => {
  it('counts the caller’s images as the profile’s imagecount', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const profile = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/users/profile', headers: owner.auth })).json().user;
    expect((await profile()).imagecount).toBe(0);
    const [first] = await addImages(owner.id, ['one', 'two', 'three']);
    await addImages(other.id, ['elsewhere']);
    expect((await profile()).imagecount).toBe(3);
    expect(await countLibraryImages(t.app.deps.database.db, owner.id)).toBe(3);
    await remove({ ids: [first?.id] }, owner.auth);
    expect((await profile()).imagecount).toBe(2);
  });

  it('stores nothing when the caller’s transaction rolls back', async () => {
    const owner = await createUser(t);
    await expect(
      t.app.deps.database.db.transaction(async (tx) => {
        await addLibraryImages(tx, owner.id, [{ src: 'https://example.com/x.jpg', altText: 'x' }]);
        throw new Error('batch failed');
      }),
    ).rejects.toThrow('batch failed');
    const rows = await t.app.deps.database.db
      .select()
      .from(libraryImages)
      .where(eq(libraryImages.userId, owner.id));
    expect(rows).toEqual([]);
  });
});
