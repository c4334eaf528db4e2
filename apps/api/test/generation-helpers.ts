import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { EngineProviderError } from '../src/engines/errors.ts';
import { reviewVerdict } from '../src/engines/review.ts';
import type { AltTextEngine, AltTextReason, AltTextResult, DescribeOptions } from '../src/engines/types.ts';
import type { TestApp } from './helper.ts';

/**
 * A deterministic alt-text engine for tests: the alt text names the image's bytes (a short hash)
 * and its context, after an optional delay; `failWith` decides per call whether it throws.
 */
export function createTestEngine(
  options: {
    delayMs?: number;
    failWith?: (bytes: Uint8Array, describe: DescribeOptions, call: number) => Error | undefined;
    /** Calls wait for this before answering (tests that hold images mid-way). */
    gate?: Promise<void>;
    /**
     * How sure the engine says it is about each image, and why (default 0.9, no reasons); results
     * below 0.5 are marked needsReview, as the engine's default threshold does.
     */
    verdict?: (
      bytes: Uint8Array,
      describe: DescribeOptions,
    ) => { confidence: number; reasons?: AltTextReason[] };
    /** The long description the engine gives each image (default none: null), as for a chart. */
    longDescription?: (bytes: Uint8Array, describe: DescribeOptions) => string | null;
  } = {},
) {
  const calls: { hash: string; options: DescribeOptions }[] = [];
  const engine: AltTextEngine & { calls: typeof calls } = {
    name: 'offline',
    model: 'test-engine',
    calls,
    async describeImage(bytes, describe = {}): Promise<AltTextResult> {
      const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 8);
      calls.push({ hash, options: describe });
      if (options.delayMs) await sleep(options.delayMs);
      if (options.gate) await options.gate;
      const failure = options.failWith?.(bytes, describe, calls.length);
      if (failure) throw failure;
      const label = describe.context?.existingAlt ?? describe.context?.fileName ?? 'an image';
      const verdict = options.verdict?.(bytes, describe) ?? { confidence: 0.9 };
      return {
        altText: `Test description of ${label} (${hash})${describe.prompt ? ` per "${describe.prompt}"` : ''}`,
        decorative: false,
        ...reviewVerdict(verdict.confidence, 0.5),
        // A stand-in for a vision model: its description is its grounds (ADR 067), unless a test says.
        reasons: verdict.reasons ?? [{ source: 'model', detail: 'test-engine' }],
        longDescription: options.longDescription?.(bytes, describe) ?? null,
        signals: {
          width: 1,
          height: 1,
          format: 'png',
          kind: 'photo',
          greyscale: false,
          brightness: 'medium',
          colours: [],
          objects: [],
          faces: [],
          contextUsed: [],
          promptApplied: Boolean(describe.prompt),
          language: 'en',
          timingsMs: {},
        },
        engine: 'offline',
        model: 'test-engine',
      };
    },
    async generateText() {
      return { text: 'text', engine: 'offline', model: 'test-engine' };
    },
    async warmUp() {},
    async close() {},
  };
  return engine;
}

export const providerDown = () =>
  new EngineProviderError('The provider answered 503.', { retryable: true, status: 503 });

/** A multipart/form-data body as a browser sends it. */
export function multipartBody(
  parts: (
    | { name: string; value: string }
    | { name: string; fileName: string; contentType: string; bytes: Uint8Array }
  )[],
) {
  const boundary = `----altwise${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      chunks.push(
        Buffer.from(`content-disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    } else {
      chunks.push(
        Buffer.from(
          `content-disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\ncontent-type: ${part.contentType}\r\n\r\n`,
        ),
        Buffer.from(part.bytes),
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** POST /images/upload-and-generate with a multipart body as a browser sends it. */
export function uploadImages(
  t: TestApp,
  auth: Record<string, string>,
  parts: Parameters<typeof multipartBody>[0],
) {
  const body = multipartBody(parts);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/images/upload-and-generate',
    payload: body.payload,
    headers: { ...auth, ...body.headers },
  });
}

/** Polls GET /images/batches/{id} until the batch has ended. */
export async function waitForBatch(
  t: TestApp,
  auth: Record<string, string>,
  batchId: string,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/images/batches/${batchId}`,
      headers: auth,
    });
    const body = response.json();
    if (body.status === 'completed' || body.status === 'failed') return body;
    if (Date.now() > deadline) throw new Error(`batch ${batchId} did not finish: ${JSON.stringify(body)}`);
    await sleep(50);
  }
}
