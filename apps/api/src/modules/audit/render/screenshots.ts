import type { FilesService } from '../../files/service.ts';
import { chosenSource, type Element, resolveSource } from '../../scrape/extract-images.ts';
import type { ImageShot } from './browser-pool.ts';

/**
 * Screenshots of a rendered page's images (issue 20, ADR 061): stored as the audit owner's files in
 * the `screenshots/` folder, which GET /files never serves (files/service.ts), so only the owner
 * reads them, through GET /audits/{id}/images/{imageId}/screenshot. They go with the account.
 */

/** The storage folder of screenshots: private, see files/service.ts `privateFolders`. */
export const SCREENSHOT_FOLDER = 'screenshots';

/** The address the HTML reader gives an element with these attributes (extract-page.ts), or null. */
function addressOf(attribs: Record<string, string>, pageUrl: URL): string | null {
  const source = chosenSource({ attribs } as unknown as Element);
  return source ? resolveSource(source, pageUrl) : null;
}

/**
 * Pairs each image the page reader found with its screenshot: the n-th image of an address gets
 * the n-th screenshot of an element with that address (both are in document order). Images with
 * no address of their own (role="img", inline data) and images off screen get none.
 */
export function matchShots(
  images: readonly { src: string }[],
  shots: readonly ImageShot[],
  pageUrl: URL,
): (Buffer | null)[] {
  const byAddress = new Map<string, Buffer[]>();
  for (const shot of shots) {
    const address = addressOf(shot.attribs, pageUrl);
    if (!address) continue;
    const list = byAddress.get(address) ?? [];
    list.push(shot.webp);
    byAddress.set(address, list);
  }
  return images.map((image) => byAddress.get(image.src)?.shift() ?? null);
}

export type ScreenshotKeeper = {
  /** Stores one screenshot as the owner's private file; its key, or null when storing failed. */
  save(ownerId: string, webp: Buffer): Promise<string | null>;
  /** Deletes screenshots no row took (a page whose landing lost its claim). */
  discard(keys: string[]): Promise<void>;
};

export function createScreenshotKeeper(
  files: Pick<FilesService, 'saveFile' | 'deleteFile'>,
): ScreenshotKeeper {
  return {
    async save(ownerId, webp) {
      try {
        const saved = await files.saveFile({
          body: webp,
          contentType: 'image/webp',
          folder: SCREENSHOT_FOLDER,
          ownerId,
        });
        return saved.key;
      } catch {
        // A missing screenshot shows as none; it never stops the audit.
        return null;
      }
    },
    async discard(keys) {
      for (const key of keys) await files.deleteFile(key).catch(() => {});
    },
  };
}
