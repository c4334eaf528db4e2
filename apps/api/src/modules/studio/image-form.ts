import type { MultipartForm } from '@altwise/contracts/multipart-forms';
import type { FastifyRequest } from 'fastify';
import { readMultipartForm } from '../../lib/multipart.ts';

export type UploadedImage = { bytes: Buffer; fileName: string; contentType: string };

/** The image formats the studio reads, told apart by their first bytes (the file name and type lie). */
const signatures: Array<{ type: string; matches: (b: Buffer) => boolean }> = [
  { type: 'image/jpeg', matches: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: 'image/png',
    matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: 'image/gif', matches: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
  {
    type: 'image/webp',
    matches: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  {
    type: 'image/avif',
    matches: (b) =>
      b.subarray(4, 8).toString('latin1') === 'ftyp' &&
      /^(avif|avis|heic|heix|mif1|msf1)$/.test(b.subarray(8, 12).toString('latin1')),
  },
  {
    type: 'image/tiff',
    matches: (b) => ['II*\u0000', 'MM\u0000*'].includes(b.subarray(0, 4).toString('latin1')),
  },
];

export const ACCEPTED_IMAGE_FORMATS = 'JPEG, PNG, WebP, GIF, AVIF or TIFF';

/** The image's real type from its first bytes, or null when it is none of the accepted formats. */
export function sniffImageType(bytes: Buffer): string | null {
  return signatures.find((signature) => signature.matches(bytes))?.type ?? null;
}

/**
 * Reads a studio form (one `image` and short text fields, declared in the contract) with the one
 * multipart reader: the image is held in memory (at most 10 MB), its type taken from its bytes.
 */
export async function readImageForm(
  request: FastifyRequest,
  form: MultipartForm,
): Promise<{ image: UploadedImage; fields: Record<string, string> }> {
  const read = await readMultipartForm(request, form, {
    sniff: (_field, head) => sniffImageType(head),
    onFile: async (file): Promise<UploadedImage> => {
      const chunks: Buffer[] = [];
      for await (const chunk of file.bytes) chunks.push(chunk);
      return { bytes: Buffer.concat(chunks), fileName: file.fileName, contentType: file.type };
    },
  });
  const image = read.parts.image?.[0];
  if (!image || !('file' in image)) throw new Error('The studio form was read without its image.');
  return { image: image.file, fields: read.fields };
}
