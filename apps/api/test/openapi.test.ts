import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.cleanup());

describe('OpenAPI document', () => {
  it('is served at /api/docs/json and describes /api/v1/health', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/v1/health'].get.responses).toHaveProperty('200');
    expect(doc.paths['/api/v1/health'].get.responses).toHaveProperty('503');
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/files'))).toBe(false);
  });

  it('has a browsable UI at /api/docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });

  it('is committed up to date in apps/api/openapi.json (run `npm run openapi -w apps/api`)', async () => {
    const committed = await readFile(path.resolve(import.meta.dirname, '../openapi.json'), 'utf8');
    expect(committed).toBe(await buildOpenApiDocument());
  });
});
