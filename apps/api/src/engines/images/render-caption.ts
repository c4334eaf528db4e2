import sharp, { type OutputInfo } from 'sharp';
import { EngineInputError } from '../errors.ts';
import { EDITOR_MAX_INPUT_PIXELS } from './apply-edits.ts';
import { captionBandSvg } from './svg-text.ts';

/** Longest side of a captioned image; social networks show less, and reels use 1080×1920. */
const MAX_CAPTIONED_SIDE = 2048;

/**
 * The styled caption of the media studio: the picture (upright, at most 2048 px on its long side)
 * with the caption on a semi-opaque band along the bottom, wrapped to fit. PNG.
 */
export async function renderCaptionedImage(image: Uint8Array, caption: string): Promise<Buffer> {
  let base: { data: Buffer; info: OutputInfo };
  try {
    base = await sharp(image, { limitInputPixels: EDITOR_MAX_INPUT_PIXELS, failOn: 'error', pages: 1 })
      .rotate()
      .resize({
        width: MAX_CAPTIONED_SIDE,
        height: MAX_CAPTIONED_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new EngineInputError(
      'NOT_AN_IMAGE',
      'The image could not be read; it may be damaged or too large.',
      {
        cause: error,
      },
    );
  }
  const { width, height } = base.info;
  const overlay = captionBandSvg(caption, {
    width,
    height,
    position: 'bottom',
    band: { fill: '#111827', opacity: 0.68 },
    maxLines: 6,
  });
  return sharp(base.data, { raw: { width, height, channels: 4 } })
    .composite([{ input: overlay, top: 0, left: 0 }])
    .png({ compressionLevel: 6 })
    .toBuffer();
}
