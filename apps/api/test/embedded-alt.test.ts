import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { imageWithEmbeddedText } from './embedded-fixtures.ts';
import { uploadImages, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * Embedded metadata is evidence (point 7; ADR 055): an upload whose file carries IPTC
 * Alt Text (Accessibility) gets that alt text from the real offline engine, with the `embedded`
 * reason, and its Extended Description (Accessibility) as the long description.
 */

const altText = 'Red kite gliding over a heather-covered hill';
const extendedDescription =
  'A red kite with its forked tail spread glides low over a hillside of purple heather under a grey sky.';

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await createUser(t, 5);
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
});

type LibraryRow = {
  src: string;
  alt_text: string;
  reasons: { source: string; detail: string }[];
  longDescription: string | null;
};

const libraryRows = async () => {
  const listed = await t.app.inject({ method: 'GET', url: '/api/v1/images/altText', headers: owner.auth });
  expect(listed.statusCode).toBe(200);
  return listed.json() as (LibraryRow & { id: string })[];
};

/** Uploads one file and answers its library row (the one row that was not there before). */
async function uploadAndList(fileName: string, bytes: Uint8Array): Promise<LibraryRow> {
  const before = new Set((await libraryRows()).map((row) => row.id));
  const response = await uploadImages(t, owner.auth, [
    { name: 'images', fileName, contentType: 'image/jpeg', bytes },
  ]);
  expect(response.statusCode).toBe(202);
  expect(await waitForBatch(t, owner.auth, response.json().batchId, 60_000)).toMatchObject({
    completed: 1,
    failed: 0,
  });
  const added = (await libraryRows()).filter((row) => !before.has(row.id));
  expect(added).toHaveLength(1);
  return added[0] as LibraryRow;
}

describe('embedded alt text on upload', () => {
  it('keeps a JPEG’s IPTC alt text with the embedded reason and its extended description', async () => {
    const bytes = await imageWithEmbeddedText({ altText, extendedDescription }, 'jpeg', 96);
    const row = await uploadAndList('kite.jpg', bytes);
    // Kept word for word; the offline engine ends every alt text as a sentence.
    expect(row.alt_text).toBe(`${altText}.`);
    expect(row.reasons).toContainEqual({
      source: 'embedded',
      detail: `IPTC Alt Text (Accessibility): ${altText}`,
    });
    expect(row.longDescription).toBe(extendedDescription);
  }, 90_000);

  it('ignores a camera’s "OLYMPUS DIGITAL CAMERA" description', async () => {
    const bytes = await imageWithEmbeddedText({ exifDescription: 'OLYMPUS DIGITAL CAMERA' }, 'jpeg', 96);
    const row = await uploadAndList('olympus.jpg', bytes);
    expect(row.alt_text).not.toMatch(/olympus/i);
    expect(row.reasons.map((reason) => reason.source)).not.toContain('embedded');
    expect(row.longDescription).toBeNull();
  }, 90_000);
});
