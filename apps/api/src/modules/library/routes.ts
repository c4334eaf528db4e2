import {
  editAltTextRequestSchema,
  libraryImageParamsSchema,
  TOTAL_COUNT_HEADER,
} from '@altwise/contracts/generation';
import {
  deleteLibraryImagesRequestSchema,
  deleteLibraryImagesResponseSchema,
  libraryImageSchema,
  listLibraryImagesQuerySchema,
  listLibraryImagesResponseSchema,
} from '@altwise/contracts/library';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownershipGate } from '../../plugins/ownership.ts';
import type { LibraryService } from './service.ts';

/** The image library (the product spec §7), under /api/v1. */
export async function libraryRoutes(app: FastifyInstance, options: { library: LibraryService }) {
  const { library } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // `?userId=` (the product spec §7) must be the caller's (403 otherwise).
  await app.register(ownershipGate);

  typed.get(
    '/images/altText',
    {
      schema: {
        tags: ['images'],
        summary: 'The caller’s library images with their alt texts, newest first',
        description:
          'Always the signed-in user’s own images. `userId` may be left out; when given it must be the caller’s id, else 403. ' +
          'With `page` (from 1) and `pageSize` (25, 50, 100 or 500; default 25) the answer is that page and the ' +
          `\`${TOTAL_COUNT_HEADER}\` header counts the whole library; without \`page\` it is the whole library. ` +
          'Beside `id`, `src` and `alt_text`, each image has the engine’s `confidence` (0 to 1, null when unknown), ' +
          '`needsReview` (below the review threshold and not yet approved or edited), `reasons` (the evidence used) ' +
          '`longDescription` (a chart’s or diagram’s labels and values in reading order; null for other images) and `origin` (where the alt text came from: human, embedded, ai, ai-reviewed or ai-edited, ADR 057). ' +
          `With \`needsReview=true\` only the images needing review are listed (\`false\`: only the others), and \`${TOTAL_COUNT_HEADER}\` counts those.`,
        querystring: listLibraryImagesQuerySchema,
        response: { 200: listLibraryImagesResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { page, pageSize, needsReview } = request.query;
      const filter = { needsReview };
      if (page === undefined) return library.listImages(request.user.id, filter);
      const { images, total } = await library.listImagesPage(request.user.id, { page, pageSize }, filter);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return images;
    },
  );

  typed.patch(
    '/images/altText/:id',
    {
      schema: {
        tags: ['images'],
        summary: 'Replace the alt text of one of the caller’s images',
        description:
          'A person’s edit is a review: it also clears `needsReview`. With `longDescription` (at most 1,000 characters; null or empty removes it) the long description is replaced too; left out, it stays. 404 when the image is not in the caller’s library. Costs no credits.',
        params: libraryImageParamsSchema,
        body: editAltTextRequestSchema,
        response: { 200: libraryImageSchema },
      },
    },
    async (request) =>
      library.editAltText(request.user.id, request.params.id, {
        altText: request.body.alt_text,
        longDescription: request.body.longDescription,
      }),
  );

  typed.post(
    '/images/altText/:id/approve',
    {
      schema: {
        tags: ['images'],
        summary: 'Keep an image’s alt text as it is: clears its needs-review flag',
        description:
          'Answers the updated image. Approving an image that needs no review changes nothing. 404 when the image is not in the caller’s library. Costs no credits.',
        params: libraryImageParamsSchema,
        response: { 200: libraryImageSchema },
      },
    },
    async (request) => library.approveAltText(request.user.id, request.params.id),
  );

  typed.delete(
    '/images/altText',
    {
      schema: {
        tags: ['images'],
        summary: 'Delete some of the caller’s library images',
        description:
          'Deletes those of `ids` that are the caller’s; ids of other users’ images or of no image are left alone and not counted in `deleted`. 400 unless `ids` is a list of 1 to 500 UUIDs.',
        body: deleteLibraryImagesRequestSchema,
        response: { 200: deleteLibraryImagesResponseSchema },
      },
    },
    async (request) => library.deleteImages(request.user.id, request.body.ids),
  );
}
