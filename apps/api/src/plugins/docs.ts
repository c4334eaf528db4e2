import { MULTIPART_CONTENT_TYPE } from '@altwise/contracts/multipart-forms';
import { registerOpenApiExamples } from '@altwise/contracts/openapi-examples';
import swagger, { type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { publicRoutes } from './auth.ts';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * A multipart route's form (packages/contracts/src/multipart-forms.ts), for the OpenAPI document
     * only: it becomes the `multipart/form-data` requestBody. Fastify does not validate it (it is not
     * `body`); the route reads the form as it streams and checks the text fields with their contract.
     */
    multipartBody?: z.ZodType;
  }
}

/**
 * The OpenAPI 3 document, built from the zod route schemas, browsable at /api/docs (JSON at
 * /api/docs/json). `npm run openapi -w apps/api` writes it to apps/api/openapi.json. The UI loads
 * only its own scripts, so the app-wide content security policy (plugins/security.ts) covers it.
 * The request and response examples come from packages/contracts/src/openapi-examples.ts; a
 * multipart route's form fields from its `schema.multipartBody`.
 */
export const docsPlugin = fp(
  async (app: FastifyInstance) => {
    registerOpenApiExamples();
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Altwise API',
          description:
            'Alt text for images: the JSON API under /api/v1. Every error answers {message, code, errors?}.',
          version: packageJson.version,
        },
        components: {
          securitySchemes: {
            bearerAuth: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'JWT',
              description: 'The token answered by /users/login or /users/auth/google.',
            },
            apiKey: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'ak_…',
              description:
                'An API key (POST /api-keys), sent as `Authorization: Bearer ak_…`. Accepted by every protected route that lists it; 120 requests per minute per key by default (429 with Retry-After).',
            },
          },
        },
      },
      transform: withBodyExamples,
      transformObject: withMultipartEncoding,
    });
    // The reference's pages are open to anyone (ADR 047).
    await app.register(publicRoutes(swaggerUi), {
      routePrefix: '/api/docs',
      uiConfig: { docExpansion: 'list', deepLinking: true },
    });
  },
  { name: 'docs' },
);

/** The examples registered for a zod schema (an optional body's are those of the schema inside). */
function examplesOf(schema: unknown): unknown[] | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  const own = z.globalRegistry.get(schema)?.examples;
  if (Array.isArray(own)) return own;
  return schema instanceof z.ZodOptional ? examplesOf(schema.unwrap()) : undefined;
}

/**
 * zod leaves `examples` out of the input schema of a body that transforms a field (a language tag is
 * canonicalised), since an example of the output might not be valid input. Ours are inputs
 * (openapi-examples.test.ts parses each), so they are put back; @fastify/swagger then shows them as the
 * request's example.
 */
const withBodyExamples: typeof jsonSchemaTransform = (document) => {
  const { multipartBody, ...rest } = (document.schema ?? {}) as { multipartBody?: z.ZodType; body?: unknown };
  // A multipart form is documented as the body (only here: Fastify never sees it as one).
  const schema = multipartBody
    ? { ...rest, body: multipartBody, consumes: ['multipart/form-data'] }
    : document.schema;
  const result = jsonSchemaTransform({ ...document, schema });
  const body = (result.schema as { body?: unknown }).body;
  const examples = examplesOf((schema as { body?: unknown } | undefined)?.body);
  if (examples && body && typeof body === 'object' && !('examples' in body))
    (body as Record<string, unknown>).examples = examples;
  return result;
};

type MediaType = { schema?: { properties?: Record<string, Record<string, unknown>> }; encoding?: unknown };

/**
 * A file part's media types (its form's MULTIPART_CONTENT_TYPE meta) become the multipart
 * requestBody's `encoding`, where OpenAPI looks for them, and leave the part's schema.
 */
const withMultipartEncoding: SwaggerTransformObject = (document) => {
  if (!('openapiObject' in document)) return document.swaggerObject;
  const { openapiObject } = document;
  for (const methods of Object.values(openapiObject.paths ?? {})) {
    for (const operation of Object.values(methods ?? {})) {
      const requestBody = (operation as { requestBody?: { content?: Record<string, MediaType> } })
        .requestBody;
      const media = requestBody?.content?.['multipart/form-data'];
      const encoding: Record<string, { contentType: string }> = {};
      for (const [name, part] of Object.entries(media?.schema?.properties ?? {})) {
        const contentType = part[MULTIPART_CONTENT_TYPE];
        if (typeof contentType !== 'string') continue;
        delete part[MULTIPART_CONTENT_TYPE];
        encoding[name] = { contentType };
      }
      if (media && Object.keys(encoding).length > 0) media.encoding = encoding;
    }
  }
  return openapiObject;
};
