import { errorResponseSchema } from '@altwise/contracts/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/** Malformed requests get a 4xx in the one error shape, and 401 comes first. */

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  user = await createUser(t, 5);
});
afterAll(() => t.cleanup());

const uploadRoutes = [
  '/api/v1/images/upload-and-generate',
  '/api/v1/images/edit-image',
  '/api/v1/images/generate-styled-caption',
  '/api/v1/images/createReels',
];
const part = (boundary: string, field: string) =>
  `--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n\x89PNG\r\n`;
const brokenForms = (field: string) => ({
  'no boundary': { contentType: 'multipart/form-data', body: `${part('b0', field)}--b0--\r\n` },
  'a wrong boundary': {
    contentType: 'multipart/form-data; boundary=other',
    body: `${part('b1', field)}--b1--\r\n`,
  },
  'a truncated body': {
    contentType: 'multipart/form-data; boundary=b2',
    body: part('b2', field).slice(0, -4),
  },
});

/** The file field each upload route reads. */
const fileField = (url: string) => (/edit-image|styled-caption/.test(url) ? 'image' : 'images');

describe('fault 3: no 5xx for malformed input', () => {
  it('answers a malformed body to POST /stripe/checkout with 400 naming the fields, `error` included', async () => {
    for (const payload of [
      {},
      { amount: 'ten', subscriptionPlan: 7 },
      { amount: -5, subscriptionPlan: 'x'.repeat(100_000) },
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/stripe/checkout',
        headers: user.auth,
        payload,
      });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(errorResponseSchema.parse(body).code).toBe('VALIDATION_ERROR');
      expect(body.errors.length).toBeGreaterThan(0);
      // The product spec's browser reads `error` on this legacy route.
      expect(body.error).toBe(body.message);
    }
  });

  it('keeps status "error" on a failed email confirmation', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/users/confirm-email/nope' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 'error', code: 'TOKEN_INVALID' });
  });

  for (const url of uploadRoutes)
    for (const [what, form] of Object.entries(brokenForms(fileField(url))))
      it(`answers a multipart body with ${what} to ${url} with 400 in the error shape`, async () => {
        const response = await t.app.inject({
          method: 'POST',
          url,
          headers: { ...user.auth, 'content-type': form.contentType },
          payload: form.body,
        });
        expect(response.statusCode).toBe(400);
        const body = errorResponseSchema.parse(response.json());
        expect(body.message).toMatch(/form could not be read|cut off/);
      });
});

describe('fault 4: authentication before validation', () => {
  const cases = [
    { method: 'POST', url: '/api/v1/credits/deduct', payload: { amount: 'lots' } },
    { method: 'POST', url: '/api/v1/stripe/checkout', payload: { amount: [] } },
    { method: 'PATCH', url: '/api/v1/images/altText/not-a-uuid', payload: { altText: 5 } },
    { method: 'GET', url: '/api/v1/images/altText?page=-3&pageSize=x' },
    { method: 'POST', url: '/api/v1/images/upload-and-generate', payload: 'not multipart' },
  ] as const;
  for (const request of cases)
    it(`answers ${request.method} ${request.url} with a bad body and no valid token with 401`, async () => {
      for (const authorization of [undefined, 'Bearer not.a.token']) {
        const response = await t.app.inject({
          ...request,
          headers: authorization ? { authorization } : {},
        });
        expect(response.statusCode).toBe(401);
        expect(errorResponseSchema.parse(response.json()).code).toBe('UNAUTHORIZED');
      }
    });
});
