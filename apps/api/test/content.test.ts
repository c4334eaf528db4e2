import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHistory } from '../src/db/tables/content-history.ts';
import { createUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.cleanup());

const generate = (prompt: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/v1/openai/generate-content', payload: { prompt }, headers });
const historyOf = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/v1/users/content-history', headers });

const prompt = 'Write a formal blog post for the technology category about: alt text for product photos';

describe('POST /openai/generate-content and GET /users/content-history', () => {
  it('need a signed-in user', async () => {
    const response = await generate(prompt);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
    expect((await historyOf({})).statusCode).toBe(401);
    expect((await generate(prompt, { authorization: 'Bearer not-a-token' })).statusCode).toBe(401);
    expect(await t.app.deps.database.db.select().from(contentHistory)).toEqual([]);
  });

  it('writes an honest draft with the offline engine, answers it as `text` and keeps it in the history', async () => {
    const user = await createUser(t);
    const response = await generate(prompt, user.auth);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      success: true,
      message: 'Content generation is successfull',
      engine: 'offline',
      model: 'altwise-draft-writer-1',
    });
    expect(body.text).toMatch(/^# Alt Text for Product Photos/);
    expect(body.text).toContain('Draft written offline from your prompt');
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);

    const history = await historyOf(user.auth);
    expect(history.statusCode).toBe(200);
    expect(history.headers['cache-control']).toBe('no-store');
    expect(history.json()).toEqual({ contentHistory: [{ content: body.text, createdAt: body.createdAt }] });
  });

  it('lists newest first, only the caller’s own, also as the profile’s contentHistory', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const first = (await generate('A humorous post about decorative images', owner.auth)).json();
    const second = (await generate('An informal post about alt text for charts', owner.auth)).json();
    await generate('Something the owner must not see', other.auth);

    const expected = [
      { content: second.text, createdAt: second.createdAt },
      { content: first.text, createdAt: first.createdAt },
    ];
    expect((await historyOf(owner.auth)).json().contentHistory).toEqual(expected);
    const profile = await t.app.inject({ method: 'GET', url: '/api/v1/users/profile', headers: owner.auth });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().user.contentHistory).toEqual(expected);

    const others = (await historyOf(other.auth)).json().contentHistory;
    expect(others).toHaveLength(1);
    expect(others[0].content).toContain('Something the Owner');
  });

  it('answers 400 with a clear message for an empty or too long prompt, storing nothing', async () => {
    const user = await createUser(t);
    const empty = await generate('   ', user.auth);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [{ path: 'prompt', message: 'A prompt is required' }],
    });
    const long = await generate('x'.repeat(2001), user.auth);
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual([
      { path: 'prompt', message: 'The prompt must be at most 2,000 characters' },
    ]);
    expect((await historyOf(user.auth)).json().contentHistory).toEqual([]);
  });
});

describe('the generation limit per user', () => {
  it('answers 429 with Retry-After past CONTENT_RATE_LIMIT_PER_USER, for that user only', async () => {
    const limited = await buildTestApp({
      env: { CONTENT_RATE_LIMIT_PER_USER: '2', CONTENT_RATE_LIMIT_WINDOW_SECONDS: '600' },
    });
    try {
      const post = (auth: Record<string, string>) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/v1/openai/generate-content',
          payload: { prompt },
          headers: auth,
        });
      const busy = await createUser(limited);
      const other = await createUser(limited);
      expect((await post(busy.auth)).statusCode).toBe(200);
      expect((await post(busy.auth)).statusCode).toBe(200);
      const refused = await post(busy.auth);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        code: 'RATE_LIMITED',
        message: 'You have generated the most blog posts allowed for now. Please try again in 10 minutes.',
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await post(other.auth)).statusCode).toBe(200);
      const history = await limited.app.inject({
        method: 'GET',
        url: '/api/v1/users/content-history',
        headers: busy.auth,
      });
      expect(history.json().contentHistory).toHaveLength(2);
    } finally {
      await limited.cleanup();
    }
  });
});

describe('with a configured language model (ALT_TEXT_ENGINE=openai)', () => {
  let server: Server;
  let reply: (res: ServerResponse) => void;
  let model: TestApp;
  const requests: Array<{ model: string; messages: Array<{ role: string; content: string }> }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        requests.push(JSON.parse(raw || '{}'));
        reply(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    model = await buildTestApp({
      env: {
        ALT_TEXT_ENGINE: 'openai',
        OPENAI_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        OPENAI_MODEL: 'test-writer',
        OPENAI_MAX_RETRIES: '0',
      },
    });
  });
  afterAll(async () => {
    await model.cleanup();
    server.closeAllConnections();
    server.close();
  });

  it('stores and answers the post the model wrote', async () => {
    reply = (res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: 0,
          model: 'test-writer',
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: '  Why alt text matters.\n\nEvery image needs it.  ' },
            },
          ],
        }),
      );
    };
    const user = await createUser(model);
    const response = await model.app.inject({
      method: 'POST',
      url: '/api/v1/openai/generate-content',
      payload: { prompt },
      headers: user.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      text: 'Why alt text matters.\n\nEvery image needs it.',
      engine: 'openai',
      model: 'test-writer',
    });
    expect(requests.at(-1)?.model).toBe('test-writer');
    expect(requests.at(-1)?.messages.at(-1)).toEqual({ role: 'user', content: prompt });
  });

  it('answers 502 with a message a person can act on when the model fails, and stores nothing', async () => {
    reply = (res) => {
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: { message: 'internal secret detail', type: 'server_error' } }));
    };
    const user = await createUser(model);
    const response = await model.app.inject({
      method: 'POST',
      url: '/api/v1/openai/generate-content',
      payload: { prompt },
      headers: user.auth,
    });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      code: 'ENGINE_FAILED',
      message:
        'The blog post failed: the AI engine could not do it right now. Please try again in a few minutes.',
    });
    expect(response.body).not.toContain('secret');
    const history = await model.app.inject({
      method: 'GET',
      url: '/api/v1/users/content-history',
      headers: user.auth,
    });
    expect(history.json()).toEqual({ contentHistory: [] });
  });
});
