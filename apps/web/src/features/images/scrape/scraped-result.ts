import { type ScrapedImage, scrapedImageSchema } from '@altwise/contracts/scrape';
import { z } from 'zod';

/**
 * What /scrape hands to /scraped-images: the page's URL and its images. It travels in the router's
 * state (the product spec §2) and is also kept in sessionStorage, so a reload of /scraped-images does not lose
 * the list (router state survives a reload in most browsers, but not a new tab or a pasted link).
 */
export type ScrapedResult = { url: string; images: ScrapedImage[] };

const scrapedResultSchema = z.object({ url: z.string(), images: z.array(scrapedImageSchema).min(1) });

const storageKey = 'altwise.scrapedImages';

/** A valid result from router state or storage, else null (anything else is treated as "no list"). */
export function toScrapedResult(value: unknown): ScrapedResult | null {
  const parsed = scrapedResultSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function saveScrapedResult(result: ScrapedResult): void {
  try {
    window.sessionStorage.setItem(storageKey, JSON.stringify(result));
  } catch {
    // Storage full or disabled: the router state still carries the list for this navigation.
  }
}

export function readScrapedResult(): ScrapedResult | null {
  try {
    const raw = window.sessionStorage.getItem(storageKey);
    return raw ? toScrapedResult(JSON.parse(raw)) : null;
  } catch {
    return null;
  }
}

/**
 * The name a person recognises an image by: the last segment of its URL's path, decoded, or null when
 * there is none (then the table shows 'Unnamed Image').
 */
export function imageFileName(src: string): string | null {
  let path: string;
  try {
    path = new URL(src).pathname;
  } catch {
    path = src.split(/[?#]/)[0] ?? '';
  }
  const last = path.split('/').filter(Boolean).pop();
  if (!last) return null;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
