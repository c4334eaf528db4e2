import { readFileSync } from 'node:fs';
import { errorCodes, errorResponseSchema } from '@altwise/contracts/errors';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * Malformed requests against every route of the committed OpenAPI document: wrong types,
 * missing and extra fields, huge strings, deep nesting, wrong content types and broken multipart
 * bodies; also NUL bytes and lone UTF-16 surrogates in every body field, path and
 * query parameter and multipart text field, and 10,000-deep arrays and objects in bodies, paths
 * and queries. Each without a token, with a garbage token and with a valid one. No answer may be a 5xx,
 * every 4xx has the one error shape, and nothing internal (a stack trace, SQL) reaches the caller.
 * fast-check makes the values; the seed is fixed so a failure is reproduced by running it again.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  $ref?: string;
};
type Operation = {
  security?: unknown[];
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
type Route = { method: string; path: string; operation: Operation; hidden?: boolean };

const document = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};
const routes: Route[] = Object.entries(document.paths).flatMap(([path, operations]) =>
  Object.entries(operations).map(([method, operation]) => ({
    method: method.toUpperCase(),
    path,
    operation,
  })),
);

/**
 * Routes the document leaves out (`hide: true`), fuzzed too; their pages answer HTML, so only "no
 * 5xx, nothing internal" is checked. Not fuzzed: GET /dev/outbox (registered only with
 * NODE_ENV=development), the web app's pages (SERVE_WEB is off in tests; web.test.ts covers them)
 * and the OpenAPI viewer's static files (no input).
 */
const hiddenRoutes: Route[] = [
  { method: 'GET', path: '/files/{key}', operation: {}, hidden: true },
  { method: 'GET', path: '/buy/{productId}', operation: {}, hidden: true },
  { method: 'POST', path: '/buy/{productId}', operation: {}, hidden: true },
];
routes.push(...hiddenRoutes);

const SEED = 20261123;
const knownCodes = new Set<string>(Object.values(errorCodes));
const stackTrace = /\n\s+at \S|\bat .+:\d+:\d+\)?|node_modules|\.ts:\d+/;
const sqlLeak =
  /\b(select\s.+\sfrom\s|insert into\s|delete from\s|update\s+"?\w+"?\s+set\s)|syntax error at or near|violates .* constraint|relation "\w+" does not exist|Failed query:/i;

function resolve(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  return document.components?.schemas?.[schema.$ref.split('/').pop() ?? ''];
}

/** The text fields and the file parts (`format: binary`) of a multipart form. */
function multipartParts(route: Route): { text: string[]; files: string[] } {
  const schema = resolve(route.operation.requestBody?.content?.['multipart/form-data']?.schema);
  const parts = Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    binary: (resolve(property) as { format?: string } | undefined)?.format === 'binary',
  }));
  return {
    text: parts.filter((part) => !part.binary).map((part) => part.name),
    files: parts.filter((part) => part.binary).map((part) => part.name),
  };
}

const queryNames = (route: Route) =>
  (route.operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);

/** The object properties a JSON body declares (the first object variant of an anyOf). */
function bodyProperties(route: Route): Record<string, JsonSchema> {
  let schema = resolve(route.operation.requestBody?.content?.['application/json']?.schema);
  if (schema?.anyOf) schema = resolve(schema.anyOf.find((variant) => resolve(variant)?.properties));
  return schema?.properties ?? {};
}

const typeOf = (schema: JsonSchema | undefined) =>
  [resolve(schema)?.type ?? []].flat().filter((type) => type !== 'null')[0] ?? 'string';

/** A value of any JSON type but the declared one. */
function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> {
  const all: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.string({ maxLength: 20 }),
    number: fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e308, -1, 0.5)),
    integer: fc.oneof(fc.double({ noInteger: true }), fc.constant(-99999999999)),
    boolean: fc.boolean(),
    array: fc.array(fc.jsonValue(), { maxLength: 4 }),
    object: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 4 }),
    null: fc.constant(null),
  };
  const declared = typeOf(schema);
  return fc.oneof(
    ...Object.entries(all)
      .filter(([type]) => type !== declared && !(declared === 'number' && type === 'integer'))
      .map(([, arbitrary]) => arbitrary),
  );
}

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

type Fuzzed = {
  body?: string | Buffer;
  contentType?: string;
  pathValue?: string;
  /** Put in the path as it is, not percent-encoded (a malformed URL). */
  rawPathValue?: string;
  query?: string;
};

/** What Postgres cannot store, and nesting deeper than any recursive walk survives. */
const NUL_TEXT = 'a\u0000b';
const LONE_SURROGATES = ['a\uD800b', '\uDFFFz', 'x\uDBFF'];
/** A lone surrogate in a URL: its CESU-8 bytes, which are not UTF-8. */
const LONE_SURROGATE_IN_URL = '%ED%A0%80';
const DEEP = 10_000;
const deepArrayJson = `${'['.repeat(DEEP)}1${']'.repeat(DEEP)}`;
const deepObjectJson = `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`;

const hugeString = fc.string({ minLength: 1, maxLength: 4 }).map((s) => s.repeat(200_000).slice(0, 300_000));
const fuzzText = fc.string({ unit: 'binary', maxLength: 40 });
const boundary = '----fuzzboundary';
const filePart = (name: string, bytes: string) =>
  `--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n${bytes}\r\n`;

/**
 * A well-formed multipart form whose every text field, and every file's name, is `value`; each
 * file part the form declares carries a small CSV (for an import) or GIF.
 */
function multipartWith(route: Route, value: string): Fuzzed {
  const { text, files } = multipartParts(route);
  const fields = (text.length ? text : ['userId']).map(
    (name) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const gif = 'GIF89a\x01\x00\x01\x00\x00\x00\x00;';
  const fileParts = (files.length ? files : ['file']).map((name) =>
    name === 'file'
      ? `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${value}.csv"\r\ncontent-type: text/csv\r\n\r\nimage_url,caption\r\nhttps://example.com/${value}.png,${value}\r\n\r\n`
      : `--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${value}.gif"\r\ncontent-type: image/gif\r\n\r\n${gif}\r\n`,
  );
  return {
    body: Buffer.from(`${fields.join('')}${fileParts.join('')}--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Every kind of malformed request, each made by fast-check for one route. */
function malformedRequests(route: Route): Record<string, fc.Arbitrary<Fuzzed>> {
  const props = bodyProperties(route);
  const names = Object.keys(props);
  const queryOf = (value: string) =>
    [...queryNames(route), 'q'].map((name) => `${encodeURIComponent(name)}=${value}`).join('&');
  const json = (value: unknown): Fuzzed => ({ body: JSON.stringify(value), contentType: 'application/json' });
  const withEach = (make: (schema: JsonSchema) => fc.Arbitrary<unknown>) =>
    names.length === 0
      ? fc.constant({} as Record<string, unknown>)
      : fc.record(Object.fromEntries(names.map((name) => [name, make(props[name] ?? {})])));
  return {
    missingFields: fc.constant(json({})),
    wrongTypes: withEach(wrongType).map(json),
    wrongTopLevel: fc.oneof(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.string(), fc.integer()).map(json),
    extraFields: fc
      .tuple(
        withEach(wrongType),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.jsonValue(), { maxKeys: 20 }),
      )
      .map(([body, extra]) => ({
        body: `{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},${JSON.stringify({ ...extra, ...body }).slice(1)}`,
        contentType: 'application/json',
      })),
    hugeStrings: fc
      .tuple(
        withEach(() => hugeString),
        hugeString,
      )
      .map(([body, huge]) => ({ ...json(body), pathValue: huge.slice(0, 1000), query: huge.slice(0, 5000) })),
    deepNesting: fc
      .integer({ min: 500, max: 3000 })
      .map((depth) =>
        json(Object.fromEntries((names.length ? names : ['a']).map((n) => [n, nested(depth)]))),
      ),
    // NUL bytes and lone surrogates in every body field, path and query parameter (and
    // in a field name), 10,000-deep arrays and objects in bodies, paths and queries, text fields of
    // multipart forms with NUL bytes.
    nulBytes: fc.constant({
      body: JSON.stringify({
        ...Object.fromEntries((names.length ? names : ['name']).map((n) => [n, NUL_TEXT])),
        [`k${NUL_TEXT}`]: NUL_TEXT,
      }),
      contentType: 'application/json',
      pathValue: NUL_TEXT,
      query: queryOf('%00'),
    }),
    nulInArrays: fc.constant(
      json(Object.fromEntries((names.length ? names : ['ids']).map((n) => [n, [NUL_TEXT, { a: NUL_TEXT }]]))),
    ),
    loneSurrogates: fc.constantFrom(...LONE_SURROGATES).map((text) => ({
      body: JSON.stringify(Object.fromEntries((names.length ? names : ['name']).map((n) => [n, text]))),
      contentType: 'application/json',
      rawPathValue: LONE_SURROGATE_IN_URL,
      query: queryOf(LONE_SURROGATE_IN_URL),
    })),
    deepArrays10k: fc.constant({
      body: names.length
        ? `{${names.map((n) => `${JSON.stringify(n)}:${deepArrayJson}`).join(',')}}`
        : deepArrayJson,
      contentType: 'application/json',
      pathValue: `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`,
      query: `${queryOf(encodeURIComponent('['.repeat(DEEP)))}&${'a'}${'[b]'.repeat(DEEP)}=1`,
    }),
    deepObjects10k: fc.constant({
      body: names.length
        ? `{${names.map((n) => `${JSON.stringify(n)}:${deepObjectJson}`).join(',')}}`
        : deepObjectJson,
      contentType: 'application/json',
      rawPathValue: '%7B%22a%22%3A'.repeat(DEEP),
      query: queryOf(encodeURIComponent(deepObjectJson.slice(0, 20_000))),
    }),
    multipartNulFields: fc.constant(multipartWith(route, NUL_TEXT)),
    multipartSurrogateFields: fc.constant(multipartWith(route, '\uD800')),
    invalidJson: fuzzText.map((text) => ({ body: `{"a": ${text}`, contentType: 'application/json' })),
    wrongContentType: fc
      .tuple(
        fuzzText,
        fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'x/y; a=b'),
      )
      .map(([text, contentType]) => ({ body: text, contentType })),
    multipartNoBoundary: fuzzText.map((text) => ({
      body: filePart('images', text),
      contentType: 'multipart/form-data',
    })),
    multipartBadBoundary: fuzzText.map((text) => ({
      body: `${filePart('images', text)}--${boundary}--\r\n`,
      contentType: 'multipart/form-data; boundary=not-the-one-used',
    })),
    multipartTruncated: fc.constantFrom('images', 'audioFile', 'image', 'userId').map((name) => ({
      body: filePart(name, '\x89PNG\r\n\x1a\n').slice(0, -7),
      contentType: `multipart/form-data; boundary=${boundary}`,
    })),
    badUrlEncoding: fc.constantFrom('%E0%A4%A', '%', '%zz', '%00%C0%AF').map((raw) => ({
      rawPathValue: raw,
      query: `page=${raw}&pageSize=${raw}`,
    })),
    badParams: fc.tuple(fuzzText, fuzzText).map(([pathValue, query]) => ({
      pathValue: pathValue || '%',
      query: `page=${encodeURIComponent(query)}&pageSize=-1&userId[]=x&page=2`,
    })),
  };
}

function urlFor(route: Route, fuzzed: Fuzzed): string {
  const path = route.path.replace(
    /\{[^}]+\}/g,
    () =>
      fuzzed.rawPathValue ??
      (fuzzed.pathValue === undefined ? 'not-an-id' : encodeURIComponent(fuzzed.pathValue)),
  );
  return fuzzed.query === undefined ? path : `${path}?${fuzzed.query}`;
}

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await buildTestApp({ env: { CONTACT_RATE_LIMIT_PER_IP: '100000' } });
  user = await createUser(t, 0);
});
afterAll(() => t.cleanup());

type Answer = { route: string; kind: string; token: string; status: number; body: string };

async function send(route: Route, kind: string, token: 'none' | 'garbage' | 'valid', fuzzed: Fuzzed) {
  const headers: Record<string, string> = {};
  if (fuzzed.contentType) headers['content-type'] = fuzzed.contentType;
  if (token === 'valid') headers.authorization = `Bearer ${user.token}`;
  if (token === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.e30.';
  const response = await t.app.inject({
    method: route.method as 'GET',
    url: urlFor(route, fuzzed),
    headers,
    ...(fuzzed.body !== undefined && route.method !== 'GET' ? { payload: fuzzed.body } : {}),
  });
  return {
    route: `${route.method} ${route.path}`,
    kind,
    token,
    status: response.statusCode,
    body: response.body,
    contentType: String(response.headers['content-type'] ?? ''),
  };
}

/** Kinds whose path parameter the router refuses: a lone surrogate's bytes, 10,000-deep nesting. */
const routerRefusedKinds = new Set(['loneSurrogates', 'deepArrays10k', 'deepObjects10k']);

/** What is wrong with an answer, or null. */
function problemWith(
  answer: Answer & { contentType: string },
  protectedRoute: boolean,
  hidden = false,
): string | null {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.body.slice(0, 300)}`;
  if (stackTrace.test(answer.body)) return `leaks a stack trace: ${answer.body.slice(0, 300)}`;
  if (sqlLeak.test(answer.body)) return `leaks SQL: ${answer.body.slice(0, 300)}`;
  // A URL the router cannot decode, or a path parameter over its 1,024 characters, matches no
  // route, so no route's authentication applies to it (the answer must still have the one shape).
  const refusedByRouter =
    answer.kind === 'badUrlEncoding' || (answer.route.includes('{') && routerRefusedKinds.has(answer.kind));
  if (protectedRoute && answer.token !== 'valid' && answer.status !== 401 && !refusedByRouter)
    return `answered ${answer.status} without a valid token (authentication must come first)`;
  if (answer.status >= 400 && !hidden) {
    if (!answer.contentType.includes('application/json')) return `error answer is ${answer.contentType}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      return `error answer is not JSON: ${answer.body.slice(0, 200)}`;
    }
    const shape = errorResponseSchema.safeParse(parsed);
    if (!shape.success || !shape.data.message || !shape.data.code)
      return `error answer is not {message, code, errors?}: ${answer.body.slice(0, 300)}`;
    if (!knownCodes.has(shape.data.code)) return `error code ${shape.data.code} is not one of errorCodes`;
  }
  return null;
}

describe('fuzzing every route of openapi.json', () => {
  it('reads every route of the committed document, the newest included', () => {
    const documented = Object.values(document.paths).flatMap((operations) => Object.keys(operations));
    expect(routes.filter((route) => !route.hidden)).toHaveLength(documented.length);
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/v1/api-keys',
        'POST /api/v1/webhooks/{id}/rotate-secret',
        'POST /api/v1/audits',
        'POST /api/v1/images/import-csv',
        'DELETE /api/v1/users/me',
      ]),
    );
  });

  for (const route of routes) {
    const protectedRoute = (route.operation.security?.length ?? 0) > 0;
    it(`${route.method} ${route.path}: no 5xx, one error shape${protectedRoute ? ', 401 before validation' : ''}`, async () => {
      const kinds = Object.entries(malformedRequests(route));
      const problems: string[] = [];
      let sent = 0;
      // Every kind once with each kind of token...
      for (const [index, [kind, arbitrary]] of kinds.entries()) {
        const [fuzzed] = fc.sample(arbitrary, { seed: SEED + index, numRuns: 1 });
        for (const token of ['none', 'garbage', 'valid'] as const) {
          const answer = await send(route, kind, token, fuzzed as Fuzzed);
          sent++;
          const problem = problemWith(answer, protectedRoute, route.hidden);
          if (problem) problems.push(`${kind} (${token} token): ${problem}`);
        }
      }
      // ...then a bounded number of random mixes, with the valid token (where validation runs).
      await fc.assert(
        fc.asyncProperty(
          fc
            .constantFrom(...kinds)
            .chain(([kind, arbitrary]) => arbitrary.map((fuzzed) => ({ kind, fuzzed }))),
          async ({ kind, fuzzed }) => {
            const answer = await send(route, kind, 'valid', fuzzed);
            sent++;
            const problem = problemWith(answer, protectedRoute, route.hidden);
            if (problem) problems.push(`${kind} (random): ${problem}`);
          },
        ),
        { seed: SEED, numRuns: 8 },
      );
      expect(sent).toBeGreaterThanOrEqual(10);
      expect(problems).toEqual([]);
    });
  }
});
