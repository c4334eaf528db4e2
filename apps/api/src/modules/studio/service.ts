import { CAPTION_CREDIT_COST, QUALITY_CREDIT_COST, type Quality } from '@altwise/contracts/limits';
import type {
  EditImageResponse,
  GenerateImagesResponse,
  StyledCaptionResponse,
} from '@altwise/contracts/studio';
import type { FastifyBaseLogger } from 'fastify';
import sharp, { type Metadata } from 'sharp';
import type { Database } from '../../db/client.ts';
import { EngineProviderError } from '../../engines/errors.ts';
import { EDITOR_MAX_INPUT_PIXELS } from '../../engines/images/apply-edits.ts';
import { renderCaptionedImage } from '../../engines/images/render-caption.ts';
import type { ImageEngine } from '../../engines/images/types.ts';
import type { AltTextEngine } from '../../engines/types.ts';
import { badRequest, payloadTooLarge, toAppError, WorkFailedError } from '../../errors.ts';
import { refundReservationInFull, reserveCredits, settleReservation } from '../credits/service.ts';
import type { FilesService } from '../files/service.ts';
import type { UploadedImage } from './image-form.ts';

export type StudioService = ReturnType<typeof createStudioService>;

/** Longest caption kept from the writer; the band shows about six lines. */
export const MAX_CAPTION_CHARS = 300;

/** The reservation's purpose names the work it paid for; the reservation is the job's record (ADR 024). */
export const studioPurposes = {
  edit: 'studio:edit-image',
  generate: 'studio:generate-images',
  caption: 'studio:styled-caption',
} as const;

/**
 * A job still open after this long belongs to a process that died (the longest studio request, an
 * image model's 120 s timeout with retries, ends well before): its reservation's lease, after which
 * the credits.recover-abandoned job refunds it.
 */
export const ABANDONED_STUDIO_JOB_MINUTES = 30;

/** The prompt the text engine gets for a social caption; the offline writer reads the quoted parts. */
export function captionPrompt(description: string, tone: string | undefined): string {
  const quote = (text: string) => text.replace(/["“”]/g, "'").replace(/\s+/g, ' ').trim();
  return [
    'Write one short social media caption (at most 150 characters) for a photo, then up to three hashtags on a new line.',
    `The photo shows: "${quote(description)}"`,
    ...(tone?.trim() ? [`Tone or instructions: "${quote(tone)}"`] : []),
    'Only say what the photo shows; do not invent names, places, events or numbers. Answer with the caption only.',
  ].join('\n');
}

/** The writer's answer as a caption: no wrapping quotes or labels, at most MAX_CAPTION_CHARS. */
export function cleanCaption(text: string): string {
  let caption = text
    .trim()
    .replace(/^caption\s*:\s*/i, '')
    .replace(/^["“](.*)["”]$/s, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (caption.length > MAX_CAPTION_CHARS) {
    const cut = caption.slice(0, MAX_CAPTION_CHARS);
    caption = `${cut.slice(0, Math.max(cut.lastIndexOf(' '), MAX_CAPTION_CHARS - 40)).trimEnd()}…`;
  }
  return caption;
}

/**
 * The media studio: image edits, generated images and styled captions, each paid in
 * credits in one transaction with its reservation (the job's record) and refunded by the server
 * itself when the work fails. Nothing is charged for a prompt or file refused before the work.
 */
export function createStudioService(deps: {
  db: Database;
  files: FilesService;
  engine: AltTextEngine;
  imageEngine: ImageEngine;
  logger: FastifyBaseLogger;
}) {
  const { db, files, engine, imageEngine, logger } = deps;

  type Job = { reservationId: string; credits: number };

  /** Reserves the credits with the job's record (402 and nothing written when short). */
  async function start(
    userId: string,
    credits: number,
    work: keyof typeof studioPurposes,
  ): Promise<Job & { balance: number }> {
    const { reservationId, balance } = await db.transaction((tx) =>
      reserveCredits(tx, userId, credits, studioPurposes[work], {
        leaseSeconds: ABANDONED_STUDIO_JOB_MINUTES * 60,
      }),
    );
    return { reservationId, credits, balance };
  }

  async function succeed(job: Job) {
    await settleReservation(db, job.reservationId);
  }

  /**
   * Ends the job as failed and gives its credits back, once (the recovery job and a late failure
   * never both refund). A failed refund is logged (the reservation stays open and the recovery job
   * refunds it when its lease ends) but never hides the cause.
   */
  async function fail(job: Job, reason: string) {
    try {
      await db.transaction((tx) => refundReservationInFull(tx, job.reservationId, reason));
    } catch (error) {
      logger.error(
        { err: error, reservation: job.reservationId },
        'studio: refund failed; the recovery job will retry',
      );
    }
  }

  /** Refuses an unreadable or oversized picture before anything is charged. */
  async function assertReadable(image: UploadedImage) {
    let metadata: Metadata;
    try {
      metadata = await sharp(image.bytes, { limitInputPixels: false }).metadata();
    } catch {
      throw badRequest(`${image.fileName || 'The image'} could not be read; it may be damaged.`);
    }
    if (!metadata.width || !metadata.height) throw badRequest('The image has no size; it may be damaged.');
    if (metadata.width * metadata.height > EDITOR_MAX_INPUT_PIXELS) {
      throw payloadTooLarge(
        `The image is ${metadata.width}×${metadata.height} pixels; the studio takes up to ${EDITOR_MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
      );
    }
  }

  return {
    async editImage(
      userId: string,
      input: { image: UploadedImage; prompt: string; quality: Quality },
    ): Promise<EditImageResponse> {
      // Parse before charging: a prompt the engine cannot carry out costs nothing (422).
      imageEngine.planEdit(input.prompt);
      await assertReadable(input.image);
      const cost = QUALITY_CREDIT_COST[input.quality];
      const job = await start(userId, cost, 'edit');
      try {
        const edited = await imageEngine.editImage(input.image.bytes, input.prompt, input.quality);
        const saved = await files.saveFile({
          body: edited.png,
          contentType: 'image/png',
          folder: 'edited',
          ownerId: userId,
        });
        await succeed(job);
        return {
          success: true,
          editedImage: { url: saved.url },
          creditsCharged: cost,
          remainingCredits: job.balance,
          operations: edited.operations,
          engine: imageEngine.name,
          model: imageEngine.model,
        };
      } catch (error) {
        const reported = new WorkFailedError(error, { work: 'The image edit', refundedCredits: job.credits });
        await fail(job, toAppError(reported)?.message ?? reported.message);
        logger.warn({ err: error, engine: imageEngine.name }, 'studio: image edit failed; refunded');
        throw reported;
      }
    },

    async generateImages(
      userId: string,
      input: { prompt: string; numberOfImages: number; quality: Quality },
    ): Promise<GenerateImagesResponse> {
      const cost = QUALITY_CREDIT_COST[input.quality] * input.numberOfImages;
      // 402 'Insufficient credits' before any work when the balance is short.
      const job = await start(userId, cost, 'generate');
      const saved: string[] = [];
      try {
        const generated = await imageEngine.generateImages(input.prompt, input.numberOfImages, input.quality);
        const images: Array<{ url: string }> = [];
        for (const png of generated.images) {
          const file = await files.saveFile({
            body: png,
            contentType: 'image/png',
            folder: 'generated',
            ownerId: userId,
          });
          saved.push(file.key);
          images.push({ url: file.url });
        }
        await succeed(job);
        return {
          success: true,
          images,
          creditsCharged: cost,
          remainingCredits: job.balance,
          typographic: generated.typographic,
          ...(generated.notice ? { notice: generated.notice } : {}),
          engine: imageEngine.name,
          model: imageEngine.model,
        };
      } catch (error) {
        const reported = new WorkFailedError(error, {
          work: 'The image generation',
          refundedCredits: job.credits,
        });
        await fail(job, toAppError(reported)?.message ?? reported.message);
        for (const key of saved) await files.deleteFile(key).catch(() => {});
        logger.warn({ err: error, engine: imageEngine.name }, 'studio: image generation failed; refunded');
        throw reported;
      }
    },

    async generateStyledCaption(
      userId: string,
      input: { image: UploadedImage; prompt?: string | undefined },
    ): Promise<StyledCaptionResponse> {
      await assertReadable(input.image);
      const image = input.image;
      const job = await start(userId, CAPTION_CREDIT_COST, 'caption');
      try {
        const described = await engine.describeImage(image.bytes, { maxLength: 200 });
        const description = described.altText.trim() || 'a picture';
        const generated = await engine.generateText(captionPrompt(description, input.prompt), {
          purpose: 'caption',
          maxTokens: 120,
        });
        const caption = cleanCaption(generated.text);
        if (!caption)
          throw new EngineProviderError('The writer returned an empty caption.', { retryable: true });
        const png = await renderCaptionedImage(image.bytes, caption);
        const saved = await files.saveFile({
          body: png,
          contentType: 'image/png',
          folder: 'captioned',
          ownerId: userId,
        });
        await succeed(job);
        return {
          success: true,
          captionedImage: { url: saved.url },
          caption,
          creditsCharged: CAPTION_CREDIT_COST,
          remainingCredits: job.balance,
          engine: generated.engine,
          model: generated.model,
        };
      } catch (error) {
        const reported = new WorkFailedError(error, { work: 'The caption', refundedCredits: job.credits });
        await fail(job, toAppError(reported)?.message ?? reported.message);
        logger.warn({ err: error, engine: engine.name }, 'studio: styled caption failed; refunded');
        throw reported;
      }
    },
  };
}
