import { z } from 'zod';
import { LIBRARY_PAGE_SIZES, MAX_SCRAPE_IMAGES } from './limits.ts';
import { scrapedImageContextSchema } from './scrape.ts';

/**
 * Bulk alt-text generation: a batch of images, charged one credit each up front and
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
/**
 * Longest long description (ADR 050): a chart's or diagram's labels and values in reading order,
 * published beside the image and linked with `aria-describedby`.
 */
export const MAX_LONG_DESCRIPTION_CHARS = 1000;
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

/** Most SEO keywords one request or CSV row takes, and the longest one. */
export const MAX_KEYWORDS = 20;
export const MAX_KEYWORD_CHARS = 60;
/** CSV import: most data rows and largest file one POST /images/import-csv takes. */
export const MAX_IMPORT_ROWS = 100_000;
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** Most rejected rows listed in the import's answer (`rejectedTotal` counts them all). */
export const MAX_LISTED_REJECTIONS = 1_000;

/** The message of the 422 a non-English language gets from the offline engine. */
export const offlineLanguageMessage =
  'The offline engine writes English only; configure a vision model for other languages.';

/** A BCP 47 tag, or null when it is not one; answered in its canonical form (`pt-br` → `pt-BR`). */
export function canonicalLanguage(tag: string): string | null {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag.trim());
    return canonical ?? null;
  } catch {
    return null;
  }
}

/** Whether a BCP 47 tag names English (any region or script). */
export function isEnglish(tag: string): boolean {
  return tag.toLowerCase() === 'en' || tag.toLowerCase().startsWith('en-');
}

/** `language`: a BCP 47 tag such as `en`, `de` or `pt-BR`. */
export const languageSchema = z
  .string()
  .trim()
  .max(35, 'language must be a BCP 47 tag such as en, de or pt-BR')
  .transform((tag, ctx) => {
    const canonical = canonicalLanguage(tag);
    if (!canonical) {
      ctx.addIssue({ code: 'custom', message: 'language must be a BCP 47 tag such as en, de or pt-BR' });
      return z.NEVER;
    }
    return canonical;
  });

/** Keywords as a list, or as one string separated by `;` (a form field, a CSV cell). */
export function splitKeywords(value: string): string[] {
  return value
    .split(';')
    .map((keyword) => keyword.trim())
    .filter(Boolean);
}

const keywordList = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'A keyword cannot be empty')
      .max(MAX_KEYWORD_CHARS, `Each keyword must be at most ${MAX_KEYWORD_CHARS} characters`),
    { error: 'keywords must be a list of words' },
  )
  .max(MAX_KEYWORDS, `At most ${MAX_KEYWORDS} keywords`);

/** `keywords`: SEO keywords the engine uses only where they truthfully describe the image. */
export const keywordsSchema = keywordList;
/** The same from a multipart field: one string, keywords separated by `;`. */
export const keywordsFieldSchema = z.string().transform(splitKeywords).pipe(keywordList);

/**
 * POST /images/generate-alt-text (the product spec §7: {selectedImages, userId, chatGptPrompt}). `userId`
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
  /** The language to write in; default the account's, then the engine's. */
  language: languageSchema.optional(),
  keywords: keywordsSchema.optional(),
});
export type GenerateAltTextRequest = z.input<typeof generateAltTextRequestSchema>;

/** The text fields of the POST /images/upload-and-generate multipart form (files come as `images`). */
export const uploadAndGenerateFieldsSchema = z.object({
  userId: z.string().trim().optional(),
  chatGptPrompt: promptSchema,
  language: languageSchema.optional(),
  /** Separated by `;`. */
  keywords: keywordsFieldSchema.optional(),
});

/** The text fields of POST /images/import-csv (the file comes as `file`). */
export const importCsvFieldsSchema = z.object({
  userId: z.string().trim().optional(),
  chatGptPrompt: promptSchema,
  /** Rows without a `language` cell are written in this one; default the account's. */
  language: languageSchema.optional(),
});

/** Columns of an import file; `image_url` is required, every other is optional. */
export const importColumns = [
  'image_url',
  'id',
  'page_url',
  'existing_alt',
  'caption',
  'keywords',
  'language',
] as const;
export type ImportColumn = (typeof importColumns)[number];

/** Answer of POST /images/import-csv: the accepted rows are one ordinary batch. */
export const importCsvResponseSchema = z.object({
  success: z.literal(true),
  batchId: z.string(),
  /** Rows queued (one credit each). */
  accepted: z.number().int().positive(),
  /** Rows whose image_url an earlier row already had (imported once). */
  duplicates: z.number().int().nonnegative(),
  /** The first 1,000 rows refused, by their line in the file (the header is line 1). */
  rejected: z.array(z.object({ line: z.number().int().positive(), reason: z.string() })),
  rejectedTotal: z.number().int().nonnegative(),
  creditsReserved: z.number().int().positive(),
  remainingCredits: z.number().int().nonnegative(),
});
export type ImportCsvResponse = z.infer<typeof importCsvResponseSchema>;

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

/**
 * A long description as stored and answered (ADR 050): null when the image has none (everything but
 * charts, diagrams and other complex images).
 */
export const longDescriptionSchema = z.string().max(MAX_LONG_DESCRIPTION_CHARS).nullable();

/**
 * A long description a person writes: trimmed, at most 1,000 characters; empty text or null removes
 * it. Left out of a request, the stored one stays.
 */
export const longDescriptionInputSchema = z
  .string({ error: 'The long description must be text' })
  .trim()
  .max(
    MAX_LONG_DESCRIPTION_CHARS,
    `The long description must be at most ${MAX_LONG_DESCRIPTION_CHARS.toLocaleString('en-US')} characters`,
  )
  .nullable()
  .transform((text) => (text ? text : null));

/**
 * PATCH /images/altText/{id}: a person's own wording; `longDescription` as well when given (null or
 * empty removes it, left out it stays).
 */
export const editAltTextRequestSchema = z.strictObject({
  alt_text: z
    .string({ error: 'Alt text is required' })
    .trim()
    .min(1, 'Alt text cannot be empty')
    .max(
      MAX_ALT_TEXT_CHARS,
      `Alt text must be at most ${MAX_ALT_TEXT_CHARS.toLocaleString('en-US')} characters`,
    ),
  longDescription: longDescriptionInputSchema.optional(),
});
export type EditAltTextRequest = z.infer<typeof editAltTextRequestSchema>;

/** POST /images/altText/{id}/regenerate (1 credit, refunded if it fails). */
export const regenerateAltTextRequestSchema = z.object({
  chatGptPrompt: promptSchema,
  language: languageSchema.optional(),
  keywords: keywordsSchema.optional(),
});

export const regenerateAltTextResponseSchema = z.object({
  success: z.literal(true),
  image: z.object({ id: z.string(), src: z.string(), alt_text: z.string() }),
  remainingCredits: z.number().int().nonnegative(),
});
export type RegenerateAltTextResponse = z.infer<typeof regenerateAltTextResponseSchema>;

/** The message both generation calls answer with. */
export const batchStartedMessage = (n: number) =>
  `Generating alt text for ${n} ${n === 1 ? 'image' : 'images'}. Results are added to your library as they finish.`;
