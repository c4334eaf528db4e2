import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './billing-helpers.ts';
import { imageWithEmbeddedText } from './embedded-fixtures.ts';
import { uploadImages, waitForBatch } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * The OpenAI adapter gets the same embedded evidence as the offline engine (ADR 055): an upload's IPTC
 * alt text reaches the model's prompt as the existing alt, the reason is `embedded`, and the extended
 * description is the long description when the model gives none.
 */

const altText = 'Lighthouse on a rocky cliff at sunset';
const extendedDescription = 'A white lighthouse with a red lantern stands on dark rocks; waves break below.';
const prompts: string[] = [];
let model: Server;
let t: TestApp;

type Chat = { messages: Array<{ content: string | Array<{ type: string; text?: string }> }> };

beforeAll(async () => {
  model = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const user = (JSON.parse(raw) as Chat).messages[1]?.content;
      const prompt = Array.isArray(user) ? (user.find((part) => part.type === 'text')?.text ?? '') : '';
      prompts.push(prompt);
      const content = JSON.stringify({ altText, decorative: false, confidence: 0.9 });
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
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  t = await buildTestApp({
    env: {
      ALT_TEXT_ENGINE: 'openai',
      OPENAI_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
      OPENAI_MODEL: 'fake-vision',
      OPENAI_MAX_RETRIES: '0',
    },
  });
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  model.closeAllConnections();
  await new Promise<void>((resolve) => model.close(() => resolve()));
});

describe('embedded alt text with an OpenAI-compatible model', () => {
  it('sends the IPTC alt text as the existing alt and records the embedded reason and long description', async () => {
    const owner = await createUser(t, 5);
    const bytes = await imageWithEmbeddedText({ altText, extendedDescription }, 'jpeg', 96);
    const response = await uploadImages(t, owner.auth, [
      { name: 'images', fileName: 'lighthouse.jpg', contentType: 'image/jpeg', bytes },
    ]);
    expect(response.statusCode).toBe(202);
    expect(await waitForBatch(t, owner.auth, response.json().batchId)).toMatchObject({
      completed: 1,
      failed: 0,
    });
    expect(prompts.some((prompt) => prompt.includes(altText))).toBe(true);
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/images/altText', headers: owner.auth });
    const [row] = listed.json();
    expect(row).toMatchObject({ alt_text: altText, longDescription: extendedDescription });
    expect(row.reasons).toContainEqual({
      source: 'embedded',
      detail: `IPTC Alt Text (Accessibility): ${altText}`,
    });
  });
});
