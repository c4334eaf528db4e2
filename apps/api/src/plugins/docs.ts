import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import packageJson from '../../package.json' with { type: 'json' };

/**
 * The OpenAPI 3 document, built from the zod route schemas, browsable at /api/docs (JSON at
 * /api/docs/json). `npm run openapi -w apps/api` writes it to apps/api/openapi.json. The UI loads
 * only its own scripts, so the app-wide content security policy (plugins/security.ts) covers it.
 */
export const docsPlugin = fp(
  async (app: FastifyInstance) => {
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
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      uiConfig: { docExpansion: 'list', deepLinking: true },
    });
  },
  { name: 'docs' },
);
