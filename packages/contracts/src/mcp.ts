import { z } from 'zod';
import {
  auditParamsSchema,
  DEFAULT_AUDIT_MAX_PAGES,
  MAX_AUDIT_IMAGES_PAGE_SIZE,
  MAX_AUDIT_PAGES,
} from './audit.ts';
import { keywordsSchema, languageSchema } from './generation.ts';
import { altTextReasonSchema } from './library.ts';
import { MAX_UPLOAD_BYTES } from './limits.ts';
import { languageTagOf, pageContextSchema } from './page-context.ts';
import { altOriginSchema } from './provenance.ts';
import { pageUrlSchema } from './scrape.ts';

/**
 * The inputs of the `altwise mcp` server's tools (ADR 077): an agent's arguments are checked by these
 * schemas, and the tool list the agent reads is their JSON Schema. Answers from a server reuse the
 * API's own schemas (`auditSchema`, `auditImagesResponseSchema`).
 */

/** Most files or folders one audit_files or fix_files call names. */
export const MAX_MCP_PATHS = 50;
/** Longest file path a tool takes. */
export const MAX_MCP_PATH_CHARS = 4096;
/**
 * Largest image describe_image takes as base64 (decoded): an upload's cap, so that the base64 text
 * fits in one message of the stdio transport (10 MB in the SDK) and is refused in words, not by a
 * closed connection.
 */
export const MAX_MCP_BASE64_IMAGE_BYTES = MAX_UPLOAD_BYTES;
/** The base64 text of the largest image, plus room for a `data:image/…;base64,` prefix. */
export const MAX_MCP_BASE64_CHARS = Math.ceil(MAX_MCP_BASE64_IMAGE_BYTES / 3) * 4 + 100;

const pathSchema = z
  .string({ error: 'A path must be text' })
  .trim()
  .min(1, 'A path cannot be empty')
  .max(MAX_MCP_PATH_CHARS, `A path must be at most ${MAX_MCP_PATH_CHARS} characters`);

const pixelsSchema = z
  .boolean({ error: 'pixels must be true or false' })
  .default(true)
  .describe(
    'Read the pixels of images with alt="" or a text alt with the offline OCR (default true); false judges the HTML alone.',
  );

/** audit_url: the site audit's checks on a live site, crawled from this page. */
export const auditUrlInputSchema = z.strictObject({
  url: pageUrlSchema.describe('The http(s) address of the page to start from.'),
  maxPages: z
    .number({ error: 'maxPages must be a whole number' })
    .int('maxPages must be a whole number')
    .min(1, 'maxPages must be at least 1')
    .max(MAX_AUDIT_PAGES, `maxPages must be at most ${MAX_AUDIT_PAGES}`)
    .default(DEFAULT_AUDIT_MAX_PAGES)
    .describe(`Pages of the site to audit (default ${DEFAULT_AUDIT_MAX_PAGES}).`),
  pixels: pixelsSchema,
});
export type AuditUrlInput = z.infer<typeof auditUrlInputSchema>;

/** audit_files: the same checks on HTML and Markdown folders and files. */
export const auditFilesInputSchema = z.strictObject({
  paths: z
    .array(pathSchema, { error: 'paths must be a list of folders or files' })
    .min(1, 'Give at least one folder or file')
    .max(MAX_MCP_PATHS, `At most ${MAX_MCP_PATHS} folders or files at once`)
    .describe('Folders (read with their sub-folders) and HTML or Markdown files; absolute paths are best.'),
  pixels: pixelsSchema,
});
export type AuditFilesInput = z.infer<typeof auditFilesInputSchema>;

/** describe_image: alt text for one image, from a file, an address or its bytes. */
export const describeImageInputSchema = z
  .strictObject({
    path: pathSchema.optional().describe('An image file on this machine.'),
    url: pageUrlSchema.optional().describe('An http(s) address of the image (public addresses only).'),
    base64: z
      .string({ error: 'base64 must be text' })
      .max(
        MAX_MCP_BASE64_CHARS,
        `The image must be at most ${MAX_MCP_BASE64_IMAGE_BYTES / (1024 * 1024)} MB (base64 of at most ${MAX_MCP_BASE64_CHARS.toLocaleString('en-US')} characters)`,
      )
      .optional()
      .describe('The image bytes in base64 (a data: URL is fine too).'),
    context: pageContextSchema
      .optional()
      .describe(
        'What the page around the image says: pageTitle, heading, caption, surroundingText, linkTarget…',
      ),
    language: languageSchema.optional().describe('Language of the alt text (BCP 47: en, fr, pt-BR).'),
    maxLength: z
      .number({ error: 'maxLength must be a whole number' })
      .int('maxLength must be a whole number')
      .min(20, 'maxLength must be at least 20')
      .max(1000, 'maxLength must be at most 1000')
      .optional()
      .describe('Most characters of the alt text (default 125).'),
    keywords: keywordsSchema.optional().describe('SEO keywords, used only where true of the image.'),
  })
  .superRefine((input, ctx) => {
    const given = [input.path, input.url, input.base64].filter((value) => value !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', message: 'Give exactly one of path, url or base64' });
  });
export type DescribeImageInput = z.infer<typeof describeImageInputSchema>;

/** describe_image's answer: the alt text and what it stands on. */
export const describeImageResultSchema = z.object({
  /** The alt text; '' for a decorative image or when a person's words are needed. */
  alt: z.string(),
  decorative: z.boolean(),
  /** The evidence the engine used, most important first. */
  grounds: z.array(altTextReasonSchema),
  /** The engine found nothing it can stand behind: `alt` is empty and a person must write it. */
  needsWords: z.boolean(),
  needsWordsReason: z.string().nullable(),
  /** For a chart, diagram or other complex image: its labels and values in reading order. */
  longDescription: z.string().nullable(),
  confidence: z.number(),
  needsReview: z.boolean(),
  origin: altOriginSchema,
  /** Text read from the image, as read. */
  textInImage: z.string().nullable(),
  engine: z.string(),
  model: z.string(),
});
export type DescribeImageResult = z.infer<typeof describeImageResultSchema>;

/** fix_files: alt text for the failing images of a folder, as a diff, written only when asked. */
export const fixFilesInputSchema = z.strictObject({
  folder: pathSchema.describe(
    'The folder to fix (its HTML and Markdown files, with sub-folders); images outside it are never read.',
  ),
  files: z
    .array(pathSchema, { error: 'files must be a list of paths' })
    .min(1, 'Leave files out to fix the whole folder, or name at least one')
    .max(MAX_MCP_PATHS, `At most ${MAX_MCP_PATHS} files at once`)
    .optional()
    .describe('Only these HTML or Markdown files of the folder (relative to it, or absolute inside it).'),
  write: z
    .boolean({ error: 'write must be true or false' })
    .default(false)
    .describe('Change the files (default false: return the diff and change nothing).'),
  language: z
    .string({ error: 'language must be a BCP 47 tag such as en, fr or pt-BR' })
    .refine(
      (value) => languageTagOf(value) !== undefined,
      'language must be a BCP 47 tag such as en, fr or pt-BR',
    )
    .optional()
    .describe("Language of the alt text; without it, each image's place on its page says."),
  pixels: pixelsSchema,
});
export type FixFilesInput = z.infer<typeof fixFilesInputSchema>;

/** get_audit: an audit of the configured server, by id. */
export const getAuditInputSchema = auditParamsSchema;
export type GetAuditInput = z.infer<typeof getAuditInputSchema>;

/** list_failures: the failing images of an audit of the configured server, a page at a time. */
export const listFailuresInputSchema = auditParamsSchema.extend({
  page: z
    .number({ error: 'page must be a whole number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .default(1),
  pageSize: z
    .number({ error: 'pageSize must be a whole number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be at least 1')
    .max(MAX_AUDIT_IMAGES_PAGE_SIZE, `pageSize must be at most ${MAX_AUDIT_IMAGES_PAGE_SIZE}`)
    .default(50),
});
export type ListFailuresInput = z.infer<typeof listFailuresInputSchema>;
