import {
  contentHistoryResponseSchema,
  generateContentRequestSchema,
  generateContentResponseSchema,
} from '@altwise/contracts/content';
import { errorCodes } from '@altwise/contracts/errors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import type { ContentService } from './service.ts';

/** The blog-post generator and its history (the product spec §7), under /api/v1. */
export async function contentRoutes(
  app: FastifyInstance,
  options: { content: ContentService; rateLimit: { perUser: number; windowSeconds: number } },
) {
  const { content } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  await app.register(rateLimit, { global: false });
  // Counted per signed-in user (after requireUser), in this process's memory.
  const checkUser = app.createRateLimit({
    max: options.rateLimit.perUser,
    timeWindow: options.rateLimit.windowSeconds * 1000,
    keyGenerator: (request) => `generate-content:user:${request.user.id}`,
  });
  const limitPerUser = async (request: FastifyRequest, reply: FastifyReply) => {
    const limit = await checkUser(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    const retryAfter = Math.max(1, limit.ttlInSeconds);
    reply.header('retry-after', String(retryAfter));
    const minutes = Math.ceil(retryAfter / 60);
    throw new AppError(
      errorCodes.rateLimited,
      `You have generated the most blog posts allowed for now. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  };

  typed.post(
    '/openai/generate-content',
    {
      preHandler: limitPerUser,
      schema: {
        tags: ['content'],
        summary: 'Write a blog post from a prompt and keep it in the caller’s history',
        description:
          'The generated text is the answer’s `text`. The offline engine writes a structured draft to fill in; with ALT_TEXT_ENGINE=openai the configured model writes the post. 400 for an empty prompt or one over 2,000 characters; 502 when the model provider fails (nothing is stored); 429 with Retry-After when the caller has generated too many posts in the window; 503 when the engine is busy.',
        body: generateContentRequestSchema,
        response: { 200: generateContentResponseSchema },
      },
    },
    async (request) => content.generateContent(request.user.id, request.body.prompt),
  );

  typed.get(
    '/users/content-history',
    {
      schema: {
        tags: ['content'],
        summary: 'The caller’s generated texts, newest first (at most 100)',
        response: { 200: contentHistoryResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return content.listHistory(request.user.id);
    },
  );
}
