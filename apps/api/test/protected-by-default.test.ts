import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * ADR 047: every route is protected unless it is marked public. The app is built with every optional
 * route group on (the built web app, the development outbox, the sandbox's checkout pages).
 */
const expectedPublic = [
  // The built web app's files and the API reference's pages (libraries' routes, public as a group).
  'GET /*',
  'GET /api/docs',
  'GET /api/docs/static/*',
  'GET /api/docs/json',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/yaml',
  // Signing up, in and back in, before there is a token.
  'GET /api/v1/config',
  'GET /api/v1/health',
  'GET /api/v1/users/confirm-email/:token',
  'POST /api/v1/email/registration',
  'POST /api/v1/users/auth/google',
  'POST /api/v1/users/forgot-password',
  'POST /api/v1/users/login',
  'POST /api/v1/users/register',
  'POST /api/v1/users/resend-confirmation',
  'POST /api/v1/users/reset-password',
  // The contact form, and what providers and emailed links call (they carry their own proof).
  'POST /api/v1/email/send',
  'POST /api/v1/payments/sandbox/confirm',
  'POST /api/v1/webhooks/payments',
  'GET /buy/:productId',
  'POST /buy/:productId',
  // Stored files by their unguessable key (ADR 022); the development outbox.
  'GET /dev/outbox',
  'GET /files/*',
];

const methodsOf = (route: RouteOptions) => [route.method].flat().filter((method) => method !== 'HEAD');
const isProtected = (app: TestApp['app'], route: RouteOptions) =>
  [route.onRequest ?? []].flat().includes(app.requireUser);
/** A URL of the route: each parameter and wildcard filled with something plausible. */
const urlOf = (route: RouteOptions) =>
  route.url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');

let t: TestApp;
let distDir = '';

beforeAll(async () => {
  distDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-dist-'));
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>Altwise</title>');
  t = await buildTestApp({
    env: { NODE_ENV: 'development', SERVE_WEB: 'true', WEB_DIST_DIR: distDir, PAYMENT_PROVIDER: 'sandbox' },
    beforeReady(app) {
      // Routes added the way a new module would add them, after every plugin of the app.
      app.get('/api/v1/new-route', { schema: { summary: 'New' } }, async () => ({ ok: true }));
      app.get(
        '/api/v1/new-open-route',
        { config: { public: true }, schema: { summary: 'Open' } },
        async () => ({
          ok: true,
        }),
      );
    },
  });
});
afterAll(async () => {
  await t?.cleanup();
  await rm(distDir, { recursive: true, force: true });
});

describe('protected by default (ADR 047)', () => {
  it('lets exactly the expected routes through without a token', () => {
    const open = t.app.registeredRoutes
      .filter((route) => !isProtected(t.app, route))
      .flatMap((route) => methodsOf(route).map((method) => `${method} ${route.url}`));
    expect([...new Set(open)].sort()).toEqual([...expectedPublic, 'GET /api/v1/new-open-route'].sort());
  });

  it('answers 401 UNAUTHORIZED without credentials on every other route, before reading the body', async () => {
    const refused: string[] = [];
    let count = 0;
    for (const route of t.app.registeredRoutes.filter((each) => isProtected(t.app, each))) {
      // HEAD too: Fastify adds a HEAD route to each GET, and it passes through the same hook.
      for (const method of [route.method].flat()) {
        count += 1;
        const answer = await t.app.inject({
          method: method as 'GET',
          url: urlOf(route),
          // A body no route accepts: only authentication may answer.
          ...(method === 'GET' || method === 'HEAD'
            ? {}
            : { payload: '{not json', headers: { 'content-type': 'application/json' } }),
        });
        if (answer.statusCode !== 401 || (method !== 'HEAD' && answer.json().code !== 'UNAUTHORIZED'))
          refused.push(`${method} ${route.url}: ${answer.statusCode} ${answer.body.slice(0, 80)}`);
      }
    }
    expect(refused).toEqual([]);
    // The 50 API operations of the document, their HEADs, and the route added after the app was built.
    expect(count).toBeGreaterThan(70);
  });

  it('protects a route a new module adds without marking it, and serves one marked public', async () => {
    const closed = await t.app.inject({ method: 'GET', url: '/api/v1/new-route' });
    expect(closed.statusCode).toBe(401);
    expect(closed.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'Please sign in to continue.' });
    const open = await t.app.inject({ method: 'GET', url: '/api/v1/new-open-route' });
    expect(open.statusCode).toBe(200);
  });

  it('documents bearerAuth on every protected API route and no security on public ones', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    };
    const unprotectedInDoc = Object.entries(doc.paths).flatMap(([route, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => !operation.security?.some((scheme) => 'bearerAuth' in scheme))
        .map(([method]) => `${method.toUpperCase()} ${route.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(unprotectedInDoc.sort()).toEqual(
      expectedPublic
        .filter((route) => route.includes(' /api/v1/'))
        .concat('GET /api/v1/new-open-route')
        .sort(),
    );
  });

  it('refuses a route that names authentication itself (a sign of the old opt-in)', async () => {
    let refusal: unknown;
    const other = await buildTestApp({
      beforeReady(app) {
        try {
          app.get('/api/v1/opt-in', { onRequest: app.requireUser }, async () => ({}));
        } catch (error) {
          refusal = error;
        }
      },
    });
    await other.cleanup();
    expect(String(refusal)).toMatch(/authentication and its security are added by the auth plugin/);
  });
});
