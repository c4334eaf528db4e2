import { z } from 'zod';
import { libraryPagingQuerySchema, longDescriptionSchema } from './generation.ts';
import { altOriginSchema } from './provenance.ts';

/** Most ids DELETE /images/altText takes in one call (the largest library page size). */
export const MAX_LIBRARY_DELETE_IDS = 500;

/**
 * One piece of evidence the engine used for an alt text: where it came from (`caption`,
 * `existingAlt`, `embedded` (alt text or a description embedded in the file, ADR 055), `pageTitle`,
 * `heading`, `surroundingText`, `link`, `role`, `ocr`, `detection`, `face`,
 * `pixels`, `model`), what was taken from it, and the model's own score (0..1) where there is one.
 */
export const altTextReasonSchema = z.object({
  source: z.string(),
  detail: z.string(),
  score: z.number().min(0).max(1).optional(),
});
export type AltTextReasonRecord = z.infer<typeof altTextReasonSchema>;

/**
 * An image record of the library (the product spec §3): its id, source URL and alt text; beside them
 * how sure the engine was (0..1; null for rows written before confidence existed), whether a person
 * should look at it (below the review threshold and not yet approved or edited), and the evidence used;
 * for a chart, diagram or other complex image its long description (ADR 050), else null.
 */
export const libraryImageSchema = z.object({
  id: z.string(),
  src: z.string(),
  alt_text: z.string(),
  /**
   * Where the alt text came from (ADR 057): `human`, `embedded` (the file's own metadata), `ai`,
   * `ai-reviewed` (approved unchanged) or `ai-edited` (saved after an edit).
   */
  origin: altOriginSchema,
  confidence: z.number().min(0).max(1).nullable(),
  needsReview: z.boolean(),
  reasons: z.array(altTextReasonSchema),
  /**
   * The engine found nothing it can stand behind: `alt_text` is empty and a person's words are
   * needed; `needsWordsReason` says why (null otherwise). `publishable`: whether the alt text may go
   * live by the publishable rule (ADR 067); exports and downloads leave out the others (ADR 068).
   */
  needsWords: z.boolean(),
  needsWordsReason: z.string().nullable(),
  publishable: z.boolean(),
  longDescription: longDescriptionSchema,
  /**
   * A small stored preview (at most 320 px on the long side, WebP) served by this app at `/files/…`,
   * so the picture can be seen even when its source is on another site or gone; null
   * when none could be made (rows written before previews existed, an image the preview step could
   * not read).
   */
  thumbnailUrl: z.string().nullable(),
  /**
   * The name people know the image by: an upload's original file name, or the last path segment of
   * the address of an image added by its address (scraped, imported), decoded. Without any path,
   * control or bidi-override character and at most 120 characters; null when there is none (an
   * address without a path, a `data:` image).
   */
  fileName: z.string().nullable(),
});
export type LibraryImageRecord = z.infer<typeof libraryImageSchema>;

/**
 * GET /images/altText?userId=&page=&pageSize=&needsReview=: the browser sends its user id (the product spec §7);
 * the server lists the signed-in user's images whatever it says, and refuses a userId that names
 * someone else. `needsReview=true` lists only the images a person should look at, `false` only the others;
 * `x-total-count` then counts those.
 */
export const listLibraryImagesQuerySchema = libraryPagingQuerySchema.extend({
  needsReview: z
    .enum(['true', 'false'], { error: 'needsReview must be true or false' })
    .transform((value) => value === 'true')
    .optional(),
});
export type ListLibraryImagesQuery = z.infer<typeof listLibraryImagesQuerySchema>;

/** The caller's images, newest first. */
export const listLibraryImagesResponseSchema = z.array(libraryImageSchema);
export type ListLibraryImagesResponse = z.infer<typeof listLibraryImagesResponseSchema>;

/** DELETE /images/altText: the ids of the caller's images to delete. */
export const deleteLibraryImagesRequestSchema = z.strictObject({
  ids: z
    .array(z.guid({ error: 'Each id must be an image id (a UUID)' }), {
      error: 'ids must be a list of image ids',
    })
    .min(1, 'Select at least one image to delete')
    .max(MAX_LIBRARY_DELETE_IDS, `At most ${MAX_LIBRARY_DELETE_IDS} images can be deleted at once`),
});
export type DeleteLibraryImagesRequest = z.infer<typeof deleteLibraryImagesRequestSchema>;

/** How many of the given ids were the caller's and are now gone. */
export const deleteLibraryImagesResponseSchema = z.object({
  success: z.literal(true),
  deleted: z.number().int().nonnegative(),
});
export type DeleteLibraryImagesResponse = z.infer<typeof deleteLibraryImagesResponseSchema>;
