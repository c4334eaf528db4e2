import { errorCodes } from '@altwise/contracts/errors';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, payloadTooLarge } from '../../errors.ts';

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

const formatMb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)}MB`;

/**
 * Reads a multipart form with one image file (field `image`) and short text fields. The file is
 * cut off at `maxBytes` (413 naming the limit) and must be an image by its bytes (415).
 */
export async function readImageForm(
  request: FastifyRequest,
  options: { maxBytes: number; tooLargeMessage?: string },
): Promise<{ image: UploadedImage | null; fields: Record<string, string> }> {
  if (!request.isMultipart()) {
    throw badRequest('Send the form as multipart/form-data with the picture in the field "image".');
  }
  const tooLarge = () =>
    payloadTooLarge(
      options.tooLargeMessage ?? `Image size should be less than ${formatMb(options.maxBytes)}`,
    );
  const fields: Record<string, string> = {};
  let image: UploadedImage | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: options.maxBytes } })) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'image' || image) {
        part.file.resume();
        throw badRequest(
          part.fieldname === 'image'
            ? 'Send one image at a time.'
            : `Unexpected file in the field "${part.fieldname}"; send the picture as "image".`,
        );
      }
      const bytes = await part.toBuffer();
      image = { bytes, fileName: part.filename, contentType: part.mimetype };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT') throw badRequest('Send one image at a time.');
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw badRequest('The form has too many fields.');
    // Any other multipart failure is answered by the error handler's one map (errors.ts).
    throw error;
  }
  if (image) {
    if (image.bytes.length === 0) throw badRequest('The image file is empty.');
    if (image.bytes.length > options.maxBytes) throw tooLarge();
    const type = sniffImageType(image.bytes);
    if (!type) {
      throw new AppError(
        errorCodes.unsupportedMediaType,
        `${image.fileName || 'The file'} is not an image we can edit; please upload a ${ACCEPTED_IMAGE_FORMATS} file.`,
      );
    }
    image.contentType = type;
  }
  return { image, fields };
}
