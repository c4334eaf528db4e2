import { z } from 'zod';
import { LIBRARY_PAGE_SIZES, MAX_SCRAPE_IMAGES } from './limits.ts';
import { scrapedImageContextSchema } from './scrape.ts';

/**
 * Bulk alt-text generation (issue 6): a batch of images, charged one credit each up front and
 * refunded per image that fails, processed by durable background jobs; plus the library's paging,
 * edit and regenerate calls.
 */

/** Longest custom prompt (`chatGptPrompt`) a generation takes. */
export const MAX_GENERATION_PROMPT_CHARS = 1000;
/** Most files one POST /images/upload-and-generate takes. */
export const MAX_UPLOAD_FILES = 100;
/** Largest remote image a batch downloads. */
export const MAX_REMOTE_IMAGE_BYTES = 10 * 1024 * 1024;
/** Longest alt text a person may save by editing. */
export const MAX_ALT_TEXT_CHARS = 1000;
/** Header of GET /images/altText?page= carrying the number of images in the whole library. */
export const TOTAL_COUNT_HEADER = 'x-total-count';

const httpUrl = z
  .string()
  .trim()
  .min(1, 'Each selected image needs a source URL')
  .pipe(z.url({ protocol: /^https?$/, error: 'Each selected image needs an http or https URL' }));

/** One image picked on the scraped-images screen: the scraped row, or just its URL. */
export const selectedImageSchema = z.union([
  httpUrl.transform((src) => ({ src, alt: '', context: {} })),
  z.object({
    src: httpUrl,
    alt: z.string().max(2000).optional().default(''),
    context: scrapedImageContextSchema.optional().default({}),
  }),
]);
export type SelectedImage = z.output<typeof selectedImageSchema>;

const promptSchema = z
  .string()
  .trim()
  .max(
    MAX_GENERATION_PROMPT_CHARS,
    `The custom prompt must be at most ${MAX_GENERATION_PROMPT_CHARS.toLocaleString('en-US')} characters`,
  )
  .optional();

/**
 * POST /images/generate-alt-text (SPEC.md §7: {selectedImages, userId, chatGptPrompt}). `userId`
 * is the browser's; the server uses the signed-in user and refuses a different id (403).
 */
export const generateAltTextRequestSchema = z.object({
  selectedImages: z
    .array(selectedImageSchema, { error: 'selectedImages must be a list of images' })
    .min(1, 'Select at least one image')
    .max(MAX_SCRAPE_IMAGES, `At most ${MAX_SCRAPE_IMAGES} images can be generated at once`),
  userId: z.string().trim().optional(),
  chatGptPrompt: promptSchema,
  /** The scraped page, recorded with the batch and given to the engine as context. */
  pageUrl: z.string().trim().max(2048).optional(),
});
export type GenerateAltTextRequest = z.input<typeof generateAltTextRequestSchema>;

/** The text fields of the POST /images/upload-and-generate multipart form (files come as `images`). */
export const uploadAndGenerateFieldsSchema = z.object({
  userId: z.string().trim().optional(),
  chatGptPrompt: promptSchema,
});

export const batchStatuses = ['queued', 'processing', 'completed', 'failed'] as const;
/**
 * queued: waiting for a worker; processing: under way; completed: every image done, some may have
 * failed (and were refunded); failed: every image failed (all refunded).
 */
export type BatchStatus = (typeof batchStatuses)[number];

/** A batch's progress: GET /images/batches/{id} and each event of its stream. */
export const batchProgressSchema = z.object({
  id: z.string(),
  status: z.enum(batchStatuses),
  total: z.number().int().nonnegative(),
  completed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Credits taken up front (one per image); `failed` of them have been given back. */
  creditsReserved: z.number().int().nonnegative(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Images that failed, with the reason, so the user can see what was skipped. */
  failures: z.array(z.object({ src: z.string(), error: z.string() })),
});
export type BatchProgress = z.infer<typeof batchProgressSchema>;

/** GET /images/batches: the caller's unfinished batches and those finished in the last minute. */
export const listBatchesResponseSchema = z.array(batchProgressSchema);

/** Answer of both generation calls: the batch is stored and queued; its work goes on in the background. */
export const startBatchResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  batchId: z.string(),
  total: z.number().int().positive(),
  creditsReserved: z.number().int().positive(),
  remainingCredits: z.number().int().nonnegative(),
  status: z.enum(batchStatuses),
});
export type StartBatchResponse = z.infer<typeof startBatchResponseSchema>;

export const batchParamsSchema = z.object({ id: z.guid({ error: 'No such batch' }) });

/**
 * GET /images/altText paging: with `page` (from 1) the answer is that page, newest first, and the
 * `x-total-count` header gives the size of the whole library. Without `page` it is the whole library.
 */
export const libraryPagingQuerySchema = z.object({
  userId: z.string().trim().optional(),
  page: z.coerce.number().int('page must be a whole number').min(1, 'page starts at 1').optional(),
  pageSize: z.coerce
    .number()
    .int()
    .refine((size) => (LIBRARY_PAGE_SIZES as readonly number[]).includes(size), {
      error: `pageSize must be one of ${LIBRARY_PAGE_SIZES.join(', ')}`,
    })
    .optional(),
});

export const libraryImageParamsSchema = z.object({ id: z.guid({ error: 'No such image' }) });

/** PATCH /images/altText/{id}: a person's own wording. */
export const editAltTextRequestSchema = z.strictObject({
  alt_text: z
    .string({ error: 'Alt text is required' })
    .trim()
    .min(1, 'Alt text cannot be empty')
    .max(
      MAX_ALT_TEXT_CHARS,
      `Alt text must be at most ${MAX_ALT_TEXT_CHARS.toLocaleString('en-US')} characters`,
    ),
});
export type EditAltTextRequest = z.infer<typeof editAltTextRequestSchema>;

/** POST /images/altText/{id}/regenerate (1 credit, refunded if it fails). */
export const regenerateAltTextRequestSchema = z.object({ chatGptPrompt: promptSchema });

export const regenerateAltTextResponseSchema = z.object({
  success: z.literal(true),
  image: z.object({ id: z.string(), src: z.string(), alt_text: z.string() }),
  remainingCredits: z.number().int().nonnegative(),
});
export type RegenerateAltTextResponse = z.infer<typeof regenerateAltTextResponseSchema>;

/** The message both generation calls answer with. */
export const batchStartedMessage = (n: number) =>
  `Generating alt text for ${n} ${n === 1 ? 'image' : 'images'}. Results are added to your library as they finish.`;
