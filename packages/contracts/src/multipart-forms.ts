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
import { messages } from './messages.ts';
import { createReelFieldsSchema, editImageFieldsSchema, styledCaptionFieldsSchema } from './studio.ts';

/**
 * The multipart forms of /api/v1. Each form is declared once, as a
 * `MultipartForm`: its schema (the very schema its route parses the text fields with, plus the file
 * parts) and the rules of its file parts (how many, how large, which media types by their bytes).
 * The OpenAPI document shows the schema (a route names it as `schema.multipartBody` and
 * apps/api/src/plugins/docs.ts turns it into the `multipart/form-data` requestBody); the API's one
 * multipart reader (apps/api/src/lib/multipart.ts) reads every form by its declaration, so the same
 * fault gets the same answer on every form. Only the API imports this module.
 */

/**
 * Meta key of a file part naming the media types to send it as; the docs plugin moves it into the
 * requestBody's `encoding` (OpenAPI's place for a multipart part's content type).
 */
export const MULTIPART_CONTENT_TYPE = 'x-multipart-content-type';

const MB = 1024 * 1024;
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const uploadImageTypes = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/svg+xml',
] as const;
const editorImageTypes = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
] as const;
const reelImageTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;
const audioTypes = ['audio/mpeg', 'audio/wav', 'audio/mp4', 'audio/ogg', 'audio/flac', 'audio/aac'] as const;
const importTypes = ['text/csv', XLSX_MEDIA_TYPE] as const;

/**
 * The rule of one file part. Every fault of a form is answered from these rules by the API's one
 * reader: a file over `maxBytes` or one more than `maxCount` is 413 PAYLOAD_TOO_LARGE, a file whose
 * bytes are none of `types` 415 UNSUPPORTED_MEDIA_TYPE, a missing `required` part 400 BAD_REQUEST.
 * `messages` holds the product spec's own words for a fault where the product spec has them; the reader's one wording
 * is used otherwise.
 */
export type MultipartFileRule = {
  maxCount: number;
  maxBytes: number;
  /** The media types the part may be, recognised by its first bytes (never its name or claimed type). */
  types: readonly string[];
  required: boolean;
  /** What one file is called in messages ("image", "music file"). */
  noun: string;
  /** The part may also be a text field (a stored file's URL): it counts towards `maxCount`. */
  orText?: boolean;
  /** Other names the part may be sent as (`images[]`). */
  aliases?: readonly string[];
  messages?: { tooMany?: string; tooLarge?: (name: string) => string; missing?: string };
};

export type MultipartForm = {
  /** The whole form as OpenAPI shows it; its keys that are not files are the text fields. */
  schema: z.ZodObject;
  files: Record<string, MultipartFileRule>;
};

/** The text fields a form takes: its schema's keys that are not file parts, and the parts that may be text. */
export function textFieldsOf(form: MultipartForm): string[] {
  return Object.keys(form.schema.shape).filter((name) => !form.files[name] || form.files[name].orText);
}

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
      [MULTIPART_CONTENT_TYPE]: uploadImageTypes.join(', '),
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
    `A CSV file, or an .xlsx one (by its bytes), at most ${MAX_IMPORT_BYTES / MB} MB and ${MAX_IMPORT_ROWS.toLocaleString('en-US')} data rows. ` +
      `The first row names the columns: ${importColumns.join(', ')}; only image_url is required.`,
    importTypes.join(', '),
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
    editorImageTypes.join(', '),
  ),
  prompt: editImageFieldsSchema.shape.prompt.describe('What to change, in plain English.'),
  quality: editImageFieldsSchema.shape.quality.describe('low, medium or high: the credits it costs.'),
  userId: editImageFieldsSchema.shape.userId.describe(userIdField),
});

/** POST /images/generate-styled-caption. */
export const styledCaptionFormSchema = z.object({
  image: filePart(
    `The picture to caption, at most ${MAX_EDITOR_IMAGE_BYTES / MB} MB, a JPEG, PNG, WebP, GIF, AVIF or TIFF by its bytes.`,
    editorImageTypes.join(', '),
  ),
  prompt: styledCaptionFieldsSchema.shape.prompt.describe('Optional tone of the caption, e.g. "playful".'),
  userId: styledCaptionFieldsSchema.shape.userId.describe(userIdField),
});

/** POST /images/createReels. */
export const createReelFormSchema = z.object({
  audioFile: filePart(
    `The music, at most ${MAX_MUSIC_BYTES / MB} MB: MP3, WAV, M4A, OGG, FLAC or AAC.`,
    audioTypes.join(', '),
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
      [MULTIPART_CONTENT_TYPE]: reelImageTypes.join(', '),
    }),
  skipCaptioning: createReelFieldsSchema.shape.skipCaptioning.describe(
    'true (the default): the server does not caption the slides (ADR 017).',
  ),
  userId: createReelFieldsSchema.shape.userId.describe(userIdField),
});

/** POST /images/upload-and-generate: 1 to MAX_UPLOAD_FILES images of at most 5 MB. */
export const uploadAndGenerateForm = {
  schema: uploadAndGenerateFormSchema,
  files: {
    images: {
      maxCount: MAX_UPLOAD_FILES,
      maxBytes: MAX_UPLOAD_BYTES,
      types: uploadImageTypes,
      required: true,
      noun: 'image',
      messages: {
        tooLarge: (name) =>
          `The following files exceed ${MAX_UPLOAD_BYTES / MB}MB: "${name}". Please upload images under ${MAX_UPLOAD_BYTES / MB}MB.`,
      },
    },
  },
} satisfies MultipartForm;

/** POST /images/import-csv: one CSV or .xlsx file of at most MAX_IMPORT_BYTES. */
export const importCsvForm = {
  schema: importCsvFormSchema,
  files: {
    file: {
      maxCount: 1,
      maxBytes: MAX_IMPORT_BYTES,
      types: importTypes,
      required: true,
      noun: 'spreadsheet',
      messages: {
        tooLarge: () =>
          `The file is larger than ${MAX_IMPORT_BYTES / MB} MB: split it into files of at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows.`,
      },
    },
  },
} satisfies MultipartForm;

const editorImage = {
  maxCount: 1,
  maxBytes: MAX_EDITOR_IMAGE_BYTES,
  types: editorImageTypes,
  required: true,
  noun: 'image',
} satisfies MultipartFileRule;

/** POST /images/edit-image: one image of at most 10 MB. */
export const editImageForm = {
  schema: editImageFormSchema,
  files: {
    image: {
      ...editorImage,
      messages: { tooLarge: () => messages.editor.imageTooLarge, missing: messages.editor.selectImage },
    },
  },
} satisfies MultipartForm;

/** POST /images/generate-styled-caption: one image of at most 10 MB. */
export const styledCaptionForm = {
  schema: styledCaptionFormSchema,
  files: {
    image: {
      ...editorImage,
      messages: { tooLarge: () => messages.editor.imageTooLarge, missing: messages.reel.selectImages },
    },
  },
} satisfies MultipartForm;

/** POST /images/createReels: a music file and 1 to MAX_REEL_IMAGES images (files or stored files' URLs). */
export const createReelForm = {
  schema: createReelFormSchema,
  files: {
    audioFile: {
      maxCount: 1,
      maxBytes: MAX_MUSIC_BYTES,
      types: audioTypes,
      required: true,
      noun: 'music file',
      orText: true,
      messages: { tooLarge: () => messages.reel.musicTooLarge },
    },
    images: {
      maxCount: MAX_REEL_IMAGES,
      maxBytes: MAX_REEL_IMAGE_BYTES,
      types: reelImageTypes,
      required: true,
      noun: 'image',
      orText: true,
      aliases: ['images[]'],
      messages: { tooMany: messages.reel.maxImages, tooLarge: messages.reel.imageTooLarge },
    },
  },
} satisfies MultipartForm;
