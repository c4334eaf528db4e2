import { Readable } from 'node:stream';
import {
  batchParamsSchema,
  batchProgressSchema,
  generateAltTextRequestSchema,
  importColumns,
  importCsvFieldsSchema,
  importCsvResponseSchema,
  libraryImageParamsSchema,
  listBatchesResponseSchema,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  MAX_UPLOAD_FILES,
  regenerateAltTextRequestSchema,
  regenerateAltTextResponseSchema,
  startBatchResponseSchema,
  uploadAndGenerateFieldsSchema,
} from '@altwise/contracts/generation';
import { importCsvForm, uploadAndGenerateForm } from '@altwise/contracts/multipart-forms';
import { refuseUnstorableText } from '@altwise/contracts/text';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { validationFailed } from '../../errors.ts';
import { streamProgress } from '../../lib/event-stream.ts';
import { ownershipGate } from '../../plugins/ownership.ts';
import { readImport } from './read-import.ts';
import { discardUploads, readUploads } from './read-uploads.ts';
import type { GenerationService } from './service.ts';

/** How often the event stream looks at the database (works whichever process runs the batch). */
const STREAM_POLL_MS = 500;

/** Bulk generation, batch progress and regenerate, under /api/v1. */
export async function generationRoutes(
  app: FastifyInstance,
  options: { generation: GenerationService; streamPollMs?: number },
) {
  const { generation } = options;
  const pollMs = options.streamPollMs ?? STREAM_POLL_MS;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // A userId in a body or form of this group must be the caller's (403 otherwise).
  await app.register(ownershipGate);
  // Multipart only here (each form's limits come from its declaration); the rest of the API takes JSON.
  await app.register(multipart);
  let closing = false;
  app.addHook('onClose', async () => {
    closing = true;
  });

  typed.post(
    '/images/generate-alt-text',
    {
      schema: {
        tags: ['images'],
        summary: 'Generate alt text for scraped images in the background (1 credit each)',
        description:
          'Images whose URLs differ only in their `#fragment` are one image (one row, one credit; stored without the fragment). ' +
          'Reserves one credit per image up front (402 `Insufficient credits` when the balance is short; nothing is stored then), ' +
          'stores the batch and answers 202 at once. Each image is downloaded through the SSRF-safe fetcher (at most 10 MB, checked by its bytes: JPEG, PNG, WebP, GIF, AVIF or SVG), ' +
          'described with the optional prompt and the page context, and added to the library; the credit of every image that fails is refunded. ' +
          '`userId`, if given, must be the caller’s (403 otherwise). Follow the batch with GET /images/batches/{id} or its event stream.',
        body: generateAltTextRequestSchema,
        response: { 202: startBatchResponseSchema },
      },
    },
    async (request, reply) => {
      const started = await generation.startScrapeBatch(request.user.id, request.body);
      return reply.code(202).send(started);
    },
  );

  typed.post(
    '/images/upload-and-generate',
    {
      schema: {
        tags: ['images'],
        summary: 'Upload images and generate their alt text in the background (1 credit each)',
        description:
          `multipart/form-data: \`images\` (1 to ${MAX_UPLOAD_FILES} files, each at most 5 MB and a JPEG, PNG, WebP, GIF, AVIF or SVG by its bytes), optional \`userId\` (must be the caller’s) and \`chatGptPrompt\`. ` +
          '402 `Insufficient credits` as soon as the files outnumber the caller’s credits, 413 beyond the file count or naming the file over 5 MB, 415 naming the file that is not an image by its bytes, 400 when no file is sent; reading stops there and nothing is stored or charged. ' +
          'Otherwise the files are stored (served at /files/…, the library row’s `src`), one credit per image is reserved and the answer is 202 with the batch.',
        consumes: ['multipart/form-data'],
        multipartBody: uploadAndGenerateForm.schema,
        response: { 202: startBatchResponseSchema },
      },
    },
    async (request, reply) => {
      // Files beyond what the caller can pay for are refused before they are read.
      const { imageCredits } = await app.deps.credits.remaining(request.user.id);
      const { fields, uploads } = await readUploads(request, app.deps.files, request.user.id, {
        availableCredits: imageCredits,
      });
      try {
        const parsed = refuseUnstorableText(uploadAndGenerateFieldsSchema).safeParse(fields);
        if (!parsed.success)
          throw validationFailed(
            parsed.error.issues[0]?.message ?? 'Invalid form fields',
            parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
          );
        const started = await generation.startUploadBatch(request.user.id, parsed.data, uploads);
        return reply.code(202).send(started);
      } catch (error) {
        await discardUploads(app.deps.files, uploads);
        throw error;
      }
    },
  );

  typed.get(
    '/images/batches',
    {
      schema: {
        tags: ['images'],
        summary: 'The caller’s unfinished generation batches and those finished in the last minute',
        response: { 200: listBatchesResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return generation.listBatches(request.user.id);
    },
  );

  typed.get(
    '/images/batches/:id',
    {
      schema: {
        tags: ['images'],
        summary: 'Progress of one of the caller’s generation batches',
        description: '404 when the batch is not the caller’s.',
        params: batchParamsSchema,
        response: { 200: batchProgressSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return generation.getProgress(request.user.id, request.params.id);
    },
  );

  typed.get(
    '/images/batches/:id/events',
    {
      schema: {
        tags: ['images'],
        summary: 'Server-sent events with a batch’s progress until it ends',
        description:
          '`text/event-stream`: an event `progress` (data: the same JSON as GET /images/batches/{id}) at once and whenever it changes; ' +
          'the stream closes after the event with status `completed` or `failed`. Authenticated by the Bearer header (read it with fetch streaming). 404 when the batch is not the caller’s.',
        params: batchParamsSchema,
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      const userId = request.user.id;
      const batchId = request.params.id;
      // Answered in the usual shape (404...) before the stream starts.
      const first = await generation.getProgress(userId, batchId);
      await streamProgress(request, reply, {
        first,
        read: () => generation.getProgress(userId, batchId),
        done: (progress) => progress.status === 'completed' || progress.status === 'failed',
        pollMs,
        closing: () => closing,
      });
    },
  );

  typed.post(
    '/images/altText/:id/regenerate',
    {
      schema: {
        tags: ['images'],
        summary: 'Write a new alt text for one of the caller’s images (1 credit)',
        description:
          'Reserves 1 credit (402 `Insufficient credits`), describes the image again with its stored page context and the optional prompt, and saves the new alt text. ' +
          'If no alt text lands the credit is refunded and the answer says why: 404 for an image not in the caller’s library, 422 when the image can no longer be read or is not an image, 502 when the engine fails.',
        params: libraryImageParamsSchema,
        body: regenerateAltTextRequestSchema.optional(),
        response: { 200: regenerateAltTextResponseSchema },
      },
    },
    async (request) =>
      generation.regenerate(request.user.id, request.params.id, request.body?.chatGptPrompt, {
        language: request.body?.language,
        keywords: request.body?.keywords,
      }),
  );

  typed.post(
    '/images/import-csv',
    {
      schema: {
        tags: ['images'],
        summary:
          'Import a CSV or .xlsx file of image URLs as one generation batch (1 credit per accepted row)',
        description:
          `multipart/form-data: \`file\` (CSV, or .xlsx by its bytes; at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB and ${MAX_IMPORT_ROWS.toLocaleString('en-US')} data rows), optional \`chatGptPrompt\`, \`language\` (BCP 47, for rows without their own) and \`userId\` (must be the caller’s). ` +
          `The first row names the columns: \`image_url\` (required) and optionally ${importColumns
            .filter((column) => column !== 'image_url')
            .map((column) => `\`${column}\``)
            .join(', ')} (keywords separated by \`;\`). The file is read as it streams in. ` +
          'A row with a bad URL or scheme, keyword or language is rejected with its line (the header is line 1); a repeated image_url is imported once. ' +
          '400 naming an unknown or missing column; 413 beyond the size or row limit (nothing is imported); 415 for a file that is neither text nor an .xlsx workbook by its bytes; 402 with `creditsNeeded` when the balance cannot pay for the accepted rows (nothing is stored); ' +
          '422 `LANGUAGE_NOT_SUPPORTED` for a non-English `language` with the offline engine. Otherwise 202: the accepted rows are one ordinary batch (follow it with GET /images/batches/{id}; results as CSV at GET /images/batches/{id}/results.csv).',
        consumes: ['multipart/form-data'],
        multipartBody: importCsvForm.schema,
        response: { 202: importCsvResponseSchema },
      },
    },
    async (request, reply) => {
      const reading = await readImport(request, { englishOnly: app.deps.engine.name === 'offline' });
      try {
        const parsed = refuseUnstorableText(importCsvFieldsSchema).safeParse(reading.fields);
        if (!parsed.success)
          throw validationFailed(
            parsed.error.issues[0]?.message ?? 'Invalid form fields',
            parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
          );
        const started = await generation.startImportBatch(request.user.id, parsed.data, reading);
        return reply.code(202).send(started);
      } finally {
        // The accepted rows wait in a temporary file until the batch is stored (or refused).
        await reading.accepted.remove();
      }
    },
  );

  typed.get(
    '/images/batches/:id/results.csv',
    {
      schema: {
        tags: ['images'],
        summary: 'A batch’s results as CSV: id, image_url, alt_text, status, long_description, origin',
        description:
          '`text/csv`, one row per image in the order of the batch (an import’s file order), with the caller’s own `id` column of a CSV import. ' +
          '`status` is pending, processing, done or failed; `alt_text` is empty until done; `long_description` is a chart’s labels and values in reading order, empty for other images; `origin` says where the alt text came from (human, embedded, ai, ai-reviewed, ai-edited; empty until done). 404 when the batch is not the caller’s.',
        params: batchParamsSchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { batchId, rows } = await generation.exportResults(request.user.id, request.params.id);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="batch-${batchId}-results.csv"`);
      reply.header('cache-control', 'no-store');
      return reply.send(Readable.from(rows));
    },
  );
}
