import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';
import {
  type AuditItem,
  type Change,
  connectAndImport,
  createPost,
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
 * ADR 069 against the real WordPress: every placement of an attachment is offered a fix (an
 * unmarked alt="" in a post fails), one description and one credit per photo however many posts
 * use it, the publish preview, its progress, words that may not go live held back, Undo that stays
 * undone, and a re-import that knows which words Altwise wrote.
 */

let site: WordPressSite;
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
const engine = groundedEngine();
const run = runTag();
const caption = `Fishing nets drying on the quay ${run}`;

let photo: SeededMedia;
let border: SeededMedia;
let nets: SeededPost;
let market: SeededPost;
let id: string;
let auditId: string;
let readPost: Awaited<ReturnType<typeof openWordPress>>['readPost'];
let readAlt: Awaited<ReturnType<typeof openWordPress>>['readAlt'];

const { call, settled } = integrationApi(
  () => t,
  () => owner,
  { timeoutMs: 60_000 },
);

type Image = AuditItem & { verdict: string; reviewState: string | null; origin: string | null };
const images = async (audit = auditId) =>
  (await call('GET', `/audits/${audit}/images?pageSize=500`)).json().items as Image[];
/** This file's images (the shared WordPress holds other suites' too). */
const ours = (items: Image[]) =>
  items.filter((item) => [photo.sourceUrl, border.sourceUrl].includes(item.src));

/** A block-editor image with an empty alt, as the editor saves one nobody described. */
const emptyAltBlock = (media: SeededMedia, figcaption?: string) =>
  `<!-- wp:image {"id":${media.id},"sizeSlug":"full","linkDestination":"none"} -->
<figure class="wp-block-image size-full"><img src="${media.sourceUrl}" alt="" class="wp-image-${media.id}"/>${figcaption ? `<figcaption class="wp-element-caption">${figcaption}</figcaption>` : ''}</figure>
<!-- /wp:image -->`;

beforeAll(async () => {
  ({ site, readPost, readAlt } = await openWordPress());
  photo = await uploadPng(site, { name: `nets-${run}.png`, color: '#3a6f4c' });
  border = await uploadPng(site, { name: `border-${run}.png`, color: '#d0a050' });
  nets = await createPost(site, {
    title: `Mending the nets ${run}`,
    content: [
      '<!-- wp:paragraph --><p>Every morning the crews mend their nets before the tide turns.</p><!-- /wp:paragraph -->',
      emptyAltBlock(photo, caption),
      // Marked decorative on WordPress: its empty alt is meant.
      `<!-- wp:image {"id":${border.id},"sizeSlug":"full","linkDestination":"none","decorative":true} -->
<figure class="wp-block-image size-full"><img src="${border.sourceUrl}" alt="" class="wp-image-${border.id}"/></figure>
<!-- /wp:image -->`,
    ].join('\n\n'),
  });
  market = await createPost(site, {
    title: `The fish market ${run}`,
    content: [
      '<!-- wp:paragraph --><p>The market opens at five.</p><!-- /wp:paragraph -->',
      emptyAltBlock(photo),
    ].join('\n\n'),
  });
  t = await buildTestApp({
    env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10' },
    engine,
  });
  owner = await createUser(t, 20);
  stranger = await createUser(t, 5);
}, 180_000);

afterAll(async () => {
  await t?.cleanup();
  await site?.stop();
});

describe('every placement, one description, a preview and an undo that stays', () => {
  it('checks an unmarked alt="" in a post as missing, and respects a decorative mark', async () => {
    const imported = await connectAndImport(call, settled, {
      siteUrl: site.url,
      username: site.username,
      applicationPassword: site.applicationPassword,
    });
    expect(imported.status, JSON.stringify(imported)).toBe('imported');
    id = imported.id;
    auditId = imported.auditId as string;
    const mine = ours(await images());
    const inNets = mine.filter((item) => item.pageUrl === nets.link);
    expect(inNets.map((item) => [item.src, item.verdict])).toEqual([
      [photo.sourceUrl, 'fail'],
      [border.sourceUrl, 'decorative'],
    ]);
    expect(mine.find((item) => item.pageUrl === market.link)?.verdict).toBe('fail');
  }, 120_000);

  it('describes a photo used in two posts once, from the post that says most, for one credit', async () => {
    const failing = ours(await images()).filter((item) => item.verdict === 'fail');
    // The library's own alt and its two uses.
    expect(failing.filter((item) => item.src === photo.sourceUrl)).toHaveLength(3);
    const callsBefore = engine.calls.length;
    const fixed = await call('POST', `/audits/${auditId}/fix`, { imageIds: failing.map((item) => item.id) });
    expect(fixed.statusCode, fixed.body).toBe(202);
    expect(fixed.json().creditsReserved).toBe(
      failing.filter((item) => item.src !== photo.sourceUrl).length + 1,
    );
    const suggested = await waitFor(async () => {
      const items = ours(await images()).filter((item) => item.src === photo.sourceUrl);
      return items.every((item) => item.suggestion) ? items : null;
    }, 30_000);
    expect(new Set(suggested.map((item) => item.suggestion)).size).toBe(1);
    const described = engine.calls.slice(callsBefore).map((entry) => entry.options.context ?? {});
    // One call per distinct image (the photo and the border's library alt), as many as credits.
    expect(described).toHaveLength(fixed.json().creditsReserved);
    // The photo's context is the post's (the caption beside it), never the import's own library page.
    expect(described).toContainEqual(expect.objectContaining({ caption }));
    expect(JSON.stringify(described)).not.toMatch(/Media library/i);
    expect(await balanceOf(t, owner)).toBe(20 - fixed.json().creditsReserved);
  }, 60_000);

  it('previews before → after with post titles and file names, then publishes each placement', async () => {
    const mine = ours(await images()).filter((item) => item.src === photo.sourceUrl);
    const reviewed = await call('POST', `/audits/${auditId}/review`, {
      imageIds: mine.map((item) => item.id),
      action: 'accept',
    });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    const words = mine[0]?.suggestion as string;

    const preview = await call('POST', `/integrations/${id}/publish/preview`, {
      imageIds: mine.map((item) => item.id),
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const planned = preview.json();
    expect(planned.heldBack).toEqual([]);
    expect(
      planned.items.map(
        (item: { postTitle: string | null; fileName: string; before: string; after: string }) => [
          item.postTitle,
          item.fileName,
          item.before,
          item.after,
        ],
      ),
    ).toEqual(
      expect.arrayContaining([
        [null, `nets-${run}.png`, '', words],
        [`Mending the nets ${run}`, `nets-${run}.png`, '', words],
        [`The fish market ${run}`, `nets-${run}.png`, '', words],
      ]),
    );
    // A preview writes nothing.
    expect(await readAlt(photo.id)).toBe('');

    const published = await call('POST', `/integrations/${id}/publish`, {
      imageIds: mine.map((item) => item.id),
    });
    expect(published.statusCode, published.body).toBe(202);
    const done = await settled(id);
    expect(done.error).toBeNull();
    expect(done.progress).toEqual({
      written: 3,
      failed: 0,
      total: 3,
      startedAt: expect.any(String),
      etaSeconds: null,
    });
    expect(done.notice).toMatch(/^Published 3 alt texts to /);
    expect(await readAlt(photo.id)).toBe(words);
    for (const post of [nets, market])
      expect((await readPost(post.id)).content.raw).toContain(`alt="${words}" class="wp-image-${photo.id}"`);
    // The decorative border is left as it was.
    expect((await readPost(nets.id)).content.raw).toContain(`alt="" class="wp-image-${border.id}"`);
    // The synthetic library page's words never reach the site.
    expect(words).not.toMatch(/Media library|upload\.php/i);
  }, 60_000);

  it('undoes one placement, and the next publish leaves it undone', async () => {
    const changes = (await call('GET', `/integrations/${id}/changes`)).json() as Change[];
    const inNets = changes.find((change) => change.postId === nets.id);
    expect(inNets).toMatchObject({ field: 'content', before: '' });
    const undo = await call('POST', `/integrations/${id}/undo`, { changeIds: [inNets?.id] });
    expect(undo.statusCode, undo.body).toBe(202);
    const undone = await settled(id);
    expect(undone.notice).toMatch(/^Undid 1 change/);
    expect((await readPost(nets.id)).content.raw).toContain(`alt="" class="wp-image-${photo.id}"`);
    // The audit image is no longer approved.
    const netsImage = ours(await images()).find(
      (item) => item.pageUrl === nets.link && item.src === photo.sourceUrl,
    );
    expect(netsImage?.reviewState).toBe('pending');

    const again = await call('POST', `/integrations/${id}/publish`, {});
    expect(again.statusCode, again.body).toBe(202);
    const after = await settled(id);
    expect(after.error).toBeNull();
    expect((await readPost(nets.id)).content.raw).toContain(`alt="" class="wp-image-${photo.id}"`);
  }, 60_000);

  it('re-imports what Altwise wrote as its own, not as a person’s', async () => {
    const started = await call('POST', `/integrations/${id}/import`);
    expect(started.statusCode, started.body).toBe(202);
    const imported = await settled(id);
    expect(imported.status).toBe('imported');
    expect(imported.auditId).not.toBe(auditId);
    const mine = ours(await images(imported.auditId as string)).filter(
      (item) => item.src === photo.sourceUrl,
    );
    const written = mine.filter((item) => item.pageUrl !== nets.link);
    expect(written).toHaveLength(2);
    for (const item of written) expect(item.origin).toBe('ai-reviewed');
    // The undone placement is empty again: failing, offered a fix.
    expect(mine.find((item) => item.pageUrl === nets.link)).toMatchObject({ verdict: 'fail', alt: null });
    auditId = imported.auditId as string;
  }, 120_000);

  it('holds back words that may not go live, and answers 422 with the list when nothing else is left', async () => {
    await waitFor(async () => {
      const fixed = await call('POST', `/audits/${auditId}/fix`, {
        imageIds: ours(await images())
          .filter((item) => item.pageUrl === nets.link && item.verdict === 'fail')
          .map((item) => item.id),
      });
      return fixed.statusCode === 202 ? fixed : null;
    }, 10_000);
    const netsImage = await waitFor(async () => {
      const item = ours(await images()).find(
        (image) => image.pageUrl === nets.link && image.src === photo.sourceUrl,
      );
      return item?.suggestion ? item : null;
    }, 30_000);
    const edited = await call('POST', `/audits/${auditId}/review`, {
      imageIds: [netsImage.id],
      action: 'edit',
      altText: 'Black-and-white photograph with no clearly recognisable subject.',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const preview = (
      await call('POST', `/integrations/${id}/publish/preview`, { imageIds: [netsImage.id] })
    ).json();
    expect(preview.items).toEqual([]);
    expect(preview.heldBack).toEqual([
      expect.objectContaining({ imageId: netsImage.id, fileName: `nets-${run}.png`, code: 'kind-and-tone' }),
    ]);
    const refused = await call('POST', `/integrations/${id}/publish`, { imageIds: [netsImage.id] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toMatch(/needs your words/);
    expect(refused.json().errors[0].message).toMatch(new RegExp(`nets-${run}\\.png in “Mending the nets`));
    expect((await readPost(nets.id)).content.raw).toContain(`alt="" class="wp-image-${photo.id}"`);
  }, 60_000);

  it('answers bad publish requests with clear 4xx', async () => {
    const unknown = await call('POST', `/integrations/${id}/publish`, { imageIds: [randomUUID()] });
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json().message).toMatch(/not an approved image of this site’s import/);
    const empty = await call('POST', `/integrations/${id}/publish`, { imageIds: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toMatch(/Name at least one image/);
    const notUuid = await call('POST', `/integrations/${id}/publish/preview`, { imageIds: ['10'] });
    expect(notUuid.statusCode).toBe(400);
    for (const url of [`/integrations/${id}/publish`, `/integrations/${id}/publish/preview`]) {
      const theirs = await call('POST', url, {}, stranger);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().message).toBe('There is no such integration.');
    }
  });
});
