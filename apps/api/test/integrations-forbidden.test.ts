import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWordPressUser, setWordPressRole } from '../../../scripts/lib/wordpress.ts';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';
import {
  type AuditItem,
  type Change,
  connectAndImport,
  createImagePost,
  fixAndApprove,
  groundedEngine,
  integrationApi,
  openWordPress,
  runTag,
  type SeededMedia,
  type SeededPost,
  uploadPng,
  type WordPressSite,
} from './wordpress-helpers.ts';

/**
 * "Lacks the capability to edit a post (403)", against the real WordPress: the site is
 * connected as an Editor, imported, fixed and approved; then the administrator makes that user an
 * Author, who may edit only their own posts and files. Publishing writes the user's own post, names
 * the administrator's post and image it may not write, leaves them untouched, and a retry after the
 * role is given back writes them, each exactly once.
 */

let site: WordPressSite;
let readPost: Awaited<ReturnType<typeof openWordPress>>['readPost'];
let readAlt: Awaited<ReturnType<typeof openWordPress>>['readAlt'];
let t: TestApp;
let owner: TestUser;
/** The WordPress may be shared by the whole test run: this file's users, posts and files carry their own tag. */
const run = runTag();
let editor: Awaited<ReturnType<typeof createWordPressUser>>;
let adminImage: SeededMedia;
let ownImage: SeededMedia;
let adminPost: SeededPost;
let ownPost: SeededPost;

const { call: api, settled } = integrationApi(
  () => t,
  () => owner,
  { timeoutMs: 60_000 },
);

beforeAll(async () => {
  ({ site, readPost, readAlt } = await openWordPress());
  editor = await createWordPressUser(site, { username: `editor-${run}`, role: 'editor' });
  adminImage = await uploadPng(site, { name: `quay-${run}.png`, color: '#306090', width: 40, height: 30 });
  adminPost = await createImagePost(site, {
    title: `The old quay ${run}`,
    text: 'The old quay was rebuilt in stone.',
    images: [[adminImage, 'IMG_7001.png']],
  });
  ownImage = await uploadPng(editor, { name: `nets-${run}.png`, color: '#b07020', width: 40, height: 30 });
  ownPost = await createImagePost(editor, {
    title: `Mending the nets ${run}`,
    text: 'Nets are mended on the quay every winter.',
    images: [[ownImage, 'IMG_7002.png']],
  });
  t = await buildTestApp({
    env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' },
    engine: groundedEngine(),
  });
  owner = await createUser(t, 20);
}, 180_000);

afterAll(async () => {
  await t?.cleanup();
  await site?.stop();
});

describe('a user who lacks the capability to edit a post (WordPress answers 403)', () => {
  it('publishes the rest, names the post it may not edit, leaves it untouched, and a retry writes it once', async () => {
    const imported = await connectAndImport(api, settled, {
      siteUrl: site.url,
      username: editor.username,
      applicationPassword: editor.applicationPassword,
    });
    expect(imported.status, JSON.stringify(imported)).toBe('imported');
    const { id } = imported;
    const auditId = imported.auditId as string;

    // This file's three failing images: the administrator's attachment in the library, and the
    // use of each image in its post.
    const ours = (items: AuditItem[]) =>
      items.filter(
        (item) =>
          item.pageUrl === adminPost.link ||
          item.pageUrl === ownPost.link ||
          (item.pageUrl.endsWith('/upload.php') && item.src === adminImage.sourceUrl),
      );
    const { failing, approved: suggested } = await fixAndApprove(api, auditId, ours);
    expect(failing).toHaveLength(3);
    const wordsFor = (pageUrl: string) =>
      suggested.find((item) => item.pageUrl === pageUrl)?.suggestion as string;

    // The administrator makes the user an Author: their own post stays theirs, the rest is not.
    await setWordPressRole(site, editor.id, 'author');
    const adminBefore = await readPost(adminPost.id);
    const ownBefore = (await readPost(ownPost.id)).content.raw;

    expect((await api('POST', `/integrations/${id}/publish`, {})).statusCode).toBe(202);
    const partly = await settled(id);
    expect(partly.status).toBe('imported');
    expect(partly.notice).toBe(`Published 1 alt text to ${new URL(site.url).host}.`);
    expect(partly.error).toContain(
      `does not let this user do this (HTTP 403) while reading “The old quay ${run}”`,
    );
    expect(partly.error).toMatch(/Sorry, you are not allowed to edit this post/);
    expect(partly.error).toContain(`(HTTP 403) while reading image ${adminImage.id}`);
    // Each place not written is recorded as failed, with why: the post's use and the attachment.
    expect(partly.failures).toHaveLength(2);
    expect(partly.failures).toEqual(
      expect.arrayContaining([
        {
          mediaId: adminImage.id,
          postId: adminPost.id,
          message: expect.stringContaining(`(HTTP 403) while reading “The old quay ${run}”`),
        },
        {
          mediaId: adminImage.id,
          postId: null,
          message: expect.stringContaining(`(HTTP 403) while reading image ${adminImage.id}`),
        },
      ]),
    );
    // The administrator's post and image are untouched; the user's own post has its new words only.
    expect(await readPost(adminPost.id)).toEqual(adminBefore);
    expect(await readAlt(adminImage.id)).toBe('');
    const ownAfter = (await readPost(ownPost.id)).content.raw;
    const ownWords = wordsFor(ownPost.link);
    // An Author has no `unfiltered_html`, so WordPress's kses writes `<img … />` with a space: its
    // own normalisation of any save by such a user; apart from it only the alt's value differs.
    expect(ownAfter.replace(`alt="${ownWords}"`, 'alt="IMG_7002.png"').replace(' />', '/>')).toBe(ownBefore);
    const firstChanges = (await api('GET', `/integrations/${id}/changes`)).json() as Change[];
    expect(firstChanges).toEqual([
      expect.objectContaining({
        postId: ownPost.id,
        field: 'content',
        before: 'IMG_7002.png',
        after: ownWords,
      }),
    ]);

    // Retrying as an Author fails the same way and writes nothing twice.
    expect((await api('POST', `/integrations/${id}/publish`, {})).statusCode).toBe(202);
    const still = await settled(id);
    expect(still.notice).toBe(`Published 0 alt texts to ${new URL(site.url).host}. 1 was already there.`);
    expect(still.error).toContain(`“The old quay ${run}”`);
    expect(await readPost(adminPost.id)).toEqual(adminBefore);
    expect((await api('GET', `/integrations/${id}/changes`)).json()).toHaveLength(1);

    // The role given back, a retry writes the post and the image it could not write before.
    await setWordPressRole(site, editor.id, 'editor');
    expect((await api('POST', `/integrations/${id}/publish`, {})).statusCode).toBe(202);
    const done = await settled(id);
    expect(done.error).toBeNull();
    expect(done.failures).toEqual([]);
    expect(done.notice).toBe(`Published 2 alt texts to ${new URL(site.url).host}. 1 was already there.`);
    const adminWords = wordsFor(adminPost.link);
    expect((await readPost(adminPost.id)).content.raw).toBe(
      adminBefore.content.raw.replace('alt="IMG_7001.png"', `alt="${adminWords}"`),
    );
    expect(await readAlt(adminImage.id)).toBeTruthy();
    const changes = (await api('GET', `/integrations/${id}/changes`)).json() as Change[];
    expect(changes).toHaveLength(3);
    expect(new Set(changes.map((change) => `${change.field}:${change.mediaId}:${change.postId}`)).size).toBe(
      3,
    );
  }, 150_000);
});
