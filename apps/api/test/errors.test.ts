import { errorResponseSchema } from '@altwise/contracts/errors';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { badRequest, insufficientCredits } from '../src/errors.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    beforeReady(app) {
      const typed = app.withTypeProvider<ZodTypeProvider>();
      typed.post(
        '/api/v1/test/echo',
        {
          // Routes of this test are open (ADR 047: every other route answers 401 first).
          config: { public: true },
          schema: {
            body: z.object({
              email: z.email('Enter a valid email'),
              firstName: z.string().min(1, 'First name is required'),
            }),
          },
        },
        async (request) => ({ ok: true, email: request.body.email }),
      );
      typed.get('/api/v1/test/boom', { config: { public: true } }, async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.5:5432 at secret-host');
      });
      typed.get('/api/v1/test/credits', { config: { public: true } }, async () => {
        throw insufficientCredits('You need 25 credits for a high quality edit. You have 3 credits.');
      });
      typed.get('/api/v1/test/bad', { config: { public: true } }, async () => {
        throw badRequest('The url must start with http:// or https://', [
          { path: 'url', message: 'Invalid URL' },
        ]);
      });
    },
  });
});
afterAll(() => t.cleanup());

describe('one error shape', () => {
  it('answers an unknown API route with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/x?y=1' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({ message: 'Route GET /api/v1/x not found', code: 'NOT_FOUND' });
  });

  it('answers invalid input with 400 VALIDATION_ERROR naming each field', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      payload: { email: 'nope', firstName: '' },
    });
    expect(response.statusCode).toBe(400);
    const body = errorResponseSchema.parse(response.json());
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.message).toBe(
      'Invalid request: email: Enter a valid email; firstName: First name is required',
    );
    expect(body.errors).toEqual([
      { path: 'email', message: 'Enter a valid email' },
      { path: 'firstName', message: 'First name is required' },
    ]);
  });

  it('accepts valid input', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      payload: { email: 'ada@example.com', firstName: 'Ada' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, email: 'ada@example.com' });
  });

  it('answers malformed JSON with 400 and a clear message', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.c",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The request body is not valid JSON. Check its quotes, commas and brackets.',
      code: 'BAD_REQUEST',
    });
  });

  it('answers an oversized body with 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.c', firstName: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      message: 'The request body is too large: the limit is 1 MB.',
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('passes on the message and code of an AppError', async () => {
    const credits = await t.app.inject({ method: 'GET', url: '/api/v1/test/credits' });
    expect(credits.statusCode).toBe(402);
    expect(credits.json()).toEqual({
      message: 'You need 25 credits for a high quality edit. You have 3 credits.',
      code: 'INSUFFICIENT_CREDITS',
    });
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/test/bad' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      message: 'The url must start with http:// or https://',
      code: 'BAD_REQUEST',
      errors: [{ path: 'url', message: 'Invalid URL' }],
    });
  });

  it('answers an unexpected failure with 500 that leaks nothing and names the request id', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/test/boom',
      headers: { 'x-request-id': 'req-500-check' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      message:
        'Something went wrong on our side. Please try again; if it keeps happening, contact support with request id req-500-check.',
      code: 'INTERNAL_ERROR',
    });
    expect(response.body).not.toMatch(/ECONNREFUSED|secret-host|stack|at .*\.ts/);
  });
});

describe('request ids', () => {
  it('echoes a sane incoming x-request-id', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-request-id': 'abc-123.def' },
    });
    expect(response.headers['x-request-id']).toBe('abc-123.def');
  });

  it('replaces a missing or unsafe id with a fresh UUID', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await t.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-request-id': 'bad id\twith spaces<script>' },
    });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
