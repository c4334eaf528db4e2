import { z } from 'zod';
import { MAX_SCRAPE_IMAGES } from './limits.ts';
import { pageContextSchema } from './page-context.ts';

/** Largest HTML page POST /users/scrape-and-generate reads. */
export const MAX_SCRAPE_HTML_BYTES = 5 * 1024 * 1024;
/** Longest URL the scrape form and call accept. */
export const SCRAPE_URL_MAX_CHARS = 2048;
/** The row error of an image whose source cannot be fetched (a `data:` URI, another scheme). */
export const INVALID_IMAGE_SOURCE = 'Invalid image source';

/** A web page's address as a person types it: trimmed, http or https, at most SCRAPE_URL_MAX_CHARS. */
export const pageUrlSchema = z
  .string({ error: 'Please enter a URL' })
  .trim()
  .min(1, 'Please enter a URL')
  .max(
    SCRAPE_URL_MAX_CHARS,
    `The URL must be at most ${SCRAPE_URL_MAX_CHARS.toLocaleString('en-US')} characters`,
  )
  .pipe(z.url({ protocol: /^https?$/, error: 'Please enter a valid http or https URL' }));

/** POST /users/scrape-and-generate: the page to read. */
export const scrapeRequestSchema = z.strictObject({ url: pageUrlSchema });
export type ScrapeRequest = z.infer<typeof scrapeRequestSchema>;

/** What the page says around an image (the page's part of the one page context), each only when the page has it. */
export const scrapedImageContextSchema = pageContextSchema.pick({
  pageTitle: true,
  heading: true,
  caption: true,
  surroundingText: true,
  linkTarget: true,
  role: true,
  linkText: true,
  partOfPicture: true,
  imageRow: true,
  siteName: true,
  siteLogo: true,
  language: true,
});
export type ScrapedImageContext = z.infer<typeof scrapedImageContextSchema>;

/**
 * One image of the page: `{src, alt}` as the product spec §7 says, plus its context. `invalid` rows (a
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
