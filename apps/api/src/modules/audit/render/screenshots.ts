import sharp from 'sharp';
import type { FilesService } from '../../files/service.ts';
import type { PageShots } from './browser-pool.ts';

/**
 * Screenshots of a rendered page's images (ADR 061): stored as the audit owner's files in
 * the `screenshots/` folder, which GET /files never serves (files/service.ts), so only the owner
 * reads them, through GET /audits/{id}/images/{imageId}/screenshot. They go with the account.
 */

/** The storage folder of screenshots: private, see files/service.ts `privateFolders`. */
export const SCREENSHOT_FOLDER = 'screenshots';

/** A screenshot fits inside this square (the review shows at most 480 CSS px; previews use 320). */
const SCREENSHOT_SIZE = 320;

/**
 * Each image the page reader kept, cropped out of the page's one screenshot by the box of its mark
 * (page-marks.ts), fit inside 320 × 320 and encoded WebP q70 like previews (ADR 051); null for an
 * image without a mark or off screen.
 */
export async function cropShots(
  shots: PageShots | null,
  marks: readonly (number | null)[],
): Promise<(Buffer | null)[]> {
  const crops: (Buffer | null)[] = [];
  // The screenshot is decoded once; each crop reads the decoded pixels.
  const decoded =
    shots && marks.some((mark) => mark !== null && shots.boxes.has(mark))
      ? await sharp(shots.picture)
          .raw()
          .toBuffer({ resolveWithObject: true })
          .catch(() => null)
      : null;
  for (const mark of marks) {
    const box = mark === null ? undefined : shots?.boxes.get(mark);
    if (!shots || !box || !decoded) {
      crops.push(null);
      continue;
    }
    // Rounded, not floored and ceiled: a box at a half pixel keeps its size rather than a fringe.
    const x0 = Math.max(0, Math.round((box.x - shots.left) * shots.scale));
    const y0 = Math.max(0, Math.round((box.y - shots.top) * shots.scale));
    const x1 = Math.min(shots.width, Math.round((box.x + box.w - shots.left) * shots.scale));
    const y1 = Math.min(shots.height, Math.round((box.y + box.h - shots.top) * shots.scale));
    if (x1 - x0 < 1 || y1 - y0 < 1) {
      crops.push(null);
      continue;
    }
    crops.push(
      await sharp(decoded.data, {
        raw: { width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels },
      })
        .extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 })
        .resize(SCREENSHOT_SIZE, SCREENSHOT_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 70 })
        .toBuffer()
        .catch(() => null),
    );
  }
  return crops;
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
