import { z } from 'zod';

/** Most ids DELETE /images/altText takes in one call (the largest library page size). */
export const MAX_LIBRARY_DELETE_IDS = 500;

/** An image record of the library (SPEC.md §3): its id, source URL and alt text. */
export const libraryImageSchema = z.object({
  id: z.string(),
  src: z.string(),
  alt_text: z.string(),
});
export type LibraryImageRecord = z.infer<typeof libraryImageSchema>;

/**
 * GET /images/altText?userId=: the browser sends its user id (SPEC.md §7); the server lists the
 * signed-in user's images whatever it says, and refuses a userId that names someone else.
 */
export const listLibraryImagesQuerySchema = z.object({
  userId: z.string().trim().optional(),
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
