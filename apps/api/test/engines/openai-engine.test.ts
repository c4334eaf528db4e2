import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAltTextEngine } from '../../src/engines/alt-text-engine.ts';
import { defaultEngineOptions, type OpenAiOptions } from '../../src/engines/engine-options.ts';
import { EngineProviderError } from '../../src/engines/errors.ts';

/**
 * Contract tests: the provider against a local server that speaks the chat-completions protocol.
 * Each test scripts the server's answers and asserts the request the provider sent.
 */

type Handler = (body: ChatRequest, req: IncomingMessage, res: ServerResponse) => void;
interface ChatRequest {
  model: string;
  temperature: number;
  max_tokens: number;
  messages: Array<{
    role: string;
    content: string | Array<{ type: string; text?: string; image_url?: { url: string } }>;
  }>;
}

let server: Server;
let baseURL: string;
let requests: ChatRequest[] = [];
let handlers: Handler[] = [];

const answer = (content: string | null, res: ServerResponse, extra: object = {}) => {
  res.setHeader('content-type', 'application/json');
  res.end(
    JSON.stringify({
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 0,
      model: 'test-vision',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
      ...extra,
    }),
  );
};
const fail = (status: number, res: ServerResponse) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  // Keeps the SDK's backoff short in tests; it honours retry-after-ms like retry-after.
  res.setHeader('retry-after-ms', '5');
  res.end(JSON.stringify({ error: { message: `status ${status}`, type: 'test' } }));
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as ChatRequest;
      requests.push(body);
      const handler =
        handlers.shift() ?? ((_b, _q, r) => answer('{"altText":"A default answer.","decorative":false}', r));
      handler(body, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  requests = [];
  handlers = [];
});

function engine(overrides: Partial<OpenAiOptions> = {}) {
  return createAltTextEngine(
    defaultEngineOptions({
      provider: 'openai',
      openai: {
        baseURL,
        apiKey: 'test-key',
        model: 'test-vision',
        timeoutMs: 5_000,
        maxRetries: 2,
        maxTokens: 300,
        temperature: 0.2,
        ...overrides,
      },
    }),
  );
}

const photo = await readFile(join(import.meta.dirname, '..', 'fixtures', 'images', 'astronaut.jpg'));

describe('openai-compatible provider: the request', () => {
  it('attaches the prepared image and puts the context, length rule and language in the prompt', async () => {
    handlers.push((_b, _q, res) =>
      answer('{"altText":"Portrait of Peter Taylor, smiling.","decorative":false,"textInImage":null}', res),
    );
    const result = await engine().describeImage(photo, {
      context: { pageTitle: 'Peter Taylor', caption: 'Peter Taylor was the first Palace player…' },
      maxLength: 100,
      language: 'fr',
      prompt: 'Mention the shirt colour.',
      keywords: ['Crystal Palace'],
    });
    expect(result).toMatchObject({
      altText: 'Portrait of Peter Taylor, smiling.',
      decorative: false,
      engine: 'openai',
      model: 'test-vision',
    });
    expect(result.signals.language).toBe('fr');
    expect(requests).toHaveLength(1);
    const sent = requests[0] as ChatRequest;
    expect(sent.model).toBe('test-vision');
    expect(sent.temperature).toBeLessThanOrEqual(0.3);
    expect(sent.max_tokens).toBe(300);
    const system = sent.messages[0]?.content as string;
    expect(system).toContain('At most 100 characters');
    expect(system).toContain('Write in French');
    const user = sent.messages[1]?.content as Array<{
      type: string;
      text?: string;
      image_url?: { url: string };
    }>;
    const text = user.find((p) => p.type === 'text')?.text ?? '';
    expect(text).toContain('Page title: Peter Taylor');
    expect(text).toContain('Figure caption: Peter Taylor was the first Palace player…');
    expect(text).toContain('Mention the shirt colour.');
    expect(text).toContain('SEO keywords: Crystal Palace');
    expect(text).toContain('at most 100 characters');
    const image = user.find((p) => p.type === 'image_url')?.image_url?.url ?? '';
    expect(image).toMatch(/^data:image\/jpeg;base64,/);
    const decoded = Buffer.from(image.split(',')[1] ?? '', 'base64');
    expect(decoded.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });
});

describe('openai-compatible provider: answers', () => {
  it('applies the quality rules to what the model says', async () => {
    handlers.push((_b, _q, res) =>
      answer(
        '```json\n{"altText":"Image of a person in a white spacesuit in front of an American flag and a model of the space shuttle.","decorative":false}\n```',
        res,
      ),
    );
    const result = await engine().describeImage(photo, { maxLength: 60 });
    expect(result.altText.startsWith('A person in a white spacesuit')).toBe(true);
    expect(result.altText.length).toBeLessThanOrEqual(60);
  });

  it('accepts a plain-text answer from a model that ignores the JSON instruction', async () => {
    handlers.push((_b, _q, res) => answer('Alt text: "A smiling astronaut in a white suit."', res));
    expect((await engine().describeImage(photo)).altText).toBe('A smiling astronaut in a white suit.');
  });

  it('returns alt="" for an image the model calls decorative', async () => {
    handlers.push((_b, _q, res) => answer('{"altText":"","decorative":true}', res));
    expect(await engine().describeImage(photo)).toMatchObject({ altText: '', decorative: true });
  });

  it('surfaces malformed JSON as a provider error', async () => {
    handlers.push((_b, _q, res) => answer('{"altText": "A person', res));
    await expect(engine().describeImage(photo)).rejects.toThrow(/malformed JSON/);
  });

  it('surfaces JSON without altText and an answer without choices', async () => {
    handlers.push((_b, _q, res) => answer('{"description":"A person"}', res));
    await expect(engine().describeImage(photo)).rejects.toThrow(/missing "altText"/);
    handlers.push((_b, _q, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [] }));
    });
    await expect(engine().describeImage(photo)).rejects.toThrow(/empty answer/);
  });
});

describe('openai-compatible provider: failures', () => {
  it('retries 429 with backoff and succeeds', async () => {
    handlers.push(
      (_b, _q, res) => fail(429, res),
      (_b, _q, res) => fail(429, res),
    );
    handlers.push((_b, _q, res) => answer('{"altText":"A person.","decorative":false}', res));
    expect((await engine({ maxRetries: 2 }).describeImage(photo)).altText).toBe('A person.');
    expect(requests).toHaveLength(3);
  });

  it('retries 500 and then surfaces a retryable error with the status', async () => {
    handlers.push(...Array.from({ length: 3 }, (): Handler => (_b, _q, res) => fail(500, res)));
    const error = await engine({ maxRetries: 2 })
      .describeImage(photo)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineProviderError);
    expect(error).toMatchObject({ retryable: true, status: 500 });
    expect(requests).toHaveLength(3);
  });

  it('does not retry a refused key and says so', async () => {
    handlers.push((_b, _q, res) => fail(401, res));
    const error = await engine()
      .describeImage(photo)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      retryable: false,
      status: 401,
      message: 'The model provider refused our credentials.',
    });
    expect(requests).toHaveLength(1);
  });

  it('gives up after the timeout', async () => {
    handlers.push((_b, _q, res) => {
      setTimeout(() => answer('{"altText":"Too late."}', res), 1_500).unref();
    });
    const started = performance.now();
    const error = await engine({ timeoutMs: 200, maxRetries: 0 })
      .describeImage(photo)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineProviderError);
    expect(error).toMatchObject({ retryable: true, message: 'The model provider did not answer in time.' });
    expect(performance.now() - started).toBeLessThan(1_400);
  });
});

describe('openai-compatible provider: generateText', () => {
  it('sends the prompt and returns the text with the engine and model', async () => {
    handlers.push((_b, _q, res) => answer('Five tips for writing alt text…', res));
    const result = await engine().generateText('Write a blog post about alt text', { maxTokens: 500 });
    expect(result).toEqual({
      text: 'Five tips for writing alt text…',
      engine: 'openai',
      model: 'test-vision',
    });
    expect(requests[0]?.max_tokens).toBe(500);
    expect(requests[0]?.messages.at(-1)?.content).toBe('Write a blog post about alt text');
  });
});
