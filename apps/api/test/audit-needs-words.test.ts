import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryImages } from '../src/db/tables/library-images.ts';
import type { AltTextEngine, AltTextReason } from '../src/engines/types.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { startFixtureSite } from './fixture-site.ts';
import { createTestEngine } from './generation-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';

/** A file name for alt (the engine grounds its words), and an image with nothing to go on. */
const page = `<!doctype html><html><head><title>Launch day</title></head><body>
  <h2>Breakfast</h2>
  <figure><a href="/menu"><img src="/img/coffee.jpg" alt="IMG_2041.jpg"></a></figure>
  <figure><img src="/img/camera.jpg"><figcaption>Our morning</figcaption></figure>
</body></html>`;

const needsWordsReason = 'No text, caption or confident object in or around this image.';
const grounds: AltTextReason[] = [
  { source: 'heading', detail: 'Breakfast' },
  { source: 'detection', detail: 'cup', score: 0.22 },
];

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let base = '';
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
const testEngine = createTestEngine();
// The engine finds nothing it can stand behind for the camera (no alt, nothing read): no words.
const engine: AltTextEngine = {
  ...testEngine,
  async describeImage(bytes, options = {}) {
    const result = await testEngine.describeImage(bytes, options);
    if (options.context?.existingAlt) return result;
    return {
      ...result,
      altText: '',
      needsWords: true,
      needsWordsReason,
      reasons: grounds,
      needsReview: true,
    };
  },
};

type Image = {
  id: string;
  src: string;
  suggestion: string | null;
  reviewState: string | null;
  origin: string | null;
  suggestionEvidence: Record<string, unknown> | null;
  usedIn: Record<string, unknown>;
};

const api = (who: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: who.auth, ...(payload ? { payload } : {}) });

async function imagesOf(who: TestUser, auditId: string): Promise<Image[]> {
  const response = await api(who, 'GET', `/audits/${auditId}/images?pageSize=500`);
  expect(response.statusCode).toBe(200);
  return response.json().items;
}

const bySrc = (images: Image[], name: string) => {
  const image = images.find((candidate) => candidate.src.endsWith(`/img/${name}`));
  if (!image) throw new Error(`no image ${name}`);
  return image;
};

beforeAll(async () => {
  site = await startFixtureSite(page);
  base = site.base;
  t = await buildTestApp({ env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' }, engine });
  owner = await createUser(t, 10);
  stranger = await createUser(t, 10);
}, 240_000);

afterAll(async () => {
  await t?.cleanup();
  await site?.close();
});

describe('a fix whose engine found nothing to stand behind', () => {
  let auditId: string;
  let coffee: Image;
  let camera: Image;

  beforeAll(async () => {
    const started = await api(owner, 'POST', '/audits', { url: `${base}/`, scope: 'page' });
    expect(started.statusCode).toBe(202);
    auditId = started.json().id;
    await waitFor(async () => {
      const audit = (await api(owner, 'GET', `/audits/${auditId}`)).json();
      return audit.status === 'completed' ? audit : null;
    }, 120_000);
    const fix = await api(owner, 'POST', `/audits/${auditId}/fix`, {});
    expect(fix.statusCode).toBe(202);
    await waitFor(async () => {
      const batch = (await api(owner, 'GET', `/images/batches/${fix.json().batchId}`)).json();
      return batch.finishedAt ? batch : null;
    }, 120_000);
    const images = await imagesOf(owner, auditId);
    coffee = bySrc(images, 'coffee.jpg');
    camera = bySrc(images, 'camera.jpg');
  }, 240_000);

  it('stores no alt with the reason and the grounds, and says where the image is used', () => {
    expect(camera).toMatchObject({
      suggestion: '',
      reviewState: 'pending',
      suggestionEvidence: {
        needsWords: true,
        needsWordsReason,
        publishable: false,
        needsReview: true,
        reasons: grounds,
      },
      usedIn: { caption: 'Our morning', heading: 'Breakfast', linkTarget: null },
    });
    expect(coffee).toMatchObject({
      suggestion: expect.stringMatching(/^Test description of IMG_2041\.jpg/),
      suggestionEvidence: { needsWords: false, needsWordsReason: null, publishable: true },
      usedIn: { linkTarget: expect.stringMatching(/\/menu$/) },
    });
  });

  it('refuses to accept a named set holding it with 409, listing it, and changes nothing', async () => {
    const response = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [coffee.id, camera.id],
      action: 'accept',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'UNPUBLISHABLE_ALT',
      message:
        '1 of the selected images has no alt text we can approve: it needs your words first. Nothing was changed.',
      errors: [
        {
          path: 'imageIds',
          imageId: camera.id,
          code: 'needs-words',
          message: 'Nothing in or around this image tells us what it shows: it needs your words.',
        },
      ],
    });
    const images = await imagesOf(owner, auditId);
    expect(images.filter((image) => image.reviewState === 'pending')).toHaveLength(2);
  });

  it('approves all the others and counts the one skipped', async () => {
    const response = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [coffee.id, camera.id],
      action: 'accept',
      skipUnpublishable: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      skipped: 1,
      reviews: { pending: 1, accepted: 1, rejected: 0, edited: 0 },
    });
    const images = await imagesOf(owner, auditId);
    expect(bySrc(images, 'camera.jpg')).toMatchObject({ reviewState: 'pending', suggestion: '' });
    expect(bySrc(images, 'coffee.jpg')).toMatchObject({ reviewState: 'accepted' });
  });

  it('refuses bad requests with a clear 4xx', async () => {
    const empty = await api(owner, 'POST', `/audits/${auditId}/review`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    const skipWithEdit = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [camera.id],
      action: 'decorative',
      skipUnpublishable: true,
    });
    expect(skipWithEdit.statusCode).toBe(400);
    expect(skipWithEdit.json().message).toMatch(/skipUnpublishable goes only with the accept action/);
    const unknown = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: ['00000000-0000-4000-8000-000000000000'],
      action: 'decorative',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      code: 'NOT_FOUND',
      message: 'There is no such image in this audit.',
    });
    const theirs = await api(stranger, 'POST', `/audits/${auditId}/review`, {
      imageIds: [camera.id],
      action: 'decorative',
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'NOT_FOUND', message: 'There is no such audit.' });
    expect(bySrc(await imagesOf(owner, auditId), 'camera.jpg')).toMatchObject({ reviewState: 'pending' });
  });

  it('marks it decorative on purpose: a person’s empty alt, publishable, in the library', async () => {
    const response = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [camera.id],
      action: 'decorative',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().items).toEqual([
      expect.objectContaining({ id: camera.id, suggestion: '', reviewState: 'edited', origin: 'human' }),
    ]);
    const rows = await t.app.deps.database.db
      .select()
      .from(libraryImages)
      .where(eq(libraryImages.userId, owner.id));
    const row = rows.find((candidate) => candidate.src === camera.src);
    expect(row).toMatchObject({ altText: '', origin: 'human', needsReview: false });
    const listed = (await api(owner, 'GET', '/images/altText')).json() as Record<string, unknown>[];
    expect(listed.find((image) => image.id === row?.id)).toMatchObject({
      alt_text: '',
      needsWords: false,
      publishable: true,
    });
  });
});
