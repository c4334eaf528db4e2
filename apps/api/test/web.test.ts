import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper.ts';

const indexHtml =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
const html = { accept: 'text/html,application/xhtml+xml' };
let distDir: string;
let t: TestApp;

beforeAll(async () => {
  distDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-dist-'));
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(path.join(distDir, 'index.html'), indexHtml);
  await writeFile(
    path.join(distDir, 'assets/index-abc123.js'),
    `console.log(${JSON.stringify('x'.repeat(2000))});`,
  );
  await writeFile(path.join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await buildTestApp({ env: { SERVE_WEB: 'true', WEB_DIST_DIR: distDir } });
});
afterAll(async () => {
  await t.cleanup();
  await rm(distDir, { recursive: true, force: true });
});

describe('serving the built SPA', () => {
  it('serves hashed assets as immutable for a year, compressed when asked', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('gzip');
  });

  it('serves other files and index.html as no-cache', async () => {
    const favicon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['cache-control']).toBe('no-cache');
    const index = await t.app.inject({ method: 'GET', url: '/index.html' });
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    '/',
    '/login',
    '/dashboard',
    '/checkout/growth?amount=19',
    '/blog/post2',
    '/confirm-email/eyJhbGciOi.eyJzdWIi.c2ln',
    '/images/',
  ])('answers the client route %s with index.html and 200', async (url) => {
    const response = await t.app.inject({ method: 'GET', url, headers: html });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(indexHtml);
  });

  it('answers an unknown page with the same index.html and status 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/no/such/page', headers: html });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe(indexHtml);
  });

  it('keeps JSON 404s for the API, files and missing assets', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/v1/nope', headers: html });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Route GET /api/v1/nope not found', code: 'NOT_FOUND' });
    const asset = await t.app.inject({ method: 'GET', url: '/assets/missing-123.js', headers: html });
    expect(asset.statusCode).toBe(404);
    expect(asset.headers['content-type']).toContain('application/json');
    const post = await t.app.inject({ method: 'POST', url: '/dashboard', headers: html });
    expect(post.statusCode).toBe(404);
    expect(post.headers['content-type']).toContain('application/json');
  });

  it('allows Google sign-in and image previews in its content security policy', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/', headers: html });
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self' https://accounts.google.com/gsi/client");
    expect(csp).toContain("img-src 'self' data: blob: https:");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  });
});

describe('serving prerendered pages', () => {
  const shellHtml =
    '<!doctype html><html><head><title>shell</title></head><body><div id="root"></div></body></html>';
  const page = (title: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
  let prerenderedDir: string;
  let app: TestApp;

  beforeAll(async () => {
    prerenderedDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-prerendered-'));
    await mkdir(path.join(prerenderedDir, 'plans'));
    await mkdir(path.join(prerenderedDir, 'blog/post1'), { recursive: true });
    await writeFile(path.join(prerenderedDir, 'index.html'), page('Landing'));
    await writeFile(path.join(prerenderedDir, 'spa.html'), shellHtml);
    await writeFile(path.join(prerenderedDir, 'plans/index.html'), page('Pricing'));
    await writeFile(path.join(prerenderedDir, 'blog/index.html'), page('Blogs'));
    await writeFile(path.join(prerenderedDir, 'blog/post1/index.html'), page('Post 1'));
    for (const [route, title] of [
      ['login', 'Log in – Altwise'],
      ['register', 'Create an Account – Altwise'],
    ] as const) {
      await mkdir(path.join(prerenderedDir, route));
      await writeFile(path.join(prerenderedDir, route, 'index.html'), page(title));
    }
    app = await buildTestApp({ env: { SERVE_WEB: 'true', WEB_DIST_DIR: prerenderedDir } });
  });
  afterAll(async () => {
    await app.cleanup();
    await rm(prerenderedDir, { recursive: true, force: true });
  });

  it.each([
    ['/', 'Landing'],
    ['/plans', 'Pricing'],
    ['/plans/', 'Pricing'],
    ['/blog', 'Blogs'],
    ['/blog/post1', 'Post 1'],
    ['/blog/post1?ref=x', 'Post 1'],
  ])('answers %s with its prerendered page, no-cache', async (url, title) => {
    const response = await app.app.inject({ method: 'GET', url, headers: html });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain(`<h1>${title}</h1>`);
  });

  it.each([
    ['/login', 'Log in – Altwise'],
    ['/login?next=%2Fimages', 'Log in – Altwise'],
    ['/register', 'Create an Account – Altwise'],
  ])('answers %s with its own prerendered page and title (ADR 027)', async (url, title) => {
    const response = await app.app.inject({ method: 'GET', url, headers: html });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`<title>${title}</title>`);
    expect(response.body).not.toContain('<title>Landing</title>');
  });

  it('answers other client routes with the app shell, and unknown pages with the shell and 404', async () => {
    for (const url of ['/dashboard', '/support', '/blog/post2', '/confirm-email/abc.def']) {
      const response = await app.app.inject({ method: 'GET', url, headers: html });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(shellHtml);
    }
    const unknown = await app.app.inject({ method: 'GET', url: '/blog/post9', headers: html });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe(shellHtml);
  });
});

describe('without a build', () => {
  it('answers pages with instructions to run npm run build instead of crashing', async () => {
    const missing = await buildTestApp({
      env: { SERVE_WEB: 'true', WEB_DIST_DIR: path.join(distDir, 'nope') },
    });
    try {
      const page = await missing.app.inject({ method: 'GET', url: '/dashboard', headers: html });
      expect(page.statusCode).toBe(503);
      expect(page.body).toContain('npm run build');
      const health = await missing.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(health.statusCode).toBe(200);
    } finally {
      await missing.cleanup();
    }
  });

  it('answers pages with a JSON 404 when SERVE_WEB is off', async () => {
    const off = await buildTestApp({ env: { SERVE_WEB: 'false', WEB_DIST_DIR: distDir } });
    try {
      const page = await off.app.inject({ method: 'GET', url: '/dashboard', headers: html });
      expect(page.statusCode).toBe(404);
      expect(page.json()).toEqual({ message: 'Route GET /dashboard not found', code: 'NOT_FOUND' });
    } finally {
      await off.cleanup();
    }
  });
});
