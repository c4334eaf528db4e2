import { messages } from '@altwise/contracts/messages';
import { uploadAndGenerateForm } from '@altwise/contracts/multipart-forms';
import type { FastifyRequest } from 'fastify';
import { insufficientCredits } from '../../errors.ts';
import { readMultipartForm } from '../../lib/multipart.ts';
import type { FilesService } from '../files/service.ts';
import { detectImageType } from './image-type.ts';
import type { SavedUpload } from './service.ts';

/** Until their batch is stored, saved uploads are temporary: the purge job removes leftovers. */
const PENDING_UPLOAD_MS = 24 * 60 * 60 * 1000;

/**
 * Reads POST /images/upload-and-generate's form with the one multipart reader (its faults are the
 * reader's: 413 for a file over 5 MB or one more than MAX_UPLOAD_FILES, 415 for a file that is not
 * an image by its bytes...). Each image is saved as a temporary file as it arrives. Reading stops
 * before a file that the caller's credits (one per image) cannot pay for (402), so a refused request
 * never gets its files stored. If any file is refused, every file already saved is deleted.
 */
export async function readUploads(
  request: FastifyRequest,
  files: FilesService,
  ownerId: string,
  limits: { availableCredits: number },
): Promise<{ fields: Record<string, string>; uploads: SavedUpload[] }> {
  const uploads: SavedUpload[] = [];
  try {
    const form = await readMultipartForm(request, uploadAndGenerateForm, {
      sniff: (_field, head) => detectImageType(head),
      beforeFile: (_field, index) => {
        if (index > limits.availableCredits) throw insufficientCredits(messages.credits.insufficient);
      },
      onFile: async (file) => {
        const chunks: Buffer[] = [];
        for await (const chunk of file.bytes) chunks.push(chunk);
        const saved = await files.saveFile({
          body: Buffer.concat(chunks),
          contentType: file.type,
          folder: 'uploads',
          ownerId,
          expiresAt: new Date(Date.now() + PENDING_UPLOAD_MS),
        });
        const upload = { key: saved.key, url: saved.url, fileName: file.fileName || 'unnamed file' };
        uploads.push(upload);
        return upload;
      },
    });
    return { fields: form.fields, uploads };
  } catch (error) {
    await discardUploads(files, uploads);
    throw error;
  }
}

export async function discardUploads(files: FilesService, uploads: SavedUpload[]): Promise<void> {
  await Promise.all(uploads.map((upload) => files.deleteFile(upload.key).catch(() => {})));
}
