import {
  deleteLibraryImagesRequestSchema,
  deleteLibraryImagesResponseSchema,
  listLibraryImagesQuerySchema,
  listLibraryImagesResponseSchema,
} from '@altwise/contracts/library';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { LibraryService } from './service.ts';

const bearerAuth = [{ bearerAuth: [] }];

/** The image library (SPEC.md §7), under /api/v1. */
export async function libraryRoutes(app: FastifyInstance, options: { library: LibraryService }) {
  const { library } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/images/altText',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['images'],
        summary: 'The caller’s library images with their alt texts, newest first',
        description:
          'Always the signed-in user’s own images. `userId` may be left out; when given it must be the caller’s id, else 403.',
        security: bearerAuth,
        querystring: listLibraryImagesQuerySchema,
        response: { 200: listLibraryImagesResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return library.listImages(request.user.id, request.query.userId);
    },
  );

  typed.delete(
    '/images/altText',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['images'],
        summary: 'Delete some of the caller’s library images',
        description:
          'Deletes those of `ids` that are the caller’s; ids of other users’ images or of no image are left alone and not counted in `deleted`. 400 unless `ids` is a list of 1 to 500 UUIDs.',
        security: bearerAuth,
        body: deleteLibraryImagesRequestSchema,
        response: { 200: deleteLibraryImagesResponseSchema },
      },
    },
    async (request) => library.deleteImages(request.user.id, request.body.ids),
  );
}
