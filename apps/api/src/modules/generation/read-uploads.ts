import { errorCodes } from '@altwise/contracts/errors';
import { MAX_UPLOAD_FILES } from '@altwise/contracts/generation';
import { MAX_UPLOAD_BYTES } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, insufficientCredits, payloadTooLarge } from '../../errors.ts';
import type { FilesService } from '../files/service.ts';
import { detectImageType, supportedImageTypesText } from './image-type.ts';
import type { SavedUpload } from './service.ts';

/** Busboy's limits for POST /images/upload-and-generate (registered on that route's scope only). */
export const uploadLimits = {
  fileSize: MAX_UPLOAD_BYTES,
  files: MAX_UPLOAD_FILES,
  fields: 10,
  fieldSize: 16 * 1024,
  parts: MAX_UPLOAD_FILES + 10,
};

/** Until their batch is stored, saved uploads are temporary: the purge job removes leftovers. */
const PENDING_UPLOAD_MS = 24 * 60 * 60 * 1000;

const quoted = (name: string) => `"${name.replaceAll('"', "'").slice(0, 200)}"`;

/** The upload form's own words for its limits; the rest is mapped centrally. */
function multipartError(error: unknown): unknown {
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return payloadTooLarge(`Upload at most ${MAX_UPLOAD_FILES} images at once.`);
    case 'FST_FIELDS_LIMIT':
      return badRequest('Too many form fields: send images, userId and chatGptPrompt only.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError(errorCodes.unsupportedMediaType, 'Send the images as multipart/form-data.');
    default:
      // Any other multipart failure is answered by the error handler's one map (errors.ts).
      return error;
  }
}

/**
 * Reads the multipart form: every `images` file must be at most 5 MB and really an image (by its
 * bytes); each is saved as a temporary file as it arrives. Reading stops before a file that the
 * caller's credits (one per image) cannot pay for (402) or that is one more than MAX_UPLOAD_FILES
 * (413), so a refused request never gets its files stored. If any file is refused, every file
 * already saved is deleted and nothing else happens: the caller gets the reason, naming the file.
 */
export async function readUploads(
  request: FastifyRequest,
  files: FilesService,
  ownerId: string,
  limits: { availableCredits: number },
): Promise<{ fields: Record<string, string>; uploads: SavedUpload[] }> {
  const fields: Record<string, string> = {};
  const uploads: SavedUpload[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const fileName = part.filename || 'unnamed file';
      if (part.fieldname !== 'images') {
        part.file.resume();
        throw badRequest(`Unexpected file field ${quoted(part.fieldname)}: send the images as "images".`);
      }
      if (uploads.length >= MAX_UPLOAD_FILES) {
        part.file.resume();
        throw payloadTooLarge(`Upload at most ${MAX_UPLOAD_FILES} images at once.`);
      }
      if (uploads.length >= limits.availableCredits) {
        part.file.resume();
        throw insufficientCredits(messages.credits.insufficient);
      }
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw payloadTooLarge(
            `The following files exceed 5MB: ${quoted(fileName)}. Please upload images under 5MB.`,
          );
        throw error;
      }
      const type = detectImageType(bytes);
      if (!type)
        throw badRequest(`${quoted(fileName)} is not an image: upload ${supportedImageTypesText} files.`, [
          { path: 'images', message: `${fileName} is not an image` },
        ]);
      const saved = await files.saveFile({
        body: bytes,
        contentType: type,
        folder: 'uploads',
        ownerId,
        expiresAt: new Date(Date.now() + PENDING_UPLOAD_MS),
      });
      uploads.push({ key: saved.key, url: saved.url, fileName });
    }
  } catch (error) {
    await discardUploads(files, uploads);
    throw multipartError(error);
  }
  if (uploads.length === 0)
    throw badRequest('Choose at least one image to upload.', [
      { path: 'images', message: 'Choose at least one image to upload.' },
    ]);
  return { fields, uploads };
}

export async function discardUploads(files: FilesService, uploads: SavedUpload[]): Promise<void> {
  await Promise.all(uploads.map((upload) => files.deleteFile(upload.key).catch(() => {})));
}
