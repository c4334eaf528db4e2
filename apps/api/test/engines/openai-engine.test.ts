import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
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
  response_format?: { type: string };
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
const fail = (status: number, res: ServerResponse, message = `status ${status}`) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  // Keeps the SDK's backoff short in tests; it honours retry-after-ms like retry-after.
  res.setHeader('retry-after-ms', '5');
  res.end(JSON.stringify({ error: { message, type: 'test' } }));
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

type UserPart = { type: string; text?: string; image_url?: { url: string } };
const promptOf = (sent: ChatRequest | undefined) =>
  ((sent?.messages[1]?.content ?? []) as UserPart[]).find((p) => p.type === 'text')?.text ?? '';

describe('openai-compatible provider: the request', () => {
  it('tells the model the structure: a part of a named role="img", the first of a row of stars, the site’s logo', async () => {
    const star = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="22" height="20"><circle cx="11" cy="10" r="8" fill="#f59e0b"/></svg>',
      ),
    )
      .png()
      .toBuffer();
    const files = ['star-full.png', 'star-full.png', 'star-half.png'];
    await engine().describeImage(photo, { context: { partOfPicture: 'Crew portrait, 1969' } });
    await engine().describeImage(star, { context: { imageRow: { position: 1, files } } });
    await engine().describeImage(photo, {
      context: { siteLogo: true, siteName: 'Harbour Times', fileName: 'logo.png' },
    });
    const [part, row, logo] = requests.map(promptOf);
    expect(part).toContain('Part of a picture named “Crew portrait, 1969” (role="img")');
    expect(part).toContain('the image is then decorative (alt="")');
    expect(row).toContain('Suggested alt text: “2.5 out of 3 stars”');
    expect(logo).toContain('Site name: Harbour Times');
    expect(logo).toContain('The image looks like the site’s own logo');
  });

  it('carries every context field, the role and its W3C instruction, language, keywords, length, image and JSON format', async () => {
    handlers.push((_b, _q, res) =>
      answer(
        '{"altText":"Peter Taylor in a Palace shirt, smiling.","decorative":false,"confidence":0.86}',
        res,
      ),
    );
    const context = {
      pageTitle: 'Peter Taylor – Palace legends',
      heading: 'The 1970s',
      caption: 'Peter Taylor was the first Palace player capped for England',
      surroundingText: 'He joined from Southend in 1973.',
      linkTarget: 'https://palace.example/players/peter-taylor',
      role: 'link' as const,
      linkText: 'Peter Taylor’s profile',
      existingAlt: 'Peter Taylor',
      fileName: 'taylor-1975.jpg',
      pageUrl: 'https://palace.example/legends',
    };
    const result = await engine().describeImage(photo, {
      context,
      maxLength: 100,
      language: 'fr',
      prompt: 'Mention the shirt colour.',
      keywords: ['Crystal Palace', 'football'],
    });
    expect(result).toMatchObject({
      altText: 'Peter Taylor in a Palace shirt, smiling.',
      decorative: false,
      confidence: 0.86,
      needsReview: false,
      engine: 'openai',
      model: 'test-vision',
    });
    expect(result.signals.language).toBe('fr');
    expect(requests).toHaveLength(1);
    const sent = requests[0] as ChatRequest;
    expect(sent.model).toBe('test-vision');
    expect(sent.temperature).toBeLessThanOrEqual(0.3);
    expect(sent.max_tokens).toBe(300);
    expect(sent.response_format).toEqual({ type: 'json_object' });
    const system = sent.messages[0]?.content as string;
    expect(system).toContain('At most 100 characters');
    expect(system).toContain('Write in French');
    expect(system).toContain('W3C alt decision tree');
    expect(system).toContain(
      '{"altText": string, "decorative": boolean, "confidence": number from 0 to 1, "longDescription": string or null}',
    );
    const text = promptOf(sent);
    for (const line of [
      'Page title: Peter Taylor – Palace legends',
      'Nearest heading: The 1970s',
      'Figure caption: Peter Taylor was the first Palace player capped for England',
      'Text next to the image: He joined from Southend in 1973.',
      'The image links to: https://palace.example/players/peter-taylor',
      'The link’s or button’s own text (without the image): Peter Taylor’s profile',
      'Existing alt text on the page: Peter Taylor',
      'File name (not a description): taylor-1975.jpg',
      'Page address: https://palace.example/legends',
      'Image role: inside a link whose own text is “Peter Taylor’s profile”',
      'the image is decorative: answer "decorative": true',
      'SEO keywords: Crystal Palace, football. Use one only where it truthfully describes what the image shows',
      'Instruction from the user (follow it unless it breaks a rule): Mention the shirt colour.',
      'in French, at most 100 characters. Reply with JSON only: {"altText": string, "decorative": boolean, "confidence": number from 0 to 1, "longDescription": string or null}',
    ]) {
      expect(text).toContain(line);
    }
    const user = sent.messages[1]?.content as UserPart[];
    const image = user.find((p) => p.type === 'image_url')?.image_url?.url ?? '';
    expect(image).toMatch(/^data:image\/jpeg;base64,/);
    const decoded = Buffer.from(image.split(',')[1] ?? '', 'base64');
    expect(decoded.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // The reasons: the model first, then the role decision and every context field given as evidence.
    expect(result.reasons[0]).toEqual({ source: 'model', detail: 'test-vision', score: 0.86 });
    expect(result.reasons).toEqual(
      expect.arrayContaining([
        { source: 'caption', detail: context.caption },
        { source: 'existingAlt', detail: 'Peter Taylor' },
        { source: 'pageTitle', detail: context.pageTitle },
        { source: 'heading', detail: 'The 1970s' },
        { source: 'surroundingText', detail: context.surroundingText },
        { source: 'link', detail: context.linkTarget },
        { source: 'link', detail: 'Peter Taylor’s profile' },
        expect.objectContaining({ source: 'role' }),
      ]),
    );
  });

  it.each([
    {
      role: 'the only content of a home link',
      context: {
        role: 'link' as const,
        linkTarget: 'https://altwise.app/',
        pageUrl: 'https://altwise.app/blog',
      },
      says: [
        'Image role: the only content of a link to https://altwise.app/. Its alt text is the link’s name: say where the link goes',
        'Suggested name from the page: “Altwise home”',
      ],
    },
    {
      role: 'the only content of a button',
      context: { role: 'button' as const },
      says: [
        'Image role: the only content of a button. Its alt text is the button’s name: say what the button does',
      ],
    },
    {
      role: 'a thumbnail linking to its own file',
      context: { role: 'link' as const, linkTarget: 'https://altwise.app/media/boat.jpg' },
      says: [
        'Image role: the only content of a link to a larger version of the same image. Describe the picture.',
      ],
    },
    {
      role: 'a figure whose existing alt repeats the caption',
      context: { role: 'figure' as const, caption: 'The red boat, 1998', existingAlt: 'The red boat' },
      says: [
        'Image role: in a figure; its caption is read with it. Do not repeat the caption word for word',
        'The existing alt “The red boat” repeats the caption word for word: by the W3C alt decision tree the image is then decorative (alt="")',
      ],
    },
    {
      role: 'running content without context',
      context: {},
      says: ['There is no page context for this image.', 'Image role: in the page’s running content.'],
    },
  ])('tells the model what to do for $role', async ({ context, says }) => {
    await engine().describeImage(photo, { context });
    const text = promptOf(requests[0]);
    for (const line of says) expect(text).toContain(line);
  });

  it('keeps working with a server that refuses response_format, asking for JSON in the prompt alone', async () => {
    handlers.push((_b, _q, res) => fail(400, res, "'response_format.type' must be 'json_schema'"));
    handlers.push((_b, _q, res) =>
      answer('{"altText":"A person in a spacesuit.","decorative":false,"confidence":0.7}', res),
    );
    handlers.push((_b, _q, res) =>
      answer('{"altText":"An astronaut.","decorative":false,"confidence":0.7}', res),
    );
    const provider = engine();
    expect((await provider.describeImage(photo)).altText).toBe('A person in a spacesuit.');
    expect((await provider.describeImage(photo)).altText).toBe('An astronaut.');
    expect(requests.map((r) => r.response_format)).toEqual([{ type: 'json_object' }, undefined, undefined]);
    expect(promptOf(requests[1])).toContain('Reply with JSON only');
  });
});

describe('openai-compatible provider: answers', () => {
  it('applies the quality rules to what the model says', async () => {
    handlers.push((_b, _q, res) =>
      answer(
        '```json\n{"altText":"Image of a person in a white spacesuit in front of an American flag.","decorative":false,"confidence":0.8}\n```',
        res,
      ),
    );
    const result = await engine().describeImage(photo, { maxLength: 80 });
    expect(result.altText).toBe('A person in a white spacesuit in front of an American flag.');
  });

  it.each([
    ['a code fence', '```json\n{"altText":"A smiling astronaut.","decorative":false,"confidence":0.9}\n```'],
    [
      'prose around it',
      'Sure! Here is the JSON: {"altText":"A smiling astronaut.","decorative":false,"confidence":0.9} Hope it helps.',
    ],
    ['string values', '{"altText":"A smiling astronaut.","decorative":"false","confidence":"0.9"}'],
  ])('repairs JSON inside %s without asking again', async (_what, content) => {
    handlers.push((_b, _q, res) => answer(content, res));
    expect(await engine().describeImage(photo)).toMatchObject({
      altText: 'A smiling astronaut.',
      confidence: 0.9,
    });
    expect(requests).toHaveLength(1);
  });

  it.each([
    [0.95, 0.95, false],
    [1.7, 0.4, true],
    ['85%', 0.85, false],
    [85, 0.85, false],
    [-0.3, 0, true],
    [undefined, 0.4, true],
    ['very sure', 0.4, true],
  ])(
    'reads confidence %s as %s (needsReview %s) through the review threshold',
    async (given, confidence, needsReview) => {
      const json = {
        altText: 'A smiling astronaut.',
        decorative: false,
        ...(given === undefined ? {} : { confidence: given }),
      };
      handlers.push((_b, _q, res) => answer(JSON.stringify(json), res));
      const result = await engine().describeImage(photo);
      // 1.7 is off the scale: the model did not follow it, so it counts as no confidence given.
      expect(result).toMatchObject({ confidence, needsReview });
    },
  );

  it('caps the confidence of an image in a link the page does not name', async () => {
    handlers.push((_b, _q, res) =>
      answer('{"altText":"Shopping cart","decorative":false,"confidence":0.95}', res),
    );
    const result = await engine().describeImage(photo, {
      context: { role: 'link', linkTarget: 'https://shop.example/c/8f3a9c2e41' },
    });
    expect(result).toMatchObject({ altText: 'Shopping cart', confidence: 0.4, needsReview: true });
  });

  it('returns alt="" for an image the model calls decorative', async () => {
    handlers.push((_b, _q, res) => answer('{"altText":"","decorative":true,"confidence":0.8}', res));
    expect(await engine().describeImage(photo)).toMatchObject({
      altText: '',
      decorative: true,
      confidence: 0.8,
    });
  });

  it('asks for a long description for charts only and returns the model’s', async () => {
    const description = 'Visitors per month. January: 1,200; February: 1,450; June: 2,650.';
    handlers.push((_b, _q, res) =>
      answer(
        JSON.stringify({
          altText: 'Bar chart: visitors per month, January to June',
          decorative: false,
          confidence: 0.9,
          longDescription: `  ${description}\n`,
        }),
        res,
      ),
    );
    const result = await engine().describeImage(photo);
    expect(result).toMatchObject({
      altText: 'Bar chart: visitors per month, January to June',
      longDescription: description,
    });
    const system = requests[0]?.messages[0]?.content as string;
    expect(system).toMatch(/"longDescription" only for a chart, diagram/);
    expect(system).toMatch(/For every other image "longDescription": null/);
    expect(promptOf(requests[0])).toContain('"longDescription": string or null');
  });

  it.each([
    ['no longDescription field', {}],
    ['a null longDescription', { longDescription: null }],
    ['a blank longDescription', { longDescription: '   ' }],
  ])('answers longDescription null for %s', async (_name, extra) => {
    handlers.push((_b, _q, res) =>
      answer(JSON.stringify({ altText: 'An astronaut', decorative: false, ...extra }), res),
    );
    expect(await engine().describeImage(photo)).toMatchObject({ longDescription: null });
  });

  it('drops the long description of an image the model calls decorative', async () => {
    handlers.push((_b, _q, res) =>
      answer(JSON.stringify({ altText: '', decorative: true, longDescription: 'Stripes.' }), res),
    );
    expect(await engine().describeImage(photo)).toMatchObject({ decorative: true, longDescription: null });
  });

  it('cuts a 3,000-character long description after the last whole entry within 1,000, without asking again', async () => {
    const entries = Array.from({ length: 200 }, (_, n) => `Month ${n + 1}: ${1000 + n}`);
    handlers.push((_b, _q, res) =>
      answer(
        JSON.stringify({
          altText: 'Line chart: sales per month',
          decorative: false,
          longDescription: entries.join('; '),
        }),
        res,
      ),
    );
    const result = await engine().describeImage(photo);
    expect(requests).toHaveLength(1);
    expect(result.longDescription?.length).toBeLessThanOrEqual(1000);
    expect(result.longDescription).toMatch(/^Month 1: 1000; Month 2: 1001;.*; Month \d+: \d+…$/);
  });

  it('shortens an over-long alt text at a clause boundary when what is kept still says something', async () => {
    handlers.push((_b, _q, res) =>
      answer(
        JSON.stringify({
          altText:
            'An astronaut in a white spacesuit stands before an American flag, holding a helmet under one arm while smiling at the camera.',
          decorative: false,
          confidence: 0.8,
        }),
        res,
      ),
    );
    const result = await engine().describeImage(photo, { maxLength: 90 });
    expect(result.altText).toBe('An astronaut in a white spacesuit stands before an American flag.');
    expect(requests).toHaveLength(1);
  });

  it('asks once more, saying what was wrong, when an over-long answer cannot be cut meaningfully', async () => {
    const long = `${'A very long description without any clause boundary at all that goes on '.repeat(3)}and on.`;
    handlers.push((_b, _q, res) =>
      answer(JSON.stringify({ altText: long, decorative: false, confidence: 0.9 }), res),
    );
    handlers.push((_b, _q, res) =>
      answer('{"altText":"An astronaut before a flag.","decorative":false,"confidence":0.7}', res),
    );
    const result = await engine().describeImage(photo, { maxLength: 60 });
    expect(result).toMatchObject({ altText: 'An astronaut before a flag.', confidence: 0.7 });
    expect(result.signals.timingsMs.attempts).toBe(2);
    expect(requests).toHaveLength(2);
    const retry = requests[1] as ChatRequest;
    expect(retry.messages).toHaveLength(4);
    expect(retry.messages[2]).toMatchObject({ role: 'assistant' });
    expect(retry.messages[2]?.content).toContain('A very long description');
    expect(retry.messages[3]).toMatchObject({ role: 'user' });
    expect(retry.messages[3]?.content).toMatch(
      /^Your "altText" was 2\d\d characters; the limit is 60\. Answer again with JSON only/,
    );
    // The image travels with the first user message, so the model still sees it.
    expect(JSON.stringify(retry.messages[1])).toContain('data:image/jpeg;base64,');
  });

  it.each([
    ['plain prose', 'A smiling astronaut in a white suit.', 'Your answer was not JSON.'],
    ['malformed JSON', '{"altText": "A person', 'Your answer was not JSON.'],
    ['JSON without altText', '{"description":"A person"}', 'Your JSON had no "altText".'],
    [
      'an empty altText that is not decorative',
      '{"altText":"","decorative":false}',
      'Your "altText" was empty',
    ],
    ['an empty answer', '', 'Your answer was empty.'],
  ])(
    'retries %s once with a corrective message and uses the corrected answer',
    async (_what, bad, problem) => {
      handlers.push((_b, _q, res) => answer(bad, res));
      handlers.push((_b, _q, res) =>
        answer('{"altText":"A smiling astronaut.","decorative":false,"confidence":0.8}', res),
      );
      expect((await engine().describeImage(photo)).altText).toBe('A smiling astronaut.');
      expect(requests).toHaveLength(2);
      expect(requests[1]?.messages.at(-1)?.content).toContain(problem);
    },
  );

  it('fails without another try when the corrected answer is still unusable', async () => {
    handlers.push((_b, _q, res) => answer('A smiling astronaut.', res));
    handlers.push((_b, _q, res) => answer('Sorry, a smiling astronaut.', res));
    const error = await engine()
      .describeImage(photo)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineProviderError);
    expect(error).toMatchObject({
      retryable: false,
      message: "The model's answer could not be used, even after asking again: Your answer was not JSON.",
    });
    expect(requests).toHaveLength(2);
  });

  it('fails an answer without choices after asking again', async () => {
    const noChoices: Handler = (_b, _q, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [] }));
    };
    handlers.push(noChoices, noChoices);
    await expect(engine().describeImage(photo)).rejects.toThrow(/Your answer was empty/);
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
