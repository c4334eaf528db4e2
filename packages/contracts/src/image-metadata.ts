import { z } from 'zod';
import { MAX_LIBRARY_DELETE_IDS } from './library.ts';

/**
 * Image files that carry their alt text (point 2; ADR 064): downloads whose files have the
 * approved alt text written into their metadata (IPTC Alt Text (Accessibility), Extended Description
 * (Accessibility), and where it came from, ADR 057), with a manifest.csv in each zip.
 */

/** Most images one zip holds (a selection, or an audit's distinct image addresses). */
export const MAX_IMAGES_WITH_ALT = MAX_LIBRARY_DELETE_IDS;

/** POST /images/altText/with-alt.zip: the caller's library images to download. */
export const imagesWithAltRequestSchema = z.strictObject({
  ids: z
    .array(z.guid({ error: 'Each id must be an image id (a UUID)' }), {
      error: 'ids must be a list of image ids',
    })
    .min(1, 'Select at least one image to download')
    .max(MAX_IMAGES_WITH_ALT, `At most ${MAX_IMAGES_WITH_ALT} images can be downloaded at once`),
});
export type ImagesWithAltRequest = z.infer<typeof imagesWithAltRequestSchema>;

/** The columns of manifest.csv, one row per image (and one for images left out over the limit). */
export const imagesWithAltManifestColumns = [
  'file',
  'image_url',
  'alt_text',
  'long_description',
  'origin',
  'status',
  'reason',
] as const;
