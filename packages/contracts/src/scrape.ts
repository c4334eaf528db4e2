import { z } from 'zod';
import { MAX_SCRAPE_IMAGES } from './limits.ts';

/** Largest HTML page POST /users/scrape-and-generate reads (issue 6). */
export const MAX_SCRAPE_HTML_BYTES = 5 * 1024 * 1024;
/** Longest URL the scrape form and call accept. */
export const SCRAPE_URL_MAX_CHARS = 2048;
/** The row error of an image whose source cannot be fetched (a `data:` URI, another scheme). */
export const INVALID_IMAGE_SOURCE = 'Invalid image source';

/** POST /users/scrape-and-generate: the page to read. */
export const scrapeRequestSchema = z.strictObject({
  url: z
    .string({ error: 'Please enter a URL' })
    .trim()
    .min(1, 'Please enter a URL')
    .max(
      SCRAPE_URL_MAX_CHARS,
      `The URL must be at most ${SCRAPE_URL_MAX_CHARS.toLocaleString('en-US')} characters`,
    )
    .pipe(z.url({ protocol: /^https?$/, error: 'Please enter a valid http or https URL' })),
});
export type ScrapeRequest = z.infer<typeof scrapeRequestSchema>;

/** What the page says around an image, for the alt-text engine (each only when the page has it). */
export const scrapedImageContextSchema = z.object({
  pageTitle: z.string().optional(),
  /** The nearest heading above the image. */
  heading: z.string().optional(),
  /** The enclosing figure's `figcaption`. */
  caption: z.string().optional(),
  /**
   * Text next to the image, at most 300 characters: its block's text (a figure's without the
   * caption), else the paragraph after it.
   */
  surroundingText: z.string().optional(),
  /** Where the image links to, when it is inside a link. */
  linkTarget: z.string().optional(),
  /**
   * The image's role (W3C alt decision tree): inside a link or a button (the nearest one), else
   * inside a figure. Absent for an image in running content.
   */
  role: z.enum(['link', 'button', 'figure']).optional(),
  /** The enclosing link's or button's own text without the image; absent when the image is all of it. */
  linkText: z.string().optional(),
});
export type ScrapedImageContext = z.infer<typeof scrapedImageContextSchema>;

/**
 * One image of the page: `{src, alt}` as SPEC.md §7 says, plus its context. `invalid` rows (a
 * `data:` URI, a non-http source) are reported with `error` rather than dropped; they cannot be
 * generated.
 */
export const scrapedImageSchema = z.object({
  src: z.string(),
  alt: z.string(),
  context: scrapedImageContextSchema,
  invalid: z.boolean(),
  error: z.string().optional(),
});
export type ScrapedImage = z.infer<typeof scrapedImageSchema>;

/** The page's images in document order, duplicates removed, at most MAX_SCRAPE_IMAGES. */
export const scrapeResponseSchema = z.array(scrapedImageSchema).max(MAX_SCRAPE_IMAGES);
export type ScrapeResponse = z.infer<typeof scrapeResponseSchema>;
