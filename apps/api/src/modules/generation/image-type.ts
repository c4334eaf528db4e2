import { looksLikeSvg } from '../../engines/prepare-image.ts';

export type ImageType =
  | 'image/jpeg'
  | 'image/png'
  | 'image/webp'
  | 'image/gif'
  | 'image/avif'
  | 'image/svg+xml';

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/**
 * The image type the bytes really are, by their magic numbers (never the file name or the
 * Content-Type a client claims); null for anything else. SVG is recognised by its markup; the
 * engine rasterises it with scripts, entities and external references removed.
 */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  // ISO BMFF: a box size, then 'ftyp' and a brand of the AVIF family.
  if (startsWith(bytes, ascii('ftyp'), 4)) {
    const brands = Buffer.from(bytes.subarray(8, Math.min(bytes.length, 64))).toString('latin1');
    if (/avi[fs]/.test(brands)) return 'image/avif';
  }
  if (looksLikeSvg(bytes)) return 'image/svg+xml';
  return null;
}

export const supportedImageTypesText = 'JPEG, PNG, WebP, GIF, AVIF or SVG';
