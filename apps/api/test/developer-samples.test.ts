import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { curlSamples, webhookVerifySample } from '@altwise/contracts/developer-samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi from '../openapi.json' with { type: 'json' };
import { createWebhookSecret, signWebhook } from '../src/modules/billing/standard-webhooks.ts';

/** The samples of the Developers page (/developers) must work against this server. */

type Verify = (secret: string, headers: Record<string, string>, body: string) => boolean;
let verify: Verify;
let dir: string;
beforeAll(async () => {
  // The sample exactly as the page shows it, run as the ES module a reader would paste into a file.
  dir = await mkdtemp(path.join(os.tmpdir(), 'altwise-sample-'));
  const file = path.join(dir, 'verify.mjs');
  await writeFile(file, webhookVerifySample);
  verify = ((await import(pathToFileURL(file).href)) as { verifyAltwiseWebhook: Verify })
    .verifyAltwiseWebhook;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the Developers page samples', () => {
  it('call only documented routes that accept an API key', () => {
    const paths = openapi.paths as Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    const calls = curlSamples.flatMap((sample) =>
      sample.command.split(/\n\s*\n/).map((command) => ({
        method: (command.match(/-X (\w+)/)?.[1] ?? (/ -[dF] /.test(command) ? 'POST' : 'GET')).toLowerCase(),
        route: command.match(/"\$ALTWISE_URL(\/api\/v1\/[^"?]*)/)?.[1]?.replace('$BATCH_ID', '{id}'),
      })),
    );
    expect(calls.length).toBeGreaterThanOrEqual(6);
    for (const { method, route } of calls) {
      const operation = route ? paths[route]?.[method] : undefined;
      expect(operation, `${method} ${route}`).toBeDefined();
      expect(
        operation?.security?.some((scheme) => 'apiKey' in scheme),
        `${method} ${route}`,
      ).toBe(true);
    }
  });

  it('send only the documented fields of a multipart form, and all its required ones', () => {
    type Form = { properties: Record<string, unknown>; required?: string[] };
    const paths = openapi.paths as Record<
      string,
      Record<string, { requestBody?: { content?: Record<string, { schema?: Form }> } }>
    >;
    const forms = curlSamples.filter((sample) => sample.command.includes(' -F '));
    expect(forms.length).toBeGreaterThanOrEqual(1);
    for (const { command } of forms) {
      const route = command.match(/"\$ALTWISE_URL(\/api\/v1\/[^"?]*)/)?.[1] ?? '';
      const form = paths[route]?.post?.requestBody?.content?.['multipart/form-data']?.schema;
      const fields = [...command.matchAll(/-F "([^=]+)=/g)].map((match) => match[1] ?? '');
      expect(form, route).toBeDefined();
      expect(
        fields.filter((field) => !(field in (form?.properties ?? {}))),
        route,
      ).toEqual([]);
      expect(
        form?.required?.filter((field) => !fields.includes(field)),
        route,
      ).toEqual([]);
    }
  });

  it('verify a delivery signed by the server, and refuse a tampered or stale one', () => {
    const secret = createWebhookSecret();
    const body = JSON.stringify({ type: 'batch.completed', timestamp: new Date().toISOString(), data: {} });
    const headers = signWebhook(secret, randomUUID(), body);
    expect(verify(secret, headers, body)).toBe(true);
    // Several signatures (during a secret rotation): one valid is enough.
    expect(
      verify(secret, { ...headers, 'webhook-signature': `v1,AAAA ${headers['webhook-signature']}` }, body),
    ).toBe(true);
    // Signed with the new and the old secret during a rotation's overlap: either one verifies.
    const previous = createWebhookSecret();
    const both = signWebhook([secret, previous], randomUUID(), body);
    expect(verify(secret, both, body)).toBe(true);
    expect(verify(previous, both, body)).toBe(true);

    expect(verify(secret, headers, body.replace('batch.completed', 'batch.failed'))).toBe(false);
    expect(verify(createWebhookSecret(), headers, body)).toBe(false);
    expect(verify(secret, { ...headers, 'webhook-id': randomUUID() }, body)).toBe(false);
    const stale = signWebhook(secret, randomUUID(), body, new Date(Date.now() - 10 * 60_000));
    expect(verify(secret, stale, body)).toBe(false);
    const { 'webhook-signature': _, ...unsigned } = headers;
    expect(verify(secret, unsigned, body)).toBe(false);
  });
});
