import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi from '../openapi.json' with { type: 'json' };
import { checkoutSessions } from '../src/db/tables/checkout-sessions.ts';
import { creditReservations } from '../src/db/tables/credit-reservations.ts';
import { generationBatches } from '../src/db/tables/generation-batches.ts';
import { storedFiles } from '../src/db/tables/stored-files.ts';
import { addLibraryImages } from '../src/modules/library/service.ts';
import { assertOwnUserId } from '../src/plugins/ownership.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { multipartBody } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

const fixture = (name: string) => readFile(path.join(import.meta.dirname, 'fixtures', 'images', name));

/** Every route that takes a `userId` (query, path, JSON body) or a multipart form, tested below. */
const gatedRoutes = [
  'GET /api/v1/images/altText',
  'POST /api/v1/images/generate-alt-text',
  'POST /api/v1/images/upload-and-generate',
  'POST /api/v1/images/import-csv',
  'POST /api/v1/images/generate',
  'POST /api/v1/images/edit-image',
  'POST /api/v1/images/generate-styled-caption',
  'POST /api/v1/images/createReels',
  'POST /api/v1/payments/create-checkout-session',
];

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let jpeg: Buffer;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await createUser(t, 100);
  other = await createUser(t, 100);
  jpeg = await fixture('rocket.jpg');
  await t.app.deps.database.db.transaction((tx) =>
    addLibraryImages(tx, other.id, [
      { src: 'https://example.com/private.jpg', altText: 'A private photo', engine: 'offline' },
    ]),
  );
});
afterAll(() => t.cleanup());

/** What a refused request could have left behind: none of it may change. */
async function traces() {
  const db = t.app.deps.database.db;
  const count = (table: Parameters<typeof db.$count>[0]) => db.$count(table);
  const reelDirs = await readdir(t.config.reels.tempDir).catch(() => []);
  return {
    ownerCredits: await balanceOf(t, owner),
    otherCredits: await balanceOf(t, other),
    files: await count(storedFiles),
    reservations: await count(creditReservations),
    batches: await count(generationBatches),
    checkouts: await count(checkoutSessions),
    reelWorkDirs: reelDirs.filter((name) => name.startsWith('reel-')).length,
  };
}

function expectForbidden(response: { statusCode: number; json: () => unknown }) {
  expect(response.statusCode).toBe(403);
  expect(response.json()).toEqual({ message: 'You can only act for your own account.', code: 'FORBIDDEN' });
}

const image = () => ({ name: 'image', fileName: 'rocket.jpg', contentType: 'image/jpeg', bytes: jpeg });
const otherUserId = () => ({ name: 'userId', value: other.id });

/** Posts as the owner: a JSON body, or a multipart form built from its parts. */
const postJson = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: owner.auth, payload });
function postForm(url: string, parts: Parameters<typeof multipartBody>[0]) {
  const form = multipartBody(parts);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...owner.auth, ...form.headers },
    payload: form.payload,
  });
}

describe('the ownership gate: a userId naming someone else is 403 and nothing is done', () => {
  it('covers every route that takes a userId or a form', () => {
    const found: string[] = [];
    for (const [route, operations] of Object.entries(openapi.paths as Record<string, object>)) {
      for (const [method, operation] of Object.entries(
        operations as Record<string, Record<string, unknown>>,
      )) {
        const parameters = (operation.parameters ?? []) as Array<{ name: string }>;
        const body = JSON.stringify(operation.requestBody ?? {});
        // A multipart route documents its form fields in its description.
        const form = String(operation.description ?? '').includes('multipart/form-data');
        const takesUserId =
          parameters.some((parameter) => parameter.name === 'userId') || body.includes('"userId"') || form;
        if (takesUserId) found.push(`${method.toUpperCase()} ${route}`);
      }
    }
    expect(found.sort()).toEqual([...gatedRoutes].sort());
  });

  it('GET /images/altText?userId=: the other library stays unseen', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/images/altText?userId=${other.id}`,
      headers: owner.auth,
    });
    expectForbidden(response);
    expect(response.body).not.toContain('private');
    const paged = await t.app.inject({
      method: 'GET',
      url: `/api/v1/images/altText?page=1&userId=${other.id}`,
      headers: owner.auth,
    });
    expectForbidden(paged);
    // The caller's own id, blank or padded, is the caller.
    for (const userId of [owner.id, '', `%20${owner.id}%20`]) {
      const own = await t.app.inject({
        method: 'GET',
        url: `/api/v1/images/altText?userId=${userId}`,
        headers: owner.auth,
      });
      expect(own.statusCode, userId).toBe(200);
      expect(own.json()).toEqual([]);
    }
  });

  it('POST /images/generate-alt-text: no batch, no credits reserved', async () => {
    const before = await traces();
    const response = await postJson('/api/v1/images/generate-alt-text', {
      userId: other.id,
      selectedImages: [{ src: 'https://example.com/a.jpg', alt: '' }],
    });
    expectForbidden(response);
    expect(await traces()).toEqual(before);
  });

  it('POST /images/upload-and-generate: the userId field before or after the files stores nothing', async () => {
    const before = await traces();
    const files = [
      { name: 'images', fileName: 'a.jpg', contentType: 'image/jpeg', bytes: jpeg },
      { name: 'images', fileName: 'b.jpg', contentType: 'image/jpeg', bytes: jpeg },
    ];
    for (const parts of [
      [otherUserId(), ...files],
      [...files, otherUserId()],
    ]) {
      expectForbidden(await postForm('/api/v1/images/upload-and-generate', parts));
    }
    expect(await traces()).toEqual(before);
  });

  it('POST /images/import-csv: the userId field before or after the file stores nothing', async () => {
    const before = await traces();
    const file = {
      name: 'file',
      fileName: 'images.csv',
      contentType: 'text/csv',
      bytes: Buffer.from('image_url\nhttps://example.com/a.jpg\n'),
    };
    for (const parts of [
      [otherUserId(), file],
      [file, otherUserId()],
    ]) {
      expectForbidden(await postForm('/api/v1/images/import-csv', parts));
    }
    expect(await traces()).toEqual(before);
  });

  it('POST /images/generate: nothing generated or charged', async () => {
    const before = await traces();
    const response = await postJson('/api/v1/images/generate', {
      prompt: 'A red bicycle',
      numberOfImages: 1,
      quality: 'low',
      userId: other.id,
    });
    expectForbidden(response);
    expect(await traces()).toEqual(before);
  });

  it('POST /images/edit-image and /images/generate-styled-caption: the form is refused, nothing charged', async () => {
    const before = await traces();
    for (const [url, fields] of [
      ['/api/v1/images/edit-image', [{ name: 'prompt', value: 'black and white' }]],
      ['/api/v1/images/generate-styled-caption', [{ name: 'prompt', value: 'playful' }]],
    ] as const) {
      for (const parts of [
        [...fields, otherUserId(), image()],
        [image(), ...fields, otherUserId()],
      ]) {
        expectForbidden(await postForm(url, parts));
      }
    }
    expect(await traces()).toEqual(before);
  });

  it('POST /images/createReels: no reel is made and the uploads are removed', async () => {
    const before = await traces();
    const response = await postForm('/api/v1/images/createReels', [
      { name: 'images', fileName: 'rocket.jpg', contentType: 'image/jpeg', bytes: jpeg },
      {
        name: 'audioFile',
        fileName: 'tone.mp3',
        contentType: 'audio/mpeg',
        // An MP3 by its first bytes (an ID3 tag), so the form is read up to the userId.
        bytes: Buffer.concat([
          Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'),
          Buffer.alloc(4086, 1),
        ]),
      },
      otherUserId(),
    ]);
    expectForbidden(response);
    expect(response.headers['content-type']).not.toContain('video/mp4');
    expect(await traces()).toEqual(before);
  });

  it('POST /payments/create-checkout-session: no checkout is opened', async () => {
    const before = await traces();
    const response = await postJson('/api/v1/payments/create-checkout-session', {
      productId: 'credit-pack',
      quantity: 2,
      userId: other.id,
    });
    expectForbidden(response);
    expect(await traces()).toEqual(before);
  });
});

describe('assertOwnUserId, the one rule', () => {
  const as = (user: { id: string } | null) => ({ user }) as unknown as FastifyRequest;

  it('lets through an absent, blank or own id', () => {
    for (const requested of [undefined, null, '', '   ', 'me-1', ' me-1 '])
      expect(() => assertOwnUserId(as({ id: 'me-1' }), requested)).not.toThrow();
  });

  it('refuses any other id, a non-string, or any id when nobody is signed in', () => {
    for (const requested of ['me-2', 'ME-1', ['me-1'], 1, { id: 'me-1' }])
      expect(() => assertOwnUserId(as({ id: 'me-1' }), requested)).toThrow(
        expect.objectContaining({ statusCode: 403, code: 'FORBIDDEN' }),
      );
    expect(() => assertOwnUserId(as(null), 'me-1')).toThrow(expect.objectContaining({ statusCode: 403 }));
    expect(() => assertOwnUserId(as(null), undefined)).not.toThrow();
  });
});
