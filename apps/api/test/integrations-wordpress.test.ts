import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp, waitFor } from './helper.ts';
import {
  type Change,
  createPost,
  groundedEngine,
  imageBlock,
  integrationApi,
  openWordPress,
  runTag,
  type SeededMedia,
  type SeededPost,
  uploadPng,
  type WordPressSite,
  wordpressRest,
} from './wordpress-helpers.ts';

/**
 * Against a real WordPress (Debian's packages on loopback, scripts/lib/wordpress.ts):
 * connect, import, fix, approve, publish into the attachment and the post, undo, and the bad
 * answers a site can give.
 */

let site: WordPressSite;
let t: TestApp;
let strict: TestApp;
let owner: TestUser;
let stranger: TestUser;
let notWordPress: Server;
let notWordPressUrl = '';
/** A site that answers like WordPress to the check, then as `mode` says to the media library. */
let flaky: Server;
let flakyUrl = '';
let flakyMode: '429' | '403' | 'html' = '429';
const logLines: string[] = [];
/** The WordPress may be shared by the whole test run: this file's posts and files carry their own tag. */
const run = runTag();
const answers: string[] = [];
/**
 * The good human alt, worded apart for each pass that shares the WordPress (PGlite, then Postgres):
 * the whole media library is one audit page, where the same alt twice is a `repeated` warning.
 */
const lighthouseAlt = `A white lighthouse on a rocky point under a ${process.env.TEST_DATABASE_URL ? 'stormy' : 'grey'} sky`;

let unset: SeededMedia;
let good: SeededMedia;
let fileName: SeededMedia;
let story: SeededPost;
let about: SeededPost;

const { call, settled } = integrationApi(
  () => t,
  () => owner,
  { timeoutMs: 60_000, onAnswer: (body) => void answers.push(body) },
);
const api = (who: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  call(method, url, payload, who);
let readPost: Awaited<ReturnType<typeof openWordPress>>['readPost'];
let readPage: Awaited<ReturnType<typeof openWordPress>>['readPage'];
let readAlt: Awaited<ReturnType<typeof openWordPress>>['readAlt'];
const renderedHtml = async (id: number) => (await fetch(`${site.url}/?p=${id}`)).text();
const renderedPage = async (id: number) => (await fetch(`${site.url}/?page_id=${id}`)).text();

beforeAll(async () => {
  ({ site, readPost, readPage, readAlt } = await openWordPress());
  unset = await uploadPng(site, { name: `harbour-${run}.png`, color: '#205080' });
  good = await uploadPng(site, {
    name: `lighthouse-${run}.png`,
    color: '#e0e0e0',
    altText: lighthouseAlt,
    caption: 'The lighthouse at dawn',
  });
  fileName = await uploadPng(site, { name: `boats-${run}.png`, color: '#c03020', altText: 'IMG_2041.png' });
  story = await createPost(site, {
    title: `A morning at the harbour ${run}`,
    content: [
      '<!-- wp:heading --><h2 class="wp-block-heading">Fishing boats come home</h2><!-- /wp:heading -->',
      '<!-- wp:paragraph --><p>The boats came in at six with the morning catch.</p><!-- /wp:paragraph -->',
      imageBlock(fileName, 'DSC_0042.png'),
      imageBlock(good, lighthouseAlt),
    ].join('\n\n'),
  });
  about = await createPost(site, {
    type: 'pages',
    title: `About the harbour ${run}`,
    content: [
      '<!-- wp:paragraph --><p>Our harbour has two piers.</p><!-- /wp:paragraph -->',
      imageBlock(unset, 'image'),
      '<!-- wp:paragraph --><p>The north pier at low tide.</p><!-- /wp:paragraph -->',
      imageBlock(unset, 'photo'),
    ].join('\n\n'),
  });

  notWordPress = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title><p>Hello</p>');
  });
  await new Promise<void>((resolve) => notWordPress.listen(0, '127.0.0.1', resolve));
  notWordPressUrl = `http://127.0.0.1:${(notWordPress.address() as AddressInfo).port}`;

  flaky = createServer((req, res) => {
    const route = new URL(req.url ?? '/', 'http://x').searchParams.get('rest_route') ?? '';
    if (route === '/wp/v2/users/me')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"id":1,"username":"admin"}');
    if (!route) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<p>Not found</p>');
    if (flakyMode === '429')
      return void res
        .writeHead(429, { 'content-type': 'application/json' })
        .end('{"code":"too_many","message":"Slow down"}');
    if (flakyMode === '403')
      return void res
        .writeHead(403, { 'content-type': 'application/json' })
        .end('{"code":"rest_forbidden","message":"Sorry, you are not allowed to do that."}');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Maintenance</p>');
  });
  await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
  flakyUrl = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;

  t = await buildTestApp({
    env: { FETCH_ALLOW_PRIVATE: 'true', GENERATION_RETRY_DELAY_MS: '10', LOG_LEVEL: 'debug' },
    engine: groundedEngine(),
    logStream: { write: (line: string) => void logLines.push(line) },
  });
  strict = await buildTestApp();
  owner = await createUser(t, 50);
  stranger = await createUser(t, 5);
}, 180_000);

afterAll(async () => {
  await t?.cleanup();
  await strict?.cleanup();
  notWordPress?.closeAllConnections();
  flaky?.closeAllConnections();
  await new Promise<void>((resolve) => (flaky ? flaky.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (notWordPress ? notWordPress.close(() => resolve()) : resolve()));
  await site?.stop();
});

describe('connecting a WordPress site', () => {
  it('refuses a wrong application password with WordPress’s 401 in words, storing nothing', async () => {
    const response = await api(owner, 'POST', '/integrations/wordpress', {
      siteUrl: site.url,
      username: site.username,
      applicationPassword: 'abcd efgh ijkl mnop qrst uvwx',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/refused the user name or application password \(HTTP 401\)/);
    expect((await api(owner, 'GET', '/integrations')).json()).toEqual([]);
  });

  it('refuses an address that is not WordPress (an HTML page) in words', async () => {
    const response = await api(owner, 'POST', '/integrations/wordpress', {
      siteUrl: notWordPressUrl,
      username: 'admin',
      applicationPassword: 'abcd efgh ijkl mnop',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/does not answer like a WordPress site/);
  });

  it('refuses a site on a private address unless FETCH_ALLOW_PRIVATE is on', async () => {
    const user = await createUser(strict, 0);
    const response = await strict.app.inject({
      method: 'POST',
      url: '/api/v1/integrations/wordpress',
      headers: user.auth,
      payload: { siteUrl: site.url, username: site.username, applicationPassword: site.applicationPassword },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/private or local address/);
  });

  it('refuses a form without a password with the contract’s message', async () => {
    const response = await api(owner, 'POST', '/integrations/wordpress', {
      siteUrl: site.url,
      username: 'admin',
      applicationPassword: '  ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/Please enter an application password/);
  });
});

describe('a site that stops answering well during the import', () => {
  it.each([
    [
      '429',
      /is limiting requests \(HTTP 429\) while reading the media library\. Please try again in a few minutes\./,
    ],
    [
      '403',
      /does not let this user do this \(HTTP 403\) while reading the media library.*Sorry, you are not allowed/,
    ],
    ['html', /answered with text\/html instead of the WordPress REST API’s JSON/],
  ] as const)('says a %s answer in words and keeps nothing half-made', async (mode, message) => {
    flakyMode = mode;
    const connected = await api(stranger, 'POST', '/integrations/wordpress', {
      siteUrl: flakyUrl,
      username: 'admin',
      applicationPassword: 'abcd efgh ijkl mnop',
    });
    expect(connected.statusCode, connected.body).toBe(201);
    const { id } = connected.json();
    expect((await api(stranger, 'POST', `/integrations/${id}/import`)).statusCode).toBe(202);
    const failed = await waitFor(async () => {
      const body = (await api(stranger, 'GET', `/integrations/${id}`)).json();
      return body.status === 'failed' ? body : null;
    }, 30_000);
    expect(failed.error).toMatch(message);
    expect(failed).toMatchObject({ auditId: null, imported: 0, placements: 0 });
    // Trying again is allowed (and fails the same way while the site does).
    expect((await api(stranger, 'POST', `/integrations/${id}/import`)).statusCode).toBe(202);
    expect((await api(stranger, 'DELETE', `/integrations/${id}`)).statusCode).toBe(204);
  });
});

describe('import, fix, publish and undo', () => {
  let id: string;
  let auditId: string;

  it('connects with the application password and never returns it', async () => {
    const response = await api(owner, 'POST', '/integrations/wordpress', {
      siteUrl: `${site.url}/`,
      username: site.username,
      applicationPassword: site.applicationPassword,
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({ siteUrl: site.url, status: 'connected', kind: 'wordpress' });
    id = created.id;
    expect((await api(stranger, 'GET', `/integrations/${id}`)).statusCode).toBe(404);
    const row = await t.app.deps.database.db.query.integrations.findFirst();
    expect(row?.secret).toMatch(/^v1\./);
    expect(row?.secret).not.toContain(site.applicationPassword);
  });

  it('imports every image attachment and where each is used, as a normal audit', async () => {
    const library0 = await fetch(`${site.url}/?rest_route=/wp/v2/media&media_type=image&per_page=1`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${site.username}:${site.applicationPassword}`).toString('base64')}`,
      },
    });
    const total = Number(library0.headers.get('x-wp-total'));
    expect(total).toBeGreaterThanOrEqual(3);
    const started = await api(owner, 'POST', `/integrations/${id}/import`);
    expect(started.statusCode, started.body).toBe(202);
    const imported = await settled(id);
    expect(imported, JSON.stringify(imported)).toMatchObject({ status: 'imported' });
    // Other files share the WordPress and may upload while this imports: every image it counted, at least.
    expect(imported.imported).toBe(imported.mediaCount);
    expect(imported.imported).toBeGreaterThanOrEqual(total);
    // This file's post uses two images, its page one image twice (other files' posts may add more).
    expect(imported.placements).toBeGreaterThanOrEqual(4);
    auditId = imported.auditId as string;
    const audit = (await api(owner, 'GET', `/audits/${auditId}`)).json();
    expect(audit.status).toBe('completed');
    expect(audit.imagesFound).toBeGreaterThanOrEqual(total + 4);
    const images = (await api(owner, 'GET', `/audits/${auditId}/images?pageSize=500`)).json().items as {
      pageUrl: string;
      src: string;
      alt: string | null;
      verdict: string;
    }[];
    const ours = [unset, good, fileName].map((media) => media.sourceUrl);
    const library = images.filter(
      (image) => image.pageUrl.endsWith('/wp-admin/upload.php') && ours.includes(image.src),
    );
    expect(images.filter((image) => image.pageUrl === about.link).map((image) => image.alt)).toEqual([
      'image',
      'photo',
    ]);
    expect(library.map((image) => image.alt).sort()).toEqual([lighthouseAlt, 'IMG_2041.png', null]);
    // Good human alt passes and is kept; an unset alt and a file name fail.
    expect(library.find((image) => image.alt?.startsWith('A white'))?.verdict).toBe('pass');
    expect(library.find((image) => image.alt === null)?.verdict).toBe('fail');
    expect(images.filter((image) => image.pageUrl === story.link).map((image) => image.alt)).toEqual([
      'DSC_0042.png',
      lighthouseAlt,
    ]);
  });

  it('publishes approved alt text into the attachment and the post content, and undoes one', async () => {
    expect((await api(owner, 'POST', `/integrations/${id}/publish`, {})).statusCode).toBe(409);
    type Item = {
      id: string;
      pageUrl: string;
      src: string;
      alt: string | null;
      suggestion: string | null;
      thumbnailUrl: string | null;
    };
    const ourPages = [story.link, about.link];
    const ours = [unset, fileName].map((media) => media.sourceUrl);
    const isOurs = (item: Item) =>
      ourPages.includes(item.pageUrl) || (item.pageUrl.endsWith('/upload.php') && ours.includes(item.src));
    const failing = (
      (await api(owner, 'GET', `/audits/${auditId}/images?pageSize=500&verdict=fail`)).json().items as Item[]
    ).filter(isOurs);
    // The library's two failing images, the post's file name and the page's two.
    expect(failing).toHaveLength(5);
    const fixed = await api(owner, 'POST', `/audits/${auditId}/fix`, {
      imageIds: failing.map((item) => item.id),
    });
    expect(fixed.statusCode, fixed.body).toBe(202);
    const suggested = await waitFor(async () => {
      const items = (
        (await api(owner, 'GET', `/audits/${auditId}/images?pageSize=500&verdict=fail`)).json()
          .items as Item[]
      ).filter(isOurs);
      return items.every((item) => item.suggestion) ? items : null;
    }, 30_000);
    const reviewed = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: suggested.map((item) => item.id),
      action: 'accept',
    });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    const words = new Map(suggested.map((item) => [item.id, item.suggestion as string]));
    const unsetImage = suggested.find(
      (item) => item.src === unset.sourceUrl && item.pageUrl.endsWith('/upload.php'),
    );
    const storyImage = suggested.find((item) => item.pageUrl === story.link);
    expect(unsetImage && storyImage).toBeTruthy();
    const storyBefore = (await readPost(story.id)).content.raw;

    const published = await api(owner, 'POST', `/integrations/${id}/publish`, {});
    expect(published.statusCode, published.body).toBe(202);
    const done = await settled(id);
    expect(done.error).toBeNull();
    expect(done.notice).toMatch(/^Published \d+ alt texts? to /);

    expect(await readAlt(unset.id)).toBe(words.get(unsetImage?.id ?? ''));
    const storyAfter = (await readPost(story.id)).content.raw;
    const storyAlt = words.get(storyImage?.id ?? '') as string;
    expect(storyAfter).toContain(`alt="${storyAlt}" class="wp-image-${fileName.id}"`);
    // Nothing else of the post changed: only the alt attribute's value differs.
    expect(storyAfter.replace(`alt="${storyAlt}"`, 'alt="DSC_0042.png"')).toBe(storyBefore);
    expect(await renderedHtml(story.id)).toContain(`alt="${storyAlt}"`);
    // The good human alt of the lighthouse was never touched.
    expect(await readAlt(good.id)).toBe(lighthouseAlt);
    // Both uses of the same image on the page got their own approved words.
    const pageRaw = (await readPage(about.id)).content.raw;
    expect(pageRaw).not.toMatch(/alt="(image|photo)"/);
    expect(await renderedPage(about.id)).not.toMatch(/alt="(image|photo)"/);

    const changes = (await api(owner, 'GET', `/integrations/${id}/changes`)).json() as Change[];
    expect(changes.length).toBe(Number(done.notice?.match(/Published (\d+)/)?.[1]));
    const storyChange = changes.find((change) => change.postId === story.id);
    expect(storyChange).toMatchObject({ field: 'content', before: 'DSC_0042.png', after: storyAlt });
    // The log names the attachment's file and shows our stored copy of it, which this app serves.
    expect(storyChange?.fileName).toBe(new URL(fileName.sourceUrl).pathname.split('/').at(-1));
    expect(storyChange?.thumbnailUrl).toMatch(/\/files\/previews\/.+\.webp$/);
    expect(storyChange?.thumbnailUrl).toBe(storyImage?.thumbnailUrl);
    const thumbnail = await t.app.inject({
      method: 'GET',
      url: new URL(storyChange?.thumbnailUrl ?? '', 'http://altwise.test').pathname,
    });
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    const libraryChange = changes.find(
      (change) => change.mediaId === unset.id && change.field === 'alt_text',
    );
    expect(libraryChange).toMatchObject({ before: '', after: words.get(unsetImage?.id ?? '') });

    // Publishing again writes nothing twice.
    const modified = (await readPost(story.id)).modified_gmt;
    expect((await api(owner, 'POST', `/integrations/${id}/publish`, {})).statusCode).toBe(202);
    const again = await settled(id);
    expect(again.notice).toMatch(/^Published 0 alt texts to .* were already there\./);
    expect((await readPost(story.id)).modified_gmt).toBe(modified);
    expect((await api(owner, 'GET', `/integrations/${id}/changes`)).json()).toHaveLength(changes.length);

    // Undo the post's change: the old alt is back in the content and the rendered page.
    const undo = await api(owner, 'POST', `/integrations/${id}/undo`, { changeIds: [storyChange?.id] });
    expect(undo.statusCode, undo.body).toBe(202);
    const undone = await settled(id);
    expect(undone.notice).toBe(`Undid 1 change on ${new URL(site.url).host}.`);
    expect((await readPost(story.id)).content.raw).toBe(storyBefore);
    expect(await renderedHtml(story.id)).toContain('alt="DSC_0042.png"');
    const after = (await api(owner, 'GET', `/integrations/${id}/changes`)).json() as typeof changes;
    expect(after.find((change) => change.id === storyChange?.id)?.undoneAt).toBeTruthy();
    const twice = await api(owner, 'POST', `/integrations/${id}/undo`, { changeIds: [storyChange?.id] });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/undone already/);
  }, 120_000);

  it('refuses to publish into a post changed on WordPress after the import, writing nothing', async () => {
    const images = (await api(owner, 'GET', `/audits/${auditId}/images?pageSize=500`)).json().items as {
      id: string;
      pageUrl: string;
      reviewState: string | null;
    }[];
    // Undoing its change put the post's image back to pending (ADR 069): it is approved again here.
    const storyImage = images.find(
      (image) => image.pageUrl === story.link && image.reviewState === 'pending',
    );
    expect(storyImage).toBeTruthy();
    const edited = await api(owner, 'POST', `/audits/${auditId}/review`, {
      imageIds: [storyImage?.id],
      action: 'edit',
      altText: 'Three red fishing boats tied up at the harbour wall',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // Someone edits the post on WordPress meanwhile (a second later, so `modified` moves).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await wordpressRest(site, `/wp/v2/posts/${story.id}`, {
      json: { title: `A morning at the harbour ${run} (updated)` },
    });
    const raw = (await readPost(story.id)).content.raw;

    const published = await api(owner, 'POST', `/integrations/${id}/publish`, { imageIds: [storyImage?.id] });
    expect(published.statusCode, published.body).toBe(202);
    const done = await settled(id);
    expect(done.error).toMatch(
      /was changed on WordPress after the import, while we publish, so nothing was written to it/,
    );
    expect((await readPost(story.id)).content.raw).toBe(raw);
  }, 60_000);

  it('answers 404 for another user’s integration, and works with an API key', async () => {
    expect((await api(stranger, 'POST', `/integrations/${id}/import`)).statusCode).toBe(404);
    expect((await api(stranger, 'GET', `/integrations/${id}/changes`)).statusCode).toBe(404);
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: owner.auth,
      payload: { name: 'WordPress sync' },
    });
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/integrations/${id}`,
      headers: { authorization: `Bearer ${key.json().key}` },
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().error).toMatch(/changed on WordPress after the import/);
  });

  it('never puts the application password in an answer or a log line', () => {
    const secrets = [
      site.applicationPassword,
      site.applicationPassword.replace(/\s+/g, ''),
      Buffer.from(`${site.username}:${site.applicationPassword.replace(/\s+/g, '')}`).toString('base64'),
    ];
    expect(logLines.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      expect(answers.some((body) => body.includes(secret))).toBe(false);
      expect(logLines.some((line) => line.includes(secret))).toBe(false);
    }
  });

  it('deletes the site and its stored password', async () => {
    expect((await api(owner, 'DELETE', `/integrations/${id}`)).statusCode).toBe(204);
    expect((await api(owner, 'GET', `/integrations/${id}`)).statusCode).toBe(404);
    expect(await t.app.deps.database.db.query.integrations.findFirst()).toBeUndefined();
    // The audit stays the user's.
    expect((await api(owner, 'GET', `/audits/${auditId}`)).statusCode).toBe(200);
  });
});
