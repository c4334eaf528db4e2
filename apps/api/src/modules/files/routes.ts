import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../errors.ts';
import type { FilesService } from './service.ts';

/** Types a browser may render inline from our origin; anything else (HTML, SVG, ...) downloads. */
const inlineTypes =
  /^(image\/(png|jpeg|gif|webp|avif)|video\/(mp4|webm)|audio\/(mpeg|wav|ogg|webm)|text\/plain|application\/pdf)$/;

/**
 * GET /files/<key>: serves stored files for every storage driver. Keys are random and unguessable:
 * whoever has the link may read a live file (ADR 022); a deleted or expired one answers 404 at once.
 * The response can never run script in our origin (sandboxing CSP, nosniff, attachment for
 * anything not plainly inline).
 */
export async function filesRoutes(app: FastifyInstance, options: { files: FilesService }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/files/*',
      { config: { public: true }, schema: { hide: true, params: z.object({ '*': z.string() }) } },
      async (request, reply) => {
        const key = request.params['*'];
        const file = await options.files.openPublicFile(key);
        if (!file) throw notFound(`File ${key} not found`);
        const contentType = file.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
        reply
          .header('content-type', file.contentType)
          .header('content-length', file.sizeBytes)
          // Private and short: a deleted file must not live on in a shared cache (ADR 022).
          .header('cache-control', 'private, max-age=300')
          .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox")
          .header('x-content-type-options', 'nosniff')
          .header('cross-origin-resource-policy', 'same-site');
        if (!inlineTypes.test(contentType)) {
          reply.header('content-disposition', `attachment; filename="${key.split('/').pop()}"`);
        }
        return reply.send(file.body);
      },
    );
}
