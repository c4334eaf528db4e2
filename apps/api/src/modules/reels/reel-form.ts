import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createReelForm } from '@altwise/contracts/multipart-forms';
import type { FastifyRequest } from 'fastify';
import { readMultipartForm } from '../../lib/multipart.ts';
import { type AudioKind, sniffAudio, sniffImage } from './media-types.ts';

/** A file of the form, already written into the request's temporary directory. */
export type UploadedFile = { kind: 'file'; path: string; name: string; sizeBytes: number };
/** A text field naming a stored file by its URL. */
export type LinkedFile = { kind: 'url'; url: string; name: string };
export type ReelSource = UploadedFile | LinkedFile;

export type ReelForm = {
  audio: ReelSource;
  images: ReelSource[];
  /** The other text fields (skipCaptioning, userId), last value wins. */
  fields: Record<string, string>;
};

const audioMediaTypes: Record<AudioKind, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  aac: 'audio/aac',
};

/** A reel part's media type by its first bytes: music for `audioFile`, an image for `images`. */
function sniffReelPart(field: string, head: Buffer): string | null {
  if (field === 'audioFile') {
    const kind = sniffAudio(head);
    return kind ? audioMediaTypes[kind] : null;
  }
  const kind = sniffImage(head);
  return kind ? `image/${kind}` : null;
}

/**
 * Reads the multipart form of POST /images/createReels with the one multipart reader, writing each
 * file into `workDir` as it arrives (nothing large is held in memory). Its faults are the reader's:
 * a sixth image or a file over 10 MB is 413 in the product spec's words, a file of another type 415.
 */
export async function readReelForm(request: FastifyRequest, workDir: string): Promise<ReelForm> {
  let written = 0;
  const read = await readMultipartForm(request, createReelForm, {
    sniff: sniffReelPart,
    onFile: async (file): Promise<UploadedFile> => {
      written += 1;
      const filePath = path.join(workDir, `upload-${written}`);
      let sizeBytes = 0;
      await pipeline(
        file.bytes,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            sizeBytes += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(filePath),
      );
      const name = file.field === 'audioFile' ? file.fileName || 'audioFile' : file.name;
      return { kind: 'file', path: filePath, name, sizeBytes };
    },
  });
  const sources = (field: string): ReelSource[] =>
    (read.parts[field] ?? []).map((part, index) =>
      'file' in part
        ? part.file
        : { kind: 'url', url: part.text, name: field === 'audioFile' ? 'audioFile' : `image ${index + 1}` },
    );
  const [audio] = sources('audioFile');
  if (!audio) throw new Error('The reel form was read without its music.');
  return { audio, images: sources('images'), fields: read.fields };
}
