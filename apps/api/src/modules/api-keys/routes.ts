import {
  apiKeyIdParamsSchema,
  apiKeyListSchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
  MAX_API_KEYS,
} from '@altwise/contracts/api-keys';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiKeysService } from './service.ts';

/** Managing keys needs the signed-in session: a key cannot make or revoke keys (ADR 028). */
const sessionOnly = { sessionOnly: true };

/** API keys (ADR 028), under /api/v1. */
export async function apiKeysRoutes(app: FastifyInstance, options: { apiKeys: ApiKeysService }) {
  const { apiKeys } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api-keys',
    {
      config: sessionOnly,
      schema: {
        tags: ['api-keys'],
        summary: 'Create an API key (the key is shown in this answer only)',
        description:
          'Send the key as `Authorization: Bearer ak_…` to call any other protected route except managing keys and webhooks, ' +
          'password, email, account deletion and payments (403 SESSION_REQUIRED). Only its hash is kept: store it now. ' +
          `At most ${MAX_API_KEYS} active keys per account (409 beyond). Needs a signed-in session.`,
        body: createApiKeyRequestSchema,
        response: { 201: createdApiKeySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await apiKeys.create(request.user.id, request.body.name));
    },
  );

  typed.get(
    '/api-keys',
    {
      config: sessionOnly,
      schema: {
        tags: ['api-keys'],
        summary: 'The caller’s active API keys, newest first (never the keys themselves)',
        description: '`lastUsedAt` is updated at most once a minute. Needs a signed-in session.',
        response: { 200: apiKeyListSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return apiKeys.list(request.user.id);
    },
  );

  typed.delete(
    '/api-keys/:id',
    {
      config: sessionOnly,
      schema: {
        tags: ['api-keys'],
        summary: 'Revoke an API key: it stops working at once',
        description: '404 for a key that is not the caller’s or already revoked. Needs a signed-in session.',
        params: apiKeyIdParamsSchema,
        response: { 204: z.null().describe('Revoked') },
      },
    },
    async (request, reply) => {
      await apiKeys.revoke(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
