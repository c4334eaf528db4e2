import sharp, { type Metadata, type SharpOptions } from 'sharp';
import type { ImageLimits } from './engine-options.ts';
import { EngineInputError } from './errors.ts';

/** The image as every model sees it: upright, first frame, flattened on white, long side ≤ maxSide. */
export interface PreparedImage {
  /** Raw RGB pixels, 3 bytes per pixel. */
  rgb: Buffer;
  width: number;
  height: number;
  original: {
    format: string;
    width: number;
    height: number;
    animated: boolean;
    hasAlpha: boolean;
  };
  /** Share of fully transparent pixels in the original (logos and icons often have many). */
  transparentShare: number;
}

export const defaultImageLimits: ImageLimits = {
  maxInputPixels: 40_000_000,
  maxInputBytes: 20 * 1024 * 1024,
  maxSide: 1024,
};

const readableFormats = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff', 'svg', 'jp2']);

export async function prepareImage(
  input: Uint8Array,
  limits: ImageLimits = defaultImageLimits,
): Promise<PreparedImage> {
  if (input.byteLength === 0) throw new EngineInputError('NOT_AN_IMAGE', 'The file is empty.');
  if (input.byteLength > limits.maxInputBytes) {
    throw new EngineInputError(
      'TOO_LARGE',
      `The image is larger than ${Math.round(limits.maxInputBytes / 1024 / 1024)} MB.`,
    );
  }
  const isSvg = looksLikeSvg(input);
  const source = isSvg ? sanitiseSvg(Buffer.from(input).toString('utf8')) : Buffer.from(input);
  const baseOptions: SharpOptions = {
    limitInputPixels: limits.maxInputPixels,
    failOn: 'error',
    pages: 1,
  };

  let metadata: Metadata;
  try {
    metadata = await sharp(source, baseOptions).metadata();
  } catch (error) {
    throw toInputError(error);
  }
  if (!metadata.format || !readableFormats.has(metadata.format) || !metadata.width || !metadata.height) {
    throw new EngineInputError('NOT_AN_IMAGE', 'The file is not an image we can read.');
  }
  if (metadata.width * metadata.height > limits.maxInputPixels) {
    throw new EngineInputError('TOO_MANY_PIXELS', 'The image has too many pixels to process safely.');
  }

  // SVGs have no pixels of their own: render them at a density that lands near maxSide.
  const density = isSvg
    ? Math.min(72 * 8, Math.max(18, (72 * limits.maxSide) / Math.max(metadata.width, metadata.height)))
    : undefined;
  const options: SharpOptions = density ? { ...baseOptions, density } : baseOptions;

  try {
    const oriented = sharp(source, options).rotate();
    const hasAlpha = Boolean(metadata.hasAlpha);
    const transparency = hasAlpha
      ? await measureTransparency(source, options)
      : { share: 0, background: '#ffffff' };
    const { data, info } = await oriented
      .resize(limits.maxSide, limits.maxSide, { fit: 'inside', withoutEnlargement: !isSvg })
      .flatten({ background: transparency.background })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const rgb = info.channels === 3 ? data : toRgb(data, info.channels);
    const uprightSwap = (metadata.orientation ?? 1) >= 5;
    return {
      rgb,
      width: info.width,
      height: info.height,
      original: {
        format: metadata.format,
        width: uprightSwap ? metadata.height : metadata.width,
        height: uprightSwap ? metadata.width : metadata.height,
        animated: (metadata.pages ?? 1) > 1,
        hasAlpha,
      },
      transparentShare: transparency.share,
    };
  } catch (error) {
    throw toInputError(error);
  }
}

/** Lossless encoding of the prepared pixels, for OCR (only the engines that read text need it). */
export async function encodePng(image: PreparedImage): Promise<Buffer> {
  return sharp(image.rgb, { raw: { width: image.width, height: image.height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** JPEG of the prepared pixels, for providers that take a data URL (small and cheap in image tokens). */
export async function encodeJpeg(image: PreparedImage, quality = 85): Promise<Buffer> {
  return sharp(image.rgb, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality, mozjpeg: false })
    .toBuffer();
}

function toRgb(data: Buffer, channels: number): Buffer {
  const pixels = data.length / channels;
  const rgb = Buffer.alloc(pixels * 3);
  for (let i = 0; i < pixels; i++) {
    const v = data[i * channels] ?? 0;
    rgb[i * 3] = v;
    rgb[i * 3 + 1] = channels >= 3 ? (data[i * channels + 1] ?? v) : v;
    rgb[i * 3 + 2] = channels >= 3 ? (data[i * channels + 2] ?? v) : v;
  }
  return rgb;
}

/**
 * Share of transparent pixels, and the background to flatten on: white, unless the visible pixels are
 * themselves light (a white logo meant for a dark header), which would vanish on white.
 */
async function measureTransparency(
  source: Buffer | string,
  options: SharpOptions,
): Promise<{ share: number; background: string }> {
  const { data, info } = await sharp(source, options)
    .resize(64, 64, { fit: 'inside' })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let transparent = 0;
  let opaque = 0;
  let opaqueLuma = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const alpha = data[i + 3] ?? 255;
    if (alpha < 16) {
      transparent++;
      continue;
    }
    opaque++;
    opaqueLuma += 0.2126 * (data[i] ?? 0) + 0.7152 * (data[i + 1] ?? 0) + 0.0722 * (data[i + 2] ?? 0);
  }
  const pixels = transparent + opaque;
  const share = pixels ? transparent / pixels : 0;
  const lightContent = share > 0.1 && opaque > 0 && opaqueLuma / opaque > 190;
  return { share, background: lightContent ? '#1f2937' : '#ffffff' };
}

export function toInputError(error: unknown): EngineInputError {
  if (error instanceof EngineInputError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) {
    return new EngineInputError('TOO_MANY_PIXELS', 'The image has too many pixels to process safely.', {
      cause: error,
    });
  }
  return new EngineInputError('NOT_AN_IMAGE', 'The file is not an image we can read.', { cause: error });
}

export function looksLikeSvg(input: Uint8Array): boolean {
  const head = Buffer.from(input.subarray(0, 2048))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return (
    (head.startsWith('<?xml') || head.startsWith('<svg') || head.startsWith('<!--')) &&
    /<svg[\s>]/i.test(head)
  );
}

/**
 * Rasterising untrusted SVG must not read files or the network, nor expand entities.
 * We refuse entity declarations outright and strip anything that points outside the document.
 */
export function sanitiseSvg(svg: string): Buffer {
  if (/<!ENTITY/i.test(svg)) {
    throw new EngineInputError('UNSAFE_SVG', 'The SVG declares XML entities, which we do not render.');
  }
  const cleaned = svg
    .replace(/<!DOCTYPE[^>]*>/gi, '')
    .replace(/<script[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<foreignObject[\s\S]*?<\/foreignObject\s*>/gi, '')
    .replace(/<\?xml-stylesheet[^>]*>/gi, '')
    .replace(/@import[^;]*;?/gi, '')
    // href / xlink:href that is not a same-document fragment or an inline raster image.
    .replace(/\s(?:xlink:)?href\s*=\s*(["'])(?!#|data:image\/(?:png|jpeg|gif|webp);)[^"']*\1/gi, '')
    .replace(/url\(\s*(["']?)(?!#)[^)]*\1\s*\)/gi, 'none');
  return Buffer.from(cleaned, 'utf8');
}
