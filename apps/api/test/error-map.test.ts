import { readdir, readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { type ErrorCode, errorCodes, errorResponseSchema, errorStatus } from '@altwise/contracts/errors';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineBusyError, EngineInputError, EngineProviderError } from '../src/engines/errors.ts';
import { createOfflineImageEngine } from '../src/engines/images/offline-image-engine.ts';
import { EditPromptError, type ImageEngine } from '../src/engines/images/types.ts';
import { AppError, ImageFailure, toAppError, WorkFailedError } from '../src/errors.ts';
import { SafeFetchError } from '../src/net/safe-fetch.ts';
import { toErrorResponse } from '../src/plugins/error-handler.ts';
import { balanceOf, createUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * "One error map": domain errors become HTTP answers in errors.ts's toAppError only, with a
 * machine-readable code, and `refunded: true` when the failed work's credits came back.
 */

describe('toAppError, the one map', () => {
  const cases: [string, unknown, number, string][] = [
    [
      'an edit it cannot carry out',
      new EditPromptError('I can crop and blur.'),
      422,
      errorCodes.unprocessable,
    ],
    ['too many pixels', new EngineInputError('TOO_MANY_PIXELS', 'Too big.'), 413, errorCodes.payloadTooLarge],
    ['not an image', new EngineInputError('NOT_AN_IMAGE', 'Not an image.'), 400, errorCodes.badRequest],
    ['a busy engine', new EngineBusyError(), 503, errorCodes.engineBusy],
    [
      'a provider outage',
      new EngineProviderError('boom', { retryable: true, status: 500 }),
      502,
      errorCodes.engineFailed,
    ],
    [
      'a provider refusal',
      new EngineProviderError('Policy.', { retryable: false, status: 400 }),
      422,
      errorCodes.engineRefused,
    ],
    ['a lasting image failure', new ImageFailure('Not an image.', false), 422, errorCodes.unprocessable],
    ['a passing image failure', new ImageFailure('Overloaded.', true), 502, errorCodes.engineFailed],
    ['a private address', new SafeFetchError('REFUSED_ADDRESS', 'Private.'), 400, errorCodes.badRequest],
    ['a slow page', new SafeFetchError('TIMEOUT', 'After 10 s.'), 504, errorCodes.gatewayTimeout],
    ['an unreachable page', new SafeFetchError('UNREACHABLE', 'No route.'), 502, errorCodes.badGateway],
  ];
  for (const [what, error, status, code] of cases)
    it(`answers ${what} with ${status} ${code}`, () => {
      const mapped = toAppError(error);
      expect(mapped).toBeInstanceOf(AppError);
      expect([mapped?.statusCode, mapped?.code, mapped?.refunded]).toEqual([status, code, false]);
    });

  it('leaves anything unknown to the 500 path', () => {
    expect(toAppError(new Error('connect ECONNREFUSED 10.0.0.5:5432'))).toBeNull();
    expect(
      toAppError(new WorkFailedError(new TypeError('x is undefined'), { refundedCredits: 3 })),
    ).toBeNull();
  });

  it('says `refunded` even when paid work failed in a way nobody foresaw (a 500)', () => {
    const request = { id: 'req-1', routeOptions: {} } as unknown as FastifyRequest;
    const answer = toErrorResponse(new WorkFailedError(new TypeError('x'), { refundedCredits: 2 }), request);
    expect(answer.statusCode).toBe(500);
    expect(answer.body).toMatchObject({ code: 'INTERNAL_ERROR', refunded: true });
    expect(answer.body.message).not.toContain('TypeError');
  });

  it('names the work, keeps the provider’s words out of a 502 and says the credits are back', () => {
    const failure = new WorkFailedError(
      new EngineProviderError('secret host 10.1.2.3', { retryable: true }),
      {
        work: 'The caption',
        refundedCredits: 1,
      },
    );
    const mapped = toAppError(failure);
    expect(mapped).toMatchObject({ statusCode: 502, code: errorCodes.engineFailed, refunded: true });
    expect(mapped?.message).toBe(
      'The caption failed: the AI engine could not do it right now. Please try again in a few minutes. Your credit was refunded.',
    );
  });
});

describe('statuses come from the one table (ADR 047)', () => {
  it('gives every AppError the status of its code', () => {
    for (const code of Object.values(errorCodes))
      expect(new AppError(code, 'x').statusCode, code).toBe(errorStatus[code]);
  });

  it('answers an unknown code with 500', () => {
    const unknown = new AppError('NOT_A_CODE' as ErrorCode, 'x');
    expect(unknown.statusCode).toBe(500);
    const request = { id: 'req-2', routeOptions: {} } as unknown as FastifyRequest;
    expect(toErrorResponse(unknown, request).statusCode).toBe(500);
  });

  it('names no status at any throw site', async () => {
    const source = join(import.meta.dirname, '..', 'src');
    const files = (await readdir(source, { recursive: true })).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    const naming: string[] = [];
    for (const file of files) {
      const text = await readFile(join(source, file), 'utf8');
      if (/new AppError\(\s*\d/.test(text)) naming.push(file.split(sep).join('/'));
    }
    expect(naming).toEqual([]);
  });
});

describe('a studio edit that fails after the charge', () => {
  let t: TestApp;
  const failing = (error: () => Error): ImageEngine => ({
    ...createOfflineImageEngine(),
    async editImage() {
      throw error();
    },
  });
  let next: () => Error = () => new EngineBusyError();
  beforeAll(async () => {
    t = await buildTestApp({ imageEngine: failing(() => next()) });
  });
  afterAll(() => t.cleanup());

  const edit = async (userAuth: Record<string, string>, prompt = 'black and white') => {
    const form = new FormData();
    form.append('prompt', prompt);
    form.append('quality', 'low');
    const bytes = await readFile(join(import.meta.dirname, 'fixtures', 'images', 'coffee.jpg'));
    form.append('image', new Blob([bytes], { type: 'image/jpeg' }), 'coffee.jpg');
    const request = new Request('http://x', { method: 'POST', body: form });
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/images/edit-image',
      headers: { ...userAuth, 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  };

  it('answers ENGINE_BUSY with refunded: true and gives the credits back', async () => {
    const user = await createUser(t, 30);
    next = () => new EngineBusyError();
    const response = await edit(user.auth);
    expect(response.statusCode).toBe(503);
    const body = errorResponseSchema.parse(response.json());
    expect(body).toMatchObject({ code: 'ENGINE_BUSY', refunded: true });
    expect(body.message).toMatch(/^The image edit could not be done: .*Your credits were refunded\.$/);
    expect(await balanceOf(t, user)).toBe(30);
  });

  it('answers ENGINE_FAILED with refunded: true for a provider failure', async () => {
    const user = await createUser(t, 30);
    next = () => new EngineProviderError('upstream 500 at 10.0.0.7', { retryable: true, status: 500 });
    const response = await edit(user.auth);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ code: 'ENGINE_FAILED', refunded: true });
    expect(response.body).not.toContain('10.0.0.7');
    expect(await balanceOf(t, user)).toBe(30);
  });

  it('answers a refusal before any charge without `refunded`', async () => {
    const user = await createUser(t, 30);
    const response = await edit(user.auth, 'make it sing opera');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'UNPROCESSABLE' });
    expect(response.json().refunded).toBeUndefined();
    expect(await balanceOf(t, user)).toBe(30);
  });
});
