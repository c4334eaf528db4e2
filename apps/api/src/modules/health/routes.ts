import { healthResponseSchema } from '@altwise/contracts/health';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { HealthService } from './service.ts';

export async function healthRoutes(app: FastifyInstance, options: { health: HealthService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Database, job queue and storage status',
        description: '200 when every component is up; 503 with the same body when any is down.',
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      const health = await options.health.checkHealth();
      return reply
        .code(health.status === 'ok' ? 200 : 503)
        .header('cache-control', 'no-store')
        .send(health);
    },
  );
}
