import { registerOpenApiExamples } from '@altwise/contracts/openapi-examples';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };

/**
 * The OpenAPI 3 document, built from the zod route schemas, browsable at /api/docs (JSON at
 * /api/docs/json). `npm run openapi -w apps/api` writes it to apps/api/openapi.json. The UI loads
 * only its own scripts, so the app-wide content security policy (plugins/security.ts) covers it.
 * The request and response examples come from packages/contracts/src/openapi-examples.ts.
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
    });
    await app.register(swaggerUi, {
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
  const result = jsonSchemaTransform(document);
  const body = (result.schema as { body?: unknown }).body;
  const examples = examplesOf((document.schema as { body?: unknown } | undefined)?.body);
  if (examples && body && typeof body === 'object' && !('examples' in body))
    (body as Record<string, unknown>).examples = examples;
  return result;
};
