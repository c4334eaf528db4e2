import { z } from 'zod';

/**
 * What the page around an image tells the alt-text engine, every field optional (issue 22: the one
 * page-context type; the engines, the batch items, the scraper and the CLI all take `PageContext`).
 * The scraper's answer carries the page's part of it (`scrapedImageContextSchema` in scrape.ts).
 */
export const pageContextSchema = z.object({
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
  /** The alt attribute the image already has. */
  existingAlt: z.string().optional(),
  /** The uploaded file's name. */
  fileName: z.string().optional(),
  /** The page the image is on (a CSV import's page_url, a scraped page). */
  pageUrl: z.string().optional(),
});
export type PageContext = z.infer<typeof pageContextSchema>;
