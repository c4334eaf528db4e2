import {
  contentHistoryResponseSchema,
  generateContentRequestSchema,
  generateContentResponseSchema,
} from '@altwise/contracts/content';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ContentService } from './service.ts';

const bearerAuth = [{ bearerAuth: [] }];

/** The blog-post generator and its history (SPEC.md §7), under /api/v1. */
export async function contentRoutes(app: FastifyInstance, options: { content: ContentService }) {
  const { content } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/openai/generate-content',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['content'],
        summary: 'Write a blog post from a prompt and keep it in the caller’s history',
        description:
          'The generated text is the answer’s `text`. The offline engine writes a structured draft to fill in; with ALT_TEXT_ENGINE=openai the configured model writes the post. 400 for an empty prompt or one over 2,000 characters; 502 when the model provider fails (nothing is stored); 503 when the engine is busy.',
        security: bearerAuth,
        body: generateContentRequestSchema,
        response: { 200: generateContentResponseSchema },
      },
    },
    async (request) => content.generateContent(request.user.id, request.body.prompt),
  );

  typed.get(
    '/users/content-history',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['content'],
        summary: 'The caller’s generated texts, newest first (at most 100)',
        security: bearerAuth,
        response: { 200: contentHistoryResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return content.listHistory(request.user.id);
    },
  );
}
