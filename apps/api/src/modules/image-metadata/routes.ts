import { auditParamsSchema } from '@altwise/contracts/audit';
import { libraryImageParamsSchema } from '@altwise/contracts/generation';
import { imagesWithAltRequestSchema, MAX_IMAGES_WITH_ALT } from '@altwise/contracts/image-metadata';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ImageMetadataService } from './service.ts';
import { MAX_ZIP_BYTES } from './service.ts';

const zipLimits =
  `Each file is a copy: the stored original is never changed. At most ${MAX_IMAGES_WITH_ALT} images and ${MAX_ZIP_BYTES / 1024 / 1024} MB of images per zip, each image at most 10 MB; ` +
  'JPEG, PNG, WebP and GIF are written. The zip is streamed as each image is written; `manifest.csv` (last in the zip) lists every image with its file, address, alt text, long description, origin, `written` or `skipped` and the reason a file was skipped (no approved alt text, a download that failed, a file ExifTool could not write, over the limits). ';

/** A stream's reply ends: the zip stops writing images nobody will read. */
function abortOnClose(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => controller.abort());
  return controller.signal;
}

/** Downloads of image files with their alt text in the metadata (ADR 064), under /api/v1. */
export async function imageMetadataRoutes(app: FastifyInstance, options: { metadata: ImageMetadataService }) {
  const { metadata } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/images/altText/:id/with-alt',
    {
      schema: {
        tags: ['images'],
        summary: 'One library image’s file with its alt text written into its metadata',
        description:
          'A copy of the image (the stored upload, or its address fetched through the SSRF-safe fetcher) with IPTC Alt Text (Accessibility) (XMP `Iptc4xmpCore:AltTextAccessibility`), its long description as Extended Description (Accessibility) and where the alt text came from (`altwise:AltTextOrigin`, ADR 057) written by ExifTool. ' +
          '404 when the image is not in the caller’s library; 422 in words when the file cannot be downloaded or written (not JPEG, PNG, WebP or GIF, damaged, over 10 MB); 503 when ExifTool is not installed. Costs no credits.',
        params: libraryImageParamsSchema,
        produces: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
      },
    },
    async (request, reply) => {
      const file = await metadata.libraryImageWithAlt(request.user.id, request.params.id);
      reply.header('content-type', file.type);
      reply.header('content-disposition', `attachment; filename="${file.fileName}"`);
      reply.header('cache-control', 'no-store');
      return reply.send(file.bytes);
    },
  );

  typed.post(
    '/images/altText/with-alt.zip',
    {
      schema: {
        tags: ['images'],
        summary: 'A zip of library images, each with its alt text written into its metadata',
        description: `The caller’s images among \`ids\` (others’ ids are left out; 404 when none is the caller’s). ${zipLimits}Costs no credits.`,
        body: imagesWithAltRequestSchema,
        produces: ['application/zip'],
      },
    },
    async (request, reply) => {
      const signal = abortOnClose(reply);
      const stream = await metadata.libraryZip(request.user.id, request.body.ids, signal);
      reply.header('content-type', 'application/zip');
      reply.header('content-disposition', 'attachment; filename="images-with-alt-text.zip"');
      reply.header('cache-control', 'no-store');
      return reply.send(stream);
    },
  );

  typed.get(
    '/audits/:id/images-with-alt.zip',
    {
      schema: {
        tags: ['audits'],
        summary: 'A zip of an audit’s images, each with its approved alt text written into its metadata',
        description:
          'Each image address of the audit once: its accepted or edited suggestion, else the alt the page already had when the audit passed it. Images without one are named in the manifest. ' +
          `${zipLimits}404 when the audit is not the caller’s. Costs no credits.`,
        params: auditParamsSchema,
        produces: ['application/zip'],
      },
    },
    async (request, reply) => {
      const signal = abortOnClose(reply);
      const { stream } = await metadata.auditZip(request.user.id, request.params.id, signal);
      reply.header('content-type', 'application/zip');
      reply.header(
        'content-disposition',
        `attachment; filename="audit-${request.params.id.slice(0, 8)}-images-with-alt-text.zip"`,
      );
      reply.header('cache-control', 'no-store');
      return reply.send(stream);
    },
  );
}
