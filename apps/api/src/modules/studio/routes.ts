import { CAPTION_CREDIT_COST, QUALITY_CREDIT_COST } from '@altwise/contracts/limits';
import { editImageForm, styledCaptionForm } from '@altwise/contracts/multipart-forms';
import {
  EDITED_IMAGE_FILE_NAME,
  editImageFieldsSchema,
  editImageResponseSchema,
  generateImagesRequestSchema,
  generateImagesResponseSchema,
  styledCaptionFieldsSchema,
  styledCaptionResponseSchema,
} from '@altwise/contracts/studio';
import { refuseUnstorableText } from '@altwise/contracts/text';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { validationFailed } from '../../errors.ts';
import { ownershipGate } from '../../plugins/ownership.ts';
import { ACCEPTED_IMAGE_FORMATS, readImageForm } from './image-form.ts';
import type { StudioService } from './service.ts';

const costs = `high ${QUALITY_CREDIT_COST.high}, medium ${QUALITY_CREDIT_COST.medium}, low ${QUALITY_CREDIT_COST.low}`;

/** Text fields of a multipart form checked by their contract; the first message is the answer's. */
function parseFields<S extends z.ZodType>(schema: S, fields: Record<string, string>): z.infer<S> {
  // A form's text fields skip Fastify's validator, so they meet the same refinement here.
  const result = refuseUnstorableText(schema).safeParse(fields);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw validationFailed(issues[0]?.message ?? 'Invalid form', issues);
}

/** The media studio's image calls (the product spec §7), under /api/v1. Reels live in their own module. */
export async function studioRoutes(app: FastifyInstance, options: { studio: StudioService }) {
  const { studio } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // A userId in a body or form of this group must be the caller's (403 otherwise).
  await app.register(ownershipGate);
  // Multipart only in this scope (each form's limits come from its declaration in the contract).
  await app.register(multipart);

  typed.post(
    '/images/edit-image',
    {
      schema: {
        tags: ['studio'],
        summary: 'Edit an image from a plain-English prompt',
        description:
          `multipart/form-data: \`image\` (${ACCEPTED_IMAGE_FORMATS}, at most 10 MB, checked by its bytes), \`prompt\`, ` +
          `\`quality\` (low, medium or high; default high) and optional \`userId\` (must be the caller's, else 403). ` +
          `Costs ${costs} credits, charged with the job and refunded by the server if the edit fails. ` +
          'With IMAGE_ENGINE=offline (the default) the editor understands instructions such as black and white, sepia, blur, sharpen, brighter/darker, contrast, saturation, warmer/cooler, rotate, flip/mirror, crop to square or a ratio, resize, a caption "…" at the top or bottom and a border, several in one prompt; a prompt with none of them is 422 and costs nothing. ' +
          `The answer's \`editedImage.url\` is a PNG; the browser saves it as ${EDITED_IMAGE_FILE_NAME}. ` +
          '400 no image or a bad field; 402 not enough credits; 413 over 10 MB; 415 not an image; 502/503 the image model failed (refunded).',
        consumes: ['multipart/form-data'],
        multipartBody: editImageForm.schema,
        response: { 200: editImageResponseSchema },
      },
    },
    async (request) => {
      const { image, fields } = await readImageForm(request, editImageForm);
      const parsed = parseFields(editImageFieldsSchema, fields);
      return studio.editImage(request.user.id, { image, ...parsed });
    },
  );

  typed.post(
    '/images/generate',
    {
      schema: {
        tags: ['studio'],
        summary: 'Generate 1 to 5 images from a text prompt',
        description:
          `Costs the per-image cost (${costs}) times \`numberOfImages\`, checked before any work (402 'Insufficient credits') and refunded if generation fails. ` +
          'With IMAGE_ENGINE=openai the image model paints pictures; the offline engine renders 1080×1920 text slides of the prompt and says so (`typographic: true` and a `notice`). ' +
          '`userId`, when given, must be the caller’s (else 403).',
        body: generateImagesRequestSchema,
        response: { 200: generateImagesResponseSchema },
      },
    },
    async (request) => studio.generateImages(request.user.id, request.body),
  );

  typed.post(
    '/images/generate-styled-caption',
    {
      schema: {
        tags: ['studio'],
        summary: 'Write a social caption for an image and render it onto the image',
        description:
          `multipart/form-data: \`image\` (${ACCEPTED_IMAGE_FORMATS}, at most 10 MB), optional \`prompt\` (the tone, e.g. "playful") and optional \`userId\` (must be the caller's). ` +
          `Costs ${CAPTION_CREDIT_COST} credit, refunded if it fails. The alt-text engine describes the image and writes a short caption from that description; ` +
          'the caption is drawn on a semi-opaque band along the bottom. Answers the caption text and the captioned PNG’s URL.',
        consumes: ['multipart/form-data'],
        multipartBody: styledCaptionForm.schema,
        response: { 200: styledCaptionResponseSchema },
      },
    },
    async (request) => {
      const { image, fields } = await readImageForm(request, styledCaptionForm);
      const parsed = parseFields(styledCaptionFieldsSchema, fields);
      return studio.generateStyledCaption(request.user.id, { image, ...parsed });
    },
  );
}
