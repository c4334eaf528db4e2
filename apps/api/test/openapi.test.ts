import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi.ts';
import { createUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

type MediaType = {
  schema?: { properties?: Record<string, unknown>; required?: string[] };
  example?: unknown;
  examples?: unknown;
};
type Operation = {
  security?: Record<string, unknown>[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

const servedDocument = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Document;

const operations = (doc: Document) =>
  Object.entries(doc.paths)
    .filter(([route]) => route.startsWith('/api/v1/'))
    .flatMap(([route, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ route, method, operation })),
    );

const hasExample = (media: MediaType | undefined) =>
  media !== undefined && (media.example !== undefined || media.examples !== undefined);

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

  it('has a request and an answer example for every JSON body of /api/v1', async () => {
    const missing: string[] = [];
    for (const { route, method, operation } of operations(await servedDocument())) {
      const body = operation.requestBody?.content?.['application/json'];
      if (body && !hasExample(body)) missing.push(`${method} ${route} request`);
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        const json = answer.content?.['application/json'];
        if (status.startsWith('2') && json && !hasExample(json)) missing.push(`${method} ${route} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents the form fields of every route that accepts multipart/form-data', async () => {
    const user = await createUser(t);
    const form = '--probe\r\nContent-Disposition: form-data; name="probe"\r\n\r\n1\r\n--probe--\r\n';
    const accepting: string[] = [];
    const undocumented: string[] = [];
    for (const { route, method, operation } of operations(await servedDocument())) {
      if (!['post', 'put', 'patch'].includes(method)) continue;
      const url = route.replace(/\{[^}]+\}/g, () => randomUUID());
      const send = async (contentType: string) =>
        (
          await t.app.inject({
            method: method.toUpperCase() as 'POST',
            url,
            headers: { ...user.auth, 'content-type': contentType },
            payload: form,
          })
        ).statusCode;
      // Fastify answers 415 for a content type no parser of the route's scope reads, before any
      // handler runs: a route that refuses an unknown type but not a form reads forms, unless its
      // body is JSON (a JSON route in a multipart scope; its schema refuses a form).
      if (operation.requestBody?.content?.['application/json']) continue;
      if ((await send('application/x-probe')) !== 415) continue;
      if ((await send('multipart/form-data; boundary=probe')) === 415) continue;
      accepting.push(`${method} ${route}`);
      const media = operation.requestBody?.content?.['multipart/form-data'];
      if (!media?.schema?.properties || !media.schema.required?.length || !hasExample(media))
        undocumented.push(`${method} ${route}`);
    }
    expect(accepting).toContain('post /api/v1/images/import-csv');
    expect(undocumented).toEqual([]);
  });

  it('lists the apiKey scheme on exactly the routes that accept an API key', async () => {
    const user = await createUser(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: user.auth,
      payload: { name: 'openapi test' },
    });
    const headers = { authorization: `Bearer ${created.json().key}` };
    const wrong: string[] = [];
    for (const { route, method, operation } of operations(await servedDocument())) {
      const schemes = (operation.security ?? []).flatMap((scheme) => Object.keys(scheme));
      if (!schemes.includes('bearerAuth')) continue;
      // Unknown ids and no body: the key is judged before anything else is (ADR 028).
      const url = route.replace(/\{[^}]+\}/g, () => randomUUID());
      const answer = await t.app.inject({ method: method.toUpperCase() as 'GET', url, headers });
      const accepted = answer.statusCode !== 401 && answer.json().code !== 'SESSION_REQUIRED';
      if (accepted !== schemes.includes('apiKey'))
        wrong.push(`${method} ${route}: ${answer.statusCode} but documents ${schemes.join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });
});
