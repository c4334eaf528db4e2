import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { EngineProviderError } from '../src/engines/errors.ts';
import { createOpenAiImageEngine } from '../src/engines/images/openai-image-engine.ts';
import { balanceOf, createUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * The OpenAI images adapter against a local server speaking the images API (edits as multipart,
 * generations as JSON, answers as b64_json). Each test scripts the answers and reads the requests.
 */

type Recorded = { url: string; contentType: string; body: Buffer };
type Handler = (request: Recorded, res: ServerResponse) => void;

let server: Server;
let baseURL: string;
let requests: Recorded[] = [];
let handlers: Handler[] = [];
let redPng: string;

const answerImages = (count: number, res: ServerResponse) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ created: 0, data: Array.from({ length: count }, () => ({ b64_json: redPng })) }));
};
const fail = (status: number, message: string, res: ServerResponse) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.setHeader('retry-after-ms', '5');
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
};

beforeAll(async () => {
  redPng = (
    await sharp({ create: { width: 64, height: 96, channels: 3, background: '#cc0000' } })
      .png()
      .toBuffer()
  ).toString('base64');
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        url: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      const handler = handlers.shift() ?? ((_r, response) => answerImages(1, response));
      handler(recorded, res);
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

const engine = (model = 'gpt-image-1') =>
  createOpenAiImageEngine({ baseURL, apiKey: 'test-key', model, timeoutMs: 5_000, maxRetries: 1 });

/** The value of a text field in a multipart body. */
function formField(body: Buffer, name: string): string | undefined {
  const match = new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(body.toString('latin1'));
  return match?.[1];
}

describe('OpenAI image engine', () => {
  it('edits through images.edit with the model, prompt and quality, and answers a PNG', async () => {
    const photo = await readFile(join(import.meta.dirname, 'fixtures', 'images', 'coffee.jpg'));
    const result = await engine().editImage(photo, 'Make the cup blue', 'medium');
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.url).toBe('/v1/images/edits');
    expect(request?.contentType).toMatch(/^multipart\/form-data/);
    expect(formField(request?.body as Buffer, 'model')).toBe('gpt-image-1');
    expect(formField(request?.body as Buffer, 'prompt')).toBe('Make the cup blue');
    expect(formField(request?.body as Buffer, 'quality')).toBe('medium');
    // The photo travels as PNG.
    expect(request?.body.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(true);
    const meta = await sharp(result.png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 64, 96]);
    expect(result.operations[0]).toMatch(/gpt-image-1: Make the cup blue/);
  });

  it('generates n images in one call, portrait, with the quality', async () => {
    handlers.push((_r, res) => answerImages(3, res));
    const result = await engine().generateImages('A lighthouse at dusk', 3, 'low');
    const body = JSON.parse(requests[0]?.body.toString() ?? '{}');
    expect(requests[0]?.url).toBe('/v1/images/generations');
    expect(body).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'A lighthouse at dusk',
      n: 3,
      quality: 'low',
      size: '1024x1536',
    });
    expect(result.images).toHaveLength(3);
    expect(result.typographic).toBe(false);
  });

  it('asks DALL·E 3 once per image, for base64, with its own quality words', async () => {
    const result = await engine('dall-e-3').generateImages('A fox', 2, 'high');
    expect(requests).toHaveLength(2);
    expect(JSON.parse(requests[0]?.body.toString() ?? '{}')).toMatchObject({
      model: 'dall-e-3',
      n: 1,
      quality: 'hd',
      response_format: 'b64_json',
    });
    expect(result.images).toHaveLength(2);
  });

  it('passes a refusal (400) on with the provider’s words, not retryable', async () => {
    handlers.push((_r, res) => fail(400, 'Your request was rejected by the safety system.', res));
    const error = await engine()
      .generateImages('something', 1, 'low')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineProviderError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect((error as Error).message).toBe(
      'The image model refused the request: Your request was rejected by the safety system.',
    );
  });

  it('retries a 500 and reports it as a provider error when it keeps failing', async () => {
    handlers.push((_r, res) => fail(500, 'boom', res));
    handlers.push((_r, res) => fail(500, 'boom', res));
    const error = await engine()
      .generateImages('something', 1, 'low')
      .catch((e: unknown) => e);
    expect(requests).toHaveLength(2);
    expect(error).toMatchObject({ status: 500, retryable: true });
  });

  it('treats an answer without images as a failure', async () => {
    handlers.push((_r, res) => answerImages(1, res));
    handlers.push((_r, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ created: 0, data: [] }));
    });
    await expect(engine().generateImages('x', 1, 'low')).resolves.toBeDefined();
    await expect(engine().generateImages('x', 1, 'low')).rejects.toThrow(/returned no image/);
  });
});

describe('IMAGE_ENGINE=openai through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        IMAGE_ENGINE: 'openai',
        OPENAI_BASE_URL: baseURL,
        OPENAI_API_KEY: 'test-key',
        OPENAI_MAX_RETRIES: '0',
      },
    });
  });
  afterAll(() => t.cleanup());

  it('edits with the model and charges; a provider failure is refunded with a 502', async () => {
    const photo = await readFile(join(import.meta.dirname, 'fixtures', 'images', 'coffee.jpg'));
    const user = await createUser(t, 40);
    const form = () => {
      const data = new FormData();
      data.append('image', new Blob([photo], { type: 'image/jpeg' }), 'coffee.jpg');
      data.append('prompt', 'Paint the sky orange');
      data.append('quality', 'medium');
      return data;
    };
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/edit-image',
      headers: user.auth,
      payload: form(),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      engine: 'openai',
      model: 'gpt-image-1',
      creditsCharged: 10,
      remainingCredits: 30,
    });

    handlers.push((_r, res) => fail(503, 'overloaded', res));
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/edit-image',
      headers: user.auth,
      payload: form(),
    });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toMatch(/refunded/);
    expect(await balanceOf(t, user)).toBe(30);
  });

  it('generates pictures, not slides', async () => {
    const user = await createUser(t, 10);
    handlers.push((_r, res) => answerImages(2, res));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/generate',
      headers: user.auth,
      payload: { prompt: 'A red square', numberOfImages: 2, quality: 'low' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      typographic: false,
      creditsCharged: 10,
      remainingCredits: 0,
      engine: 'openai',
    });
    expect(res.json().notice).toBeUndefined();
  });
});

describe('IMAGE_ENGINE configuration', () => {
  it('defaults to offline with gpt-image-1 named for the openai engine', () => {
    const config = loadConfig({});
    expect(config.images.provider).toBe('offline');
    expect(config.images.openai.model).toBe('gpt-image-1');
    expect(config.images.openai.timeoutMs).toBe(120_000);
  });

  it('needs an API key to talk to api.openai.com, and names bad values', () => {
    expect(() => loadConfig({ IMAGE_ENGINE: 'openai' })).toThrow(ConfigError);
    expect(() => loadConfig({ IMAGE_ENGINE: 'openai' })).toThrow(
      /OPENAI_API_KEY is required when IMAGE_ENGINE=openai/,
    );
    expect(() => loadConfig({ IMAGE_ENGINE: 'dalle' })).toThrow(/IMAGE_ENGINE must be offline or openai/);
    expect(
      loadConfig({ IMAGE_ENGINE: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }).images.provider,
    ).toBe('openai');
  });
});
