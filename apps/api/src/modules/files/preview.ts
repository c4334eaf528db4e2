import sharp from 'sharp';
import type { FilesService } from './service.ts';

/**
 * Review previews (ADR 051): a small WebP of an image, made once where the image's bytes are already
 * held (the batch runner, the audit's pixel check) and stored owner-only like every file, so a person
 * can see the picture whose alt text they judge even when the original is on another site, on http,
 * or gone.
 */

/** Longest side of a preview, in pixels: twice the largest size the web shows it at (480 px / 2 + margin). */
export const PREVIEW_MAX_SIDE = 320;
/** Larger inputs are not decoded for a preview (the engine's own limit, ADR 005). */
const PREVIEW_MAX_INPUT_PIXELS = 40_000_000;
const PREVIEW_QUALITY = 70;

/** A stored preview: the key deletes it, the URL is what the API answers as `thumbnailUrl`. */
export type StoredPreview = { key: string; url: string };

/**
 * The preview of an image: upright (EXIF orientation applied), first frame, at most PREVIEW_MAX_SIDE
 * on the long side (never enlarged), WebP without metadata. Null when the bytes are not an image
 * sharp can read within its limits: a missing preview never fails the work it accompanies.
 */
export async function makePreview(bytes: Uint8Array): Promise<Buffer | null> {
  try {
    return await sharp(bytes, { limitInputPixels: PREVIEW_MAX_INPUT_PIXELS, failOn: 'error', pages: 1 })
      .rotate()
      .resize(PREVIEW_MAX_SIDE, PREVIEW_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: PREVIEW_QUALITY })
      .toBuffer();
  } catch {
    return null;
  }
}

/**
 * Stores a preview (made by makePreview, or its promise) as the owner's file under `previews/`.
 * Null when there is none or storage refused it: the row is then kept without a thumbnail.
 */
export async function storePreview(
  files: Pick<FilesService, 'saveFile'>,
  ownerId: string,
  preview: Buffer | null | undefined | Promise<Buffer | null>,
): Promise<StoredPreview | null> {
  const body = await preview;
  if (!body) return null;
  try {
    const saved = await files.saveFile({ body, contentType: 'image/webp', folder: 'previews', ownerId });
    return { key: saved.key, url: saved.url };
  } catch {
    return null;
  }
}

/** Deletes a stored preview whose row was not written (a lost claim, a failed landing). */
export async function discardPreview(
  files: Pick<FilesService, 'deleteFile'>,
  preview: StoredPreview | null,
): Promise<void> {
  if (preview) await files.deleteFile(preview.key).catch(() => {});
}
