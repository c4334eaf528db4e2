import { MAX_REEL_IMAGES } from '@altwise/contracts/limits';
import { createReelForm } from '@altwise/contracts/multipart-forms';
import { REEL_FILE_NAME } from '@altwise/contracts/studio';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest } from '../../errors.ts';
import { ownershipGate } from '../../plugins/ownership.ts';
import { readReelForm } from './reel-form.ts';
import type { ReelsService } from './service.ts';

/** POST /images/createReels (the product spec §7), under /api/v1, with multipart parsing in this scope only. */
export async function reelsRoutes(app: FastifyInstance, options: { reels: ReelsService }) {
  const { reels } = options;
  // A userId field of the form must be the caller's (403 otherwise), checked as the form is read.
  await app.register(ownershipGate);
  // Multipart only in this scope (the form's limits come from its declaration in the contract).
  await app.register(multipart);

  app.post(
    '/images/createReels',
    {
      schema: {
        tags: ['images'],
        summary: 'Make a 1080×1920 MP4 reel from 1–5 images and a music file',
        description:
          'multipart/form-data: `audioFile` (MP3, WAV, M4A, OGG, FLAC or AAC, ≤ 10 MB), `images` repeated 1–5 times, each a ' +
          'file (JPEG, PNG, WebP, GIF or AVIF, ≤ 10 MB) or the URL of one of the caller’s stored files ' +
          '(`/files/<key>`, e.g. a generated or captioned image), `skipCaptioning` (default true; the server does not caption, ' +
          'see ADR 017) and `userId` (must be the caller’s). Answers the MP4 itself as an attachment `reel.mp4`: H.264 yuv420p + AAC, 30 fps, ' +
          'each image an equal share of max(2 s × images, min(music, 30 s)), fades between images, the music looped or cut and faded out. ' +
          `413 names the bad file ('Maximum ${MAX_REEL_IMAGES} images allowed', '{name} is larger than 10MB', ` +
          `'Music file should be less than 10MB'); 415 for a file that is not music or an image by its bytes, 400 for one that cannot be decoded; ` +
          '403/404 for a URL of someone else’s or no file; 503 with Retry-After when busy.',
        consumes: ['multipart/form-data'],
        multipartBody: createReelForm.schema,
      },
    },
    async (request, reply) => {
      // The client going away stops the render (the response closing before it was written).
      const aborted = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) aborted.abort(new Error('The client closed the request'));
      };
      reply.raw.once('close', onClose);
      try {
        const reel = await reels.createReel(
          request.user.id,
          (workDir) => readReelForm(request, workDir),
          aborted.signal,
        );
        return reply
          .header('content-type', 'video/mp4')
          .header('content-disposition', `attachment; filename="${REEL_FILE_NAME}"`)
          .header('cache-control', 'no-store')
          .header('x-reel-duration-seconds', reel.plan.totalSeconds.toFixed(3))
          .header(
            'server-timing',
            `prepare;dur=${reel.timings.prepareMs.toFixed(0)}, wait;dur=${reel.timings.waitMs.toFixed(0)}, render;dur=${reel.timings.renderMs.toFixed(0)}`,
          )
          .send(reel.video);
      } catch (error) {
        // Nobody is listening any more: no error to log, and whatever is sent goes nowhere.
        if (aborted.signal.aborted) throw badRequest('The request was closed before the reel was ready.');
        if (error instanceof AppError && error.statusCode === 503)
          reply.header('retry-after', String(reels.retryAfterSeconds));
        throw error;
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );
}
