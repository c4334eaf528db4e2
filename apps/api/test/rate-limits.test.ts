import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      AUTH_RATE_LIMIT_PER_IP: '4',
      AUTH_RATE_LIMIT_PER_EMAIL: '2',
      AUTH_RATE_LIMIT_WINDOW_SECONDS: '60',
    },
  });
});
afterAll(() => t.cleanup());

const login = (email: string, remoteAddress = '10.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/users/login',
    payload: { email, password: 'guess' },
    remoteAddress,
  });

describe('rate limits on account endpoints', () => {
  it('limits attempts per email address, in any letter case, across client addresses: 429 with Retry-After', async () => {
    expect((await login('target@example.com', '10.0.0.1')).statusCode).toBe(401);
    expect((await login('TARGET@example.com', '10.0.0.2')).statusCode).toBe(401);
    const limited = await login('target@example.com', '10.0.0.3');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      message: expect.stringMatching(/^Too many attempts\. Please wait \d+ seconds? and try again\.$/),
      code: 'RATE_LIMITED',
    });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('limits attempts per client address across email addresses', async () => {
    const ip = '10.0.0.9';
    for (let i = 0; i < 4; i++) expect((await login(`user${i}@example.com`, ip)).statusCode).toBe(401);
    const limited = await login('user5@example.com', ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Another client is not affected.
    expect((await login('user5@example.com', '10.0.0.10')).statusCode).toBe(401);
  });

  it.each([
    ['/users/register', { firstName: 'A', lastName: 'B', email: 'spam@example.com', password: 'password-1' }],
    ['/users/resend-confirmation', { email: 'spam@example.com' }],
    ['/users/forgot-password', { email: 'spam@example.com' }],
    ['/email/registration', { firstName: 'A', lastName: 'B', email: 'spam@example.com' }],
    ['/users/reset-password', { token: 'C'.repeat(43), password: 'password-1' }],
    ['/users/auth/google', { credential: 'x.y.z' }],
  ])('limits %s too', async (url, payload) => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v1${url}`,
        payload,
        remoteAddress: `10.1.${i}.1`,
      });
      statuses.push(response.statusCode);
    }
    const perIp = [];
    for (let i = 0; i < 5; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v1${url}`,
        payload,
        remoteAddress: '10.2.0.1',
      });
      perIp.push(response.statusCode);
    }
    // Per email (2 per window) when the body has one; per client address (4) always.
    if ('email' in payload) expect(statuses.slice(2)).toEqual([429, 429, 429]);
    else expect(statuses).not.toContain(429);
    expect(perIp.at(-1)).toBe(429);
  });
});
