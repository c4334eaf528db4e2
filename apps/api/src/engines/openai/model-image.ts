import sharp, { type Metadata, type SharpOptions } from 'sharp';
import type { ImageLimits } from '../engine-options.ts';
import { EngineInputError } from '../errors.ts';
import { type PixelStats, pixelStatsFromRgb } from '../image-stats.ts';
import {
  defaultImageLimits,
  looksLikeSvg,
  type PreparedImage,
  prepareImage,
  toInputError,
} from '../prepare-image.ts';

/**
 * The image as a remote model gets it, with the least work per image: the model needs
 * bytes it can read and the answer needs the pixel statistics of a small thumbnail, nothing else.
 *
 * - The header alone (sharp's metadata, no decode) gives format, size, orientation and alpha.
 * - An upright, opaque, single-frame sRGB JPEG/PNG/WebP that already fits maxSide and is at most
 *   PASS_THROUGH_MAX_BYTES is sent as it is: no decode, no re-encode.
 * - Anything else is decoded once with shrink-on-load (JPEG DCT scaling, sequential read) straight
 *   to a JPEG of at most maxSide, flattened on the same background the other engines use.
 * - The statistics come from one 96-pixel thumbnail, decoded with shrink-on-load too.
 * All decoding runs on libuv's thread pool, so one image's preparation overlaps other images' model
 * calls; the main thread only sums the thumbnail's ~9,000 pixels.
 * SVG keeps the shared path (prepareImage: sanitised, rasterised at a density near maxSide).
 */
export interface ModelImage {
  mime: 'image/jpeg' | 'image/png' | 'image/webp';
  data: Buffer;
  /** The input bytes were sent unchanged. */
  passedThrough: boolean;
  original: PreparedImage['original'];
  transparentShare: number;
  stats: PixelStats;
}

/** Larger files are re-encoded even when they fit maxSide: fewer bytes to upload and base64. */
export const PASS_THROUGH_MAX_BYTES = 512 * 1024;

const THUMB = 96;
const passThroughFormats = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;
const readableFormats = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff', 'jp2']);

export async function prepareModelImage(
  input: Uint8Array,
  limits: ImageLimits = defaultImageLimits,
): Promise<ModelImage> {
  if (input.byteLength === 0) throw new EngineInputError('NOT_AN_IMAGE', 'The file is empty.');
  if (input.byteLength > limits.maxInputBytes) {
    throw new EngineInputError(
      'TOO_LARGE',
      `The image is larger than ${Math.round(limits.maxInputBytes / 1024 / 1024)} MB.`,
    );
  }
  if (looksLikeSvg(input)) return fromPrepared(await prepareImage(input, limits));

  const source = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const options: SharpOptions = {
    limitInputPixels: limits.maxInputPixels,
    failOn: 'error',
    pages: 1,
    sequentialRead: true,
  };
  let metadata: Metadata;
  try {
    metadata = await sharp(source, options).metadata();
  } catch (error) {
    throw toInputError(error);
  }
  const { format, width, height } = metadata;
  if (!format || !readableFormats.has(format) || !width || !height) {
    throw new EngineInputError('NOT_AN_IMAGE', 'The file is not an image we can read.');
  }
  if (width * height > limits.maxInputPixels) {
    throw new EngineInputError('TOO_MANY_PIXELS', 'The image has too many pixels to process safely.');
  }
  const hasAlpha = Boolean(metadata.hasAlpha);
  const orientation = metadata.orientation ?? 1;
  const uprightSwap = orientation >= 5;
  const original = {
    format,
    width: uprightSwap ? height : width,
    height: uprightSwap ? width : height,
    animated: (metadata.pages ?? 1) > 1,
    hasAlpha,
  };
  const passMime = format in passThroughFormats ? passThroughFormats[format as 'jpeg'] : undefined;
  const passThrough =
    passMime !== undefined &&
    !hasAlpha &&
    !original.animated &&
    orientation === 1 &&
    (metadata.space === 'srgb' || metadata.space === 'b-w') &&
    Math.max(width, height) <= limits.maxSide &&
    input.byteLength <= PASS_THROUGH_MAX_BYTES;

  try {
    // Opaque images flatten on white, so the thumbnail and the JPEG can be decoded side by side;
    // with alpha the background depends on the thumbnail (a light logo goes on a dark background).
    const thumbnail = readThumbnail(source, options, hasAlpha);
    const encoded =
      passThrough || hasAlpha ? undefined : encodeForModel(source, options, limits.maxSide, '#ffffff');
    const thumb = await thumbnail;
    const data = passThrough
      ? source
      : await (encoded ?? encodeForModel(source, options, limits.maxSide, thumb.background));
    return {
      mime: passThrough ? passMime : 'image/jpeg',
      data,
      passedThrough: passThrough,
      original,
      transparentShare: thumb.transparentShare,
      stats: thumb.stats,
    };
  } catch (error) {
    throw toInputError(error);
  }
}

/** The long side ≤ maxSide, upright, flattened, as a JPEG; large JPEGs shrink while they load. */
async function encodeForModel(
  source: Buffer,
  options: SharpOptions,
  maxSide: number,
  background: string,
): Promise<Buffer> {
  return sharp(source, options)
    .rotate()
    .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true, fastShrinkOnLoad: true })
    .flatten({ background })
    .toColourspace('srgb')
    .jpeg({ quality: 85, mozjpeg: false })
    .toBuffer();
}

/**
 * One small upright thumbnail: the pixel statistics of the image as flattened, the share of
 * transparent pixels and the background to flatten on (as prepareImage decides it).
 */
async function readThumbnail(
  source: Buffer,
  options: SharpOptions,
  hasAlpha: boolean,
): Promise<{ stats: PixelStats; transparentShare: number; background: string }> {
  const { data, info } = await sharp(source, options)
    .rotate()
    .resize(THUMB, THUMB, { fit: 'inside', kernel: 'nearest', fastShrinkOnLoad: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = info.width * info.height;
  let transparent = 0;
  let opaque = 0;
  let opaqueLuma = 0;
  if (hasAlpha) {
    for (let i = 0; i < data.length; i += 4) {
      if ((data[i + 3] ?? 255) < 16) {
        transparent++;
        continue;
      }
      opaque++;
      opaqueLuma += 0.2126 * (data[i] ?? 0) + 0.7152 * (data[i + 1] ?? 0) + 0.0722 * (data[i + 2] ?? 0);
    }
  }
  const transparentShare = hasAlpha && pixels ? transparent / pixels : 0;
  const lightContent = transparentShare > 0.1 && opaque > 0 && opaqueLuma / opaque > 190;
  const background = lightContent ? [0x1f, 0x29, 0x37] : [255, 255, 255];
  const rgb = Buffer.alloc(pixels * 3);
  for (let p = 0; p < pixels; p++) {
    const alpha = (data[p * 4 + 3] ?? 255) / 255;
    for (let c = 0; c < 3; c++) {
      const value = data[p * 4 + c] ?? 0;
      rgb[p * 3 + c] = alpha === 1 ? value : Math.round(value * alpha + (background[c] ?? 255) * (1 - alpha));
    }
  }
  return {
    stats: pixelStatsFromRgb(rgb, info.width, info.height),
    transparentShare,
    background: lightContent ? '#1f2937' : '#ffffff',
  };
}

/** The shared path's result as a ModelImage (SVG only): its pixels to a JPEG and a thumbnail. */
async function fromPrepared(prepared: PreparedImage): Promise<ModelImage> {
  const raw = { raw: { width: prepared.width, height: prepared.height, channels: 3 as const } };
  const [data, thumb] = await Promise.all([
    sharp(prepared.rgb, raw).jpeg({ quality: 85, mozjpeg: false }).toBuffer(),
    sharp(prepared.rgb, raw)
      .resize(THUMB, THUMB, { fit: 'inside', kernel: 'nearest' })
      .raw()
      .toBuffer({ resolveWithObject: true }),
  ]);
  return {
    mime: 'image/jpeg',
    data,
    passedThrough: false,
    original: prepared.original,
    transparentShare: prepared.transparentShare,
    stats: pixelStatsFromRgb(thumb.data, thumb.info.width, thumb.info.height),
  };
}
