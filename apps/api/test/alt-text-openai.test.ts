import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryImages } from '../src/db/tables/library-images.ts';
import { balanceOf, createUser } from './billing-helpers.ts';
import { waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * A scraped page through the whole product with ALT_TEXT_ENGINE=openai against a local fake
 * OpenAI-compatible server: the context the scraper records (role, link target and text, caption,
 * heading, adjacent text, existing alt) reaches the model's prompt unchanged, and an image whose
 * answer stays unusable after the corrective retry fails and is refunded.
 */

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');
type Chat = { messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }> };
const prompts: string[] = [];
let site: Server;
let model: Server;
let base: string;
let t: TestApp;

const promptOf = (chat: Chat) => {
  const user = chat.messages[1]?.content;
  return Array.isArray(user) ? (user.find((part) => part.type === 'text')?.text ?? '') : '';
};

beforeAll(async () => {
  site = createServer(async (req, res) => {
    if (req.url === '/shop/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(`<!doctype html><html><head><title>Harbour Shop</title></head><body>
        <header><a href="/"><img src="/img/rocket.jpg" alt="logo"></a></header>
        <h1>Boats</h1>
        <figure><img src="/img/coffee.jpg"><figcaption>The red boat, 1998</figcaption></figure>
        <p>Built in Bergen.</p>
      </body></html>`);
    }
    try {
      const bytes = await readFile(path.join(fixtures, path.basename(req.url ?? '')));
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes);
    } catch {
      res.writeHead(404).end();
    }
  });
  model = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const prompt = promptOf(JSON.parse(raw) as Chat);
      prompts.push(prompt);
      // The figure's model answers prose however often it is asked; the link's answers JSON.
      const content = prompt.includes('Figure caption')
        ? 'The red boat at its mooring.'
        : '{"altText":"Harbour Shop home","decorative":false,"confidence":0.9}';
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 0,
          model: 'fake-vision',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        }),
      );
    });
  });
  await Promise.all(
    [site, model].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))),
  );
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await buildTestApp({
    env: {
      FETCH_ALLOW_PRIVATE: 'true',
      GENERATION_RETRY_DELAY_MS: '10',
      ALT_TEXT_ENGINE: 'openai',
      OPENAI_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
      OPENAI_MODEL: 'fake-vision',
      OPENAI_MAX_RETRIES: '0',
    },
  });
});
afterAll(async () => {
  await t?.cleanup();
  for (const server of [site, model]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

describe('scrape → generate with an OpenAI-compatible model', () => {
  it('sends the scraped role and context to the model; an unusable answer fails and is refunded', async () => {
    const user = await createUser(t, 5);
    const pageUrl = `${base}/shop/index.html`;
    const scraped = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/scrape-and-generate',
      payload: { url: pageUrl },
      headers: user.auth,
    });
    expect(scraped.statusCode).toBe(200);
    const rows = scraped.json();
    expect(rows.map((row: { context: { role?: string } }) => row.context.role)).toEqual(['link', 'figure']);

    // As the scraped-images page sends them: each row's src, alt and context as scraped.
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/generate-alt-text',
      payload: {
        userId: user.id,
        pageUrl,
        selectedImages: rows.map((row: { src: string; alt: string; context: object }) => ({
          src: row.src,
          alt: row.alt,
          context: row.context,
        })),
      },
      headers: user.auth,
    });
    expect(started.statusCode).toBe(202);
    const done = await waitForBatch(t, user.auth, started.json().batchId);
    expect(done).toMatchObject({ status: 'completed', completed: 1, failed: 1, creditsReserved: 2 });
    expect(done.failures).toEqual([
      {
        src: `${base}/img/coffee.jpg`,
        error:
          "The alt-text engine could not describe this image: The model's answer could not be used, even after asking again: Your answer was not JSON.",
      },
    ]);
    // 5 - 2 reserved + 1 refunded: the failed image costs nothing.
    expect(await balanceOf(t, user)).toBe(4);

    const link = prompts.find((prompt) => prompt.includes('Image role: the only content of a link'));
    for (const line of [
      'Page title: Harbour Shop',
      `The image links to: ${base}/`,
      'Existing alt text on the page: logo',
      `Page address: ${pageUrl}`,
      `Image role: the only content of a link to ${base}/.`,
    ]) {
      expect(link).toContain(line);
    }
    const figure = prompts.filter((prompt) => prompt.includes('Figure caption'));
    // Asked once, then once more with the corrective message; no further tries.
    expect(figure).toHaveLength(2);
    for (const line of [
      'Nearest heading: Boats',
      'Figure caption: The red boat, 1998',
      'Text next to the image: Built in Bergen.',
      'Image role: in a figure; its caption is read with it.',
    ]) {
      expect(figure[0]).toContain(line);
    }

    const library = await t.app.deps.database.db
      .select()
      .from(libraryImages)
      .where(eq(libraryImages.userId, user.id));
    expect(library).toHaveLength(1);
    expect(library[0]).toMatchObject({
      src: `${base}/img/rocket.jpg`,
      altText: 'Harbour Shop home',
      engine: 'openai',
      model: 'fake-vision',
    });
    expect(library[0]?.context).toMatchObject({ role: 'link', linkTarget: `${base}/`, existingAlt: 'logo' });
  });
});
