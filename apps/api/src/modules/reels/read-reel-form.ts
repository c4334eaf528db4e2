import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MAX_MUSIC_BYTES, MAX_REEL_IMAGE_BYTES, MAX_REEL_IMAGES } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../errors.ts';

/** A file of the form, already written into the request's temporary directory. */
export type UploadedFile = { kind: 'file'; path: string; name: string; sizeBytes: number };
/** A text field naming a stored file by its URL. */
export type LinkedFile = { kind: 'url'; url: string; name: string };
export type ReelSource = UploadedFile | LinkedFile;

export type ReelForm = {
  audio: ReelSource | null;
  images: ReelSource[];
  /** The other text fields (skipCaptioning, userId), last value wins. */
  fields: Record<string, string>;
};

const imageFields = new Set(['images', 'images[]']);
const audioField = 'audioFile';

/** Names a part in messages: the browser's file name, trimmed, or its place in the form. */
function displayName(filename: string | undefined, fallback: string): string {
  const name = (filename ?? '').replace(/[\r\n\t]/g, ' ').trim();
  if (!name) return fallback;
  return name.length > 120 ? `${name.slice(0, 117)}…` : name;
}

/**
 * Reads the multipart form of POST /images/createReels, writing each file into `workDir` as it
 * arrives (nothing large is held in memory). Stops at the first broken rule: a sixth image, a file
 * over 10 MB (named in the message).
 */
export async function readReelForm(request: FastifyRequest, workDir: string): Promise<ReelForm> {
  const form: ReelForm = { audio: null, images: [], fields: {} };
  let fileCount = 0;
  for await (const part of request.parts()) {
    const isImage = imageFields.has(part.fieldname);
    const isAudio = part.fieldname === audioField;
    if (isImage && form.images.length >= MAX_REEL_IMAGES) {
      if (part.type === 'file') part.file.resume();
      throw badRequest(messages.reel.maxImages);
    }
    if (part.type === 'field') {
      const value = typeof part.value === 'string' ? part.value.trim() : String(part.value);
      if (isImage || isAudio) {
        if (!value) continue;
        const source: LinkedFile = {
          kind: 'url',
          url: value,
          name: isAudio ? 'audioFile' : `image ${form.images.length + 1}`,
        };
        if (isAudio) form.audio = source;
        else form.images.push(source);
      } else {
        form.fields[part.fieldname] = value;
      }
      continue;
    }
    if (!isImage && !isAudio) {
      // An unknown file field is skipped, not stored.
      part.file.resume();
      continue;
    }
    fileCount += 1;
    const name = displayName(part.filename, isAudio ? 'audioFile' : `image ${form.images.length + 1}`);
    const filePath = path.join(workDir, `upload-${fileCount}`);
    let sizeBytes = 0;
    part.file.on('data', (chunk: Buffer) => {
      sizeBytes += chunk.length;
    });
    await pipeline(part.file, createWriteStream(filePath));
    if (part.file.truncated) {
      throw badRequest(isAudio ? messages.reel.musicTooLarge : messages.reel.imageTooLarge(name));
    }
    const source: UploadedFile = { kind: 'file', path: filePath, name, sizeBytes };
    if (isAudio) form.audio = source;
    else form.images.push(source);
  }
  return form;
}

/** Limits for @fastify/multipart in the reels scope: a file may reach the larger of the two caps. */
export const reelMultipartLimits = {
  fileSize: Math.max(MAX_REEL_IMAGE_BYTES, MAX_MUSIC_BYTES),
  // The audio, five images and a little room: the sixth image is refused by name before this.
  files: MAX_REEL_IMAGES + 3,
  fields: 20,
  parts: 40,
  fieldSize: 8 * 1024,
  headerPairs: 200,
};
