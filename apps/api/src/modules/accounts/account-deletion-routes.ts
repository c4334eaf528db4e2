import { deleteAccountRequestSchema } from '@altwise/contracts/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../../config.ts';
import type { AccountDeletion } from './account-deletion.ts';
import { createAuthRateLimits } from './rate-limits.ts';

/** DELETE /api/v1/users/me (ADR 022). */
export async function accountDeletionRoutes(
  app: FastifyInstance,
  options: { deletion: AccountDeletion; config: AppConfig },
) {
  const limit = await createAuthRateLimits(app, options.config.auth.rateLimit);
  app.withTypeProvider<ZodTypeProvider>().delete(
    '/users/me',
    {
      // Not with an API key (ADR 028): 403 SESSION_REQUIRED.
      config: { sessionOnly: true },
      // The password is checked here: the same guard against guessing as a login.
      preHandler: limit('delete-account'),
      schema: {
        tags: ['accounts'],
        summary: 'Delete the signed-in account and everything in it',
        description:
          'Confirmed with the account password. Removes the library, files, batches, studio jobs, credits and sessions at once (the token stops working; file bytes are deleted by a retried background job), stops subscription renewal with the payment provider, and keeps payments without the person. 400 with errors[].path "password" when the password is wrong or the account has none (Google only); nothing is deleted then.',
        body: deleteAccountRequestSchema,
        response: { 204: z.null().describe('Deleted') },
      },
    },
    async (request, reply) => {
      await options.deletion.deleteAccount(request.user.id, request.body.password);
      reply.header('cache-control', 'no-store');
      return reply.code(204).send(null);
    },
  );
}
