import { z } from 'zod';

/** Most images in a row the page context reports (a ten-star rating); longer rows are galleries. */
export const MAX_IMAGE_ROW = 10;
/** Longest file name kept for an image of a row. */
const ROW_FILE_MAX_CHARS = 200;

/** Longest language tag kept (BCP 47 advises room for 35 characters). */
export const MAX_LANGUAGE_TAG_CHARS = 35;
/** The shape of a BCP 47 tag: a 2-8 letter language, then subtags of 1-8 letters or digits. */
export const languageTagPattern = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/u;

/**
 * A `lang` attribute's or a `--language` flag's value as a BCP 47 tag (`en_US` read as `en-US`), or
 * undefined when it is empty or not shaped like one (HTML: the language is then unknown).
 */
export function languageTagOf(value: string | undefined | null): string | undefined {
  const tag = value?.trim().replaceAll('_', '-');
  if (!tag || tag.length > MAX_LANGUAGE_TAG_CHARS || !languageTagPattern.test(tag)) return undefined;
  return tag;
}

/**
 * What the page around an image tells the alt-text engine, every field optional (the one
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
  /**
   * The accessible name of an enclosing element with role `img` or a `graphics-*` role (its
   * aria-label, the text aria-labelledby points to, or its title): the image is one part of that
   * picture, presentational by ARIA, and this name is what a screen reader announces instead.
   */
  partOfPicture: z.string().optional(),
  /**
   * A row of 3 to MAX_IMAGE_ROW images side by side in one element with only white space between them
   * (the stars of a rating): this image's place in it (1 = first) and every image's file name, in
   * order. Absent for an image that is not in such a row.
   */
  imageRow: z
    .object({
      position: z.number().int().min(1).max(MAX_IMAGE_ROW),
      files: z.array(z.string().max(ROW_FILE_MAX_CHARS)).min(3).max(MAX_IMAGE_ROW),
    })
    .refine((row) => row.position <= row.files.length, 'The position must be one of the row’s images')
    .optional(),
  /** The site's name as the page gives it (`og:site_name`). */
  siteName: z.string().optional(),
  /**
   * The image looks like the site's own logo: it sits in the page's banner (a `<header>` outside
   * any article or section, or role=banner) and its file name, class or id says "logo".
   */
  siteLogo: z.boolean().optional(),
  /**
   * The language of the image's place on the page (BCP 47): the `lang` of the image or of its
   * nearest ancestor that has one, else the page's `<html lang>` (ADR 071). Absent when the page
   * does not say. The engines write in it, or ask for a person's words when they cannot.
   */
  language: z
    .string()
    .max(MAX_LANGUAGE_TAG_CHARS)
    .regex(languageTagPattern, 'A language is a BCP 47 tag such as en, fr or pt-BR')
    .optional(),
});
export type PageContext = z.infer<typeof pageContextSchema>;
