import { z } from 'zod';
import { DEFAULT_QUALITY, MAX_GENERATED_IMAGES, MIN_GENERATED_IMAGES, qualities } from './limits.ts';

/**
 * The media studio: image editing, image generation, styled captions and reels. Files
 * travel as multipart forms; these schemas cover the text fields and the JSON answers.
 */

/** Longest edit, generation or caption prompt. */
export const MAX_STUDIO_PROMPT_CHARS = 1000;

const qualitySchema = z
  .enum(qualities, { error: 'Quality must be low, medium or high' })
  .default(DEFAULT_QUALITY);

/** Text fields of POST /images/edit-image (the file comes as `image`, ≤ 10 MB). */
export const editImageFieldsSchema = z.object({
  userId: z.string().trim().optional(),
  prompt: z
    .string({ error: 'Please enter an edit prompt' })
    .trim()
    .min(1, 'Please enter an edit prompt')
    .max(MAX_STUDIO_PROMPT_CHARS, `The prompt must be at most ${MAX_STUDIO_PROMPT_CHARS} characters`),
  quality: qualitySchema,
});

/** Which engine made a studio result; the offline one says what it did. */
export const studioEngineSchema = z.object({
  engine: z.enum(['offline', 'openai']),
  model: z.string(),
});

export const editImageResponseSchema = z.object({
  success: z.literal(true),
  editedImage: z.object({ url: z.string() }),
  creditsCharged: z.number().int().nonnegative(),
  remainingCredits: z.number().int().nonnegative(),
  /** What the editor did, in words ("greyscale", "caption at the bottom: …"). */
  operations: z.array(z.string()),
  ...studioEngineSchema.shape,
});
export type EditImageResponse = z.infer<typeof editImageResponseSchema>;

/** POST /images/generate. */
export const generateImagesRequestSchema = z.object({
  prompt: z
    .string({ error: 'Please enter a text prompt' })
    .trim()
    .min(1, 'Please enter a text prompt')
    .max(MAX_STUDIO_PROMPT_CHARS, `The prompt must be at most ${MAX_STUDIO_PROMPT_CHARS} characters`),
  numberOfImages: z.coerce
    .number()
    .int()
    .min(MIN_GENERATED_IMAGES, `Generate at least ${MIN_GENERATED_IMAGES} image`)
    .max(MAX_GENERATED_IMAGES, `At most ${MAX_GENERATED_IMAGES} images can be generated at once`)
    .default(1),
  quality: qualitySchema,
  userId: z.string().trim().optional(),
});
export type GenerateImagesRequest = z.input<typeof generateImagesRequestSchema>;

export const generateImagesResponseSchema = z.object({
  success: z.literal(true),
  images: z.array(z.object({ url: z.string() })),
  creditsCharged: z.number().int().nonnegative(),
  remainingCredits: z.number().int().nonnegative(),
  /** True when the offline engine rendered typographic slides instead of pictures. */
  typographic: z.boolean(),
  /** A sentence the UI shows about what was made (the offline engine is honest about slides). */
  notice: z.string().optional(),
  ...studioEngineSchema.shape,
});
export type GenerateImagesResponse = z.infer<typeof generateImagesResponseSchema>;

/** Text fields of POST /images/generate-styled-caption (the file comes as `image`). */
export const styledCaptionFieldsSchema = z.object({
  userId: z.string().trim().optional(),
  prompt: z
    .string()
    .trim()
    .max(MAX_STUDIO_PROMPT_CHARS, `The prompt must be at most ${MAX_STUDIO_PROMPT_CHARS} characters`)
    .optional(),
});

export const styledCaptionResponseSchema = z.object({
  success: z.literal(true),
  captionedImage: z.object({ url: z.string() }),
  caption: z.string(),
  creditsCharged: z.number().int().nonnegative(),
  remainingCredits: z.number().int().nonnegative(),
  ...studioEngineSchema.shape,
});
export type StyledCaptionResponse = z.infer<typeof styledCaptionResponseSchema>;

/**
 * Text fields of POST /images/createReels: `images` may repeat as files or as URLs of the caller's
 * library or studio images; `audioFile` is the music. The answer is the MP4 itself (reel.mp4).
 */
export const createReelFieldsSchema = z.object({
  skipCaptioning: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .transform((value) => value === true || value === 'true')
    .default(true),
  userId: z.string().trim().optional(),
});

export const REEL_FILE_NAME = 'reel.mp4';
export const EDITED_IMAGE_FILE_NAME = 'edited-image.png';
