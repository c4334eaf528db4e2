import { z } from 'zod';
import {
  importColumns,
  importCsvFieldsSchema,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  MAX_UPLOAD_FILES,
  uploadAndGenerateFieldsSchema,
} from './generation.ts';
import {
  MAX_EDITOR_IMAGE_BYTES,
  MAX_MUSIC_BYTES,
  MAX_REEL_IMAGE_BYTES,
  MAX_REEL_IMAGES,
  MAX_UPLOAD_BYTES,
} from './limits.ts';
import { createReelFieldsSchema, editImageFieldsSchema, styledCaptionFieldsSchema } from './studio.ts';

/**
 * The multipart forms of /api/v1 as the OpenAPI document shows them (issue 14): each is the very
 * schema its route parses the text fields with, plus the file parts. A route names its form as
 * `schema.multipartBody` and apps/api/src/plugins/docs.ts turns it into the `multipart/form-data`
 * requestBody; Fastify never validates a body with it (the route reads the form as it streams, its
 * reader checks the files and the contract the text fields). Only the API imports this module.
 */

/**
 * Meta key of a file part naming the media types to send it as; the docs plugin moves it into the
 * requestBody's `encoding` (OpenAPI's place for a multipart part's content type).
 */
export const MULTIPART_CONTENT_TYPE = 'x-multipart-content-type';

const MB = 1024 * 1024;
const uploadImageTypes = 'image/jpeg, image/png, image/webp, image/gif, image/avif, image/svg+xml';
const editorImageTypes = 'image/jpeg, image/png, image/webp, image/gif, image/avif, image/tiff';
const reelImageTypes = 'image/jpeg, image/png, image/webp, image/gif, image/avif';
const audioTypes = 'audio/mpeg, audio/wav, audio/mp4, audio/ogg, audio/flac, audio/aac';
const importTypes = 'text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A file part: its bytes (`type: string, format: binary`). */
const binary = (description: string) => z.string().meta({ format: 'binary', description });

/** One file part, sent as one of `contentType`. */
const filePart = (description: string, contentType: string) =>
  binary(description).meta({ [MULTIPART_CONTENT_TYPE]: contentType });

const userIdField = 'Optional; must be the caller’s id (403 otherwise).';

/** POST /images/upload-and-generate. */
export const uploadAndGenerateFormSchema = z.object({
  images: z
    .array(
      binary(
        `An image, at most ${MAX_UPLOAD_BYTES / MB} MB, a JPEG, PNG, WebP, GIF, AVIF or SVG by its bytes.`,
      ),
    )
    .min(1)
    .max(MAX_UPLOAD_FILES)
    .meta({
      description: `The images, one part each (1 to ${MAX_UPLOAD_FILES}, one credit each).`,
      [MULTIPART_CONTENT_TYPE]: uploadImageTypes,
    }),
  chatGptPrompt: uploadAndGenerateFieldsSchema.shape.chatGptPrompt.describe(
    'Optional instructions for the writer of the alt text.',
  ),
  language: uploadAndGenerateFieldsSchema.shape.language.describe(
    'Optional BCP 47 tag to write in (en, de, pt-BR); default the account’s.',
  ),
  keywords: uploadAndGenerateFieldsSchema.shape.keywords.describe(
    'Optional SEO keywords separated by `;`, used only where they truthfully describe the image.',
  ),
  userId: uploadAndGenerateFieldsSchema.shape.userId.describe(userIdField),
});

/** POST /images/import-csv. */
export const importCsvFormSchema = z.object({
  file: filePart(
    `A CSV file, or an .xlsx one (by its name or type), at most ${MAX_IMPORT_BYTES / MB} MB and ${MAX_IMPORT_ROWS.toLocaleString('en-US')} data rows. ` +
      `The first row names the columns: ${importColumns.join(', ')}; only image_url is required.`,
    importTypes,
  ),
  chatGptPrompt: importCsvFieldsSchema.shape.chatGptPrompt.describe(
    'Optional instructions for the writer of the alt text.',
  ),
  language: importCsvFieldsSchema.shape.language.describe(
    'Optional BCP 47 tag for the rows without a language cell; default the account’s.',
  ),
  userId: importCsvFieldsSchema.shape.userId.describe(userIdField),
});

/** POST /images/edit-image. */
export const editImageFormSchema = z.object({
  image: filePart(
    `The picture to edit, at most ${MAX_EDITOR_IMAGE_BYTES / MB} MB, a JPEG, PNG, WebP, GIF, AVIF or TIFF by its bytes.`,
    editorImageTypes,
  ),
  prompt: editImageFieldsSchema.shape.prompt.describe('What to change, in plain English.'),
  quality: editImageFieldsSchema.shape.quality.describe('low, medium or high: the credits it costs.'),
  userId: editImageFieldsSchema.shape.userId.describe(userIdField),
});

/** POST /images/generate-styled-caption. */
export const styledCaptionFormSchema = z.object({
  image: filePart(
    `The picture to caption, at most ${MAX_EDITOR_IMAGE_BYTES / MB} MB, a JPEG, PNG, WebP, GIF, AVIF or TIFF by its bytes.`,
    editorImageTypes,
  ),
  prompt: styledCaptionFieldsSchema.shape.prompt.describe('Optional tone of the caption, e.g. "playful".'),
  userId: styledCaptionFieldsSchema.shape.userId.describe(userIdField),
});

/** POST /images/createReels. */
export const createReelFormSchema = z.object({
  audioFile: filePart(
    `The music, at most ${MAX_MUSIC_BYTES / MB} MB: MP3, WAV, M4A, OGG, FLAC or AAC.`,
    audioTypes,
  ),
  images: z
    .array(
      z.union([
        binary(`An image file, at most ${MAX_REEL_IMAGE_BYTES / MB} MB: JPEG, PNG, WebP, GIF or AVIF.`),
        z
          .string()
          .describe(
            'The URL of one of the caller’s stored files: `/files/<key>`, alone or after PUBLIC_URL.',
          ),
      ]),
    )
    .min(1)
    .max(MAX_REEL_IMAGES)
    .meta({
      description: `The slides in order, 1 to ${MAX_REEL_IMAGES} parts, each a file or a URL.`,
      [MULTIPART_CONTENT_TYPE]: reelImageTypes,
    }),
  skipCaptioning: createReelFieldsSchema.shape.skipCaptioning.describe(
    'true (the default): the server does not caption the slides (ADR 017).',
  ),
  userId: createReelFieldsSchema.shape.userId.describe(userIdField),
});
