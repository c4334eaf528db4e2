import { buffer } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_REMOTE_IMAGE_BYTES } from '@altwise/contracts/generation';
import { imagesWithAltManifestColumns, MAX_IMAGES_WITH_ALT } from '@altwise/contracts/image-metadata';
import type { AltOrigin } from '@altwise/contracts/provenance';
import type { FastifyBaseLogger } from 'fastify';
import { ZipFile } from 'yazl';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { LibraryImage } from '../../db/tables/library-images.ts';
import { notFound, unavailable, unprocessable, unpublishableAlt } from '../../errors.ts';
import { csvByteOrderMark, csvRecord } from '../../lib/csv.ts';
import { Semaphore } from '../../lib/throttle.ts';
import { SafeFetchError, safeFetch } from '../../net/safe-fetch.ts';
import { listUnpublishable } from '../../rules/publishable.ts';
import { listAuditAltTexts } from '../audit/service.ts';
import type { FilesService } from '../files/service.ts';
import { detectImageType } from '../generation/image-type.ts';
import {
  displayFileName,
  findLibraryImage,
  findLibraryImagesOf,
  judgeLibraryImage,
} from '../library/service.ts';
import {
  exiftoolAvailable,
  isWritableType,
  MetadataWriteError,
  type WritableType,
  writableTypes,
  writeAltMetadata,
} from './exiftool.ts';

/**
 * Image files that carry their alt text (point 2; ADR 064): one library image, a selection
 * of them, or a whole audit's images, each a copy with the approved alt text written in by ExifTool,
 * a zip with a manifest.csv. The stored originals are never changed.
 */

/** Most images in one zip (a selection or an audit's distinct addresses); more are named in the manifest. */
export const MAX_ZIP_IMAGES = MAX_IMAGES_WITH_ALT;
/** Most bytes of images in one zip; the rest are named in the manifest as left out. */
export const MAX_ZIP_BYTES = 512 * 1024 * 1024;
/** ExifTool calls at once in this process, across every download. */
const EXIFTOOL_CONCURRENCY = 2;
/** The zip waits for the client while more than this is buffered and not yet sent. */
const ZIP_BUFFER_BYTES = 8 * 1024 * 1024;

/** One image to write: where its bytes are and what goes in. */
type Source = {
  src: string;
  /** The name people know it by (an upload's original name), when it has one. */
  fileName?: string | null;
  fileKey: string | null;
  altText: string | null;
  longDescription: string | null;
  origin: AltOrigin | null;
  engine: string | null;
  model: string | null;
  /** Why there is nothing to write (no approved alt text), in words. */
  missing?: string | null;
};

/** A library image as the file it is written to. */
const sourceOf = (row: Omit<Source, 'missing' | 'fileName'> & Pick<LibraryImage, 'fileName'>): Source => ({
  src: row.src,
  fileName: displayFileName(row),
  fileKey: row.fileKey,
  altText: row.altText,
  longDescription: row.longDescription,
  origin: row.origin,
  engine: row.engine,
  model: row.model,
});

/** A manifest row. */
type ManifestRow = {
  file: string;
  src: string;
  altText: string;
  longDescription: string;
  origin: string;
  status: 'written' | 'skipped';
  reason: string;
};

const manifestHeader = [...imagesWithAltManifestColumns];

/** The last path segment of an image's address ("red-shoe.jpg"), or '' when it has none. */
function lastSegment(src: string): string {
  try {
    return decodeURIComponent(new URL(src).pathname.split('/').at(-1) ?? '');
  } catch {
    return '';
  }
}

/** A file name of safe characters with the real type's extension: `stem` without its own extension. */
function safeFileName(name: string, type: WritableType): string {
  const stem =
    name
      .replace(/\.[a-z0-9]{2,5}$/iu, '')
      .normalize('NFKD')
      .replace(/[^a-zA-Z0-9._-]+/gu, '-')
      .replace(/^[-.]+|[-.]+$/gu, '')
      .slice(0, 60) || 'image';
  return `${stem}.${writableTypes[type]}`;
}

/** A zip entry's name: its position (names stay unique), then the image's file name. */
const entryName = (position: number, source: Source, type: WritableType) =>
  `${String(position).padStart(3, '0')}-${safeFileName(source.fileName ?? lastSegment(source.src), type)}`;

export type ImageMetadataService = ReturnType<typeof createImageMetadataService>;

export function createImageMetadataService(deps: {
  db: Database;
  files: Pick<FilesService, 'openFile'>;
  config: Pick<AppConfig, 'fetch' | 'metadata'>;
  logger: FastifyBaseLogger;
}) {
  const { db, files, config, logger } = deps;
  const slots = new Semaphore(EXIFTOOL_CONCURRENCY);
  const exiftool = { exiftool: config.metadata.exiftoolPath, tempDir: config.metadata.tempDir };

  async function requireExiftool() {
    if (!(await exiftoolAvailable(config.metadata.exiftoolPath)))
      throw unavailable(
        'Writing alt text into image files is not available on this server: ExifTool is not installed.',
      );
  }

  /** The image's bytes: the stored upload, or the address through the SSRF-safe fetcher. */
  async function loadBytes(source: Source): Promise<Uint8Array> {
    if (source.fileKey) {
      const stored = await files.openFile(source.fileKey);
      if (!stored) throw new MetadataWriteError('The uploaded file is no longer stored.');
      const bytes = await buffer(stored.body);
      if (bytes.length > MAX_REMOTE_IMAGE_BYTES)
        throw new MetadataWriteError(`The file is larger than ${MAX_REMOTE_IMAGE_BYTES / 1024 / 1024} MB.`);
      return bytes;
    }
    try {
      const { body } = await safeFetch(source.src, {
        allowPrivate: config.fetch.allowPrivate,
        maxBytes: MAX_REMOTE_IMAGE_BYTES,
        timeoutMs: config.fetch.timeoutMs,
        maxRedirects: 3,
        accept: 'image/*',
      });
      return body;
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      throw new MetadataWriteError(
        error.code === 'TOO_LARGE'
          ? `The image is larger than ${MAX_REMOTE_IMAGE_BYTES / 1024 / 1024} MB.`
          : `Could not download the image: ${error.message}`,
      );
    }
  }

  /** The file with its alt text written in, and its real type; MetadataWriteError in words otherwise. */
  async function withAlt(source: Source): Promise<{ bytes: Buffer; type: WritableType }> {
    if (source.altText === null || source.origin === null)
      throw new MetadataWriteError(source.missing ?? 'It has no alt text to write.');
    if (source.altText.trim() === '')
      throw new MetadataWriteError('Its alt text is empty (a decorative image): there is nothing to write.');
    const original = await loadBytes(source);
    const type = detectImageType(original);
    if (!isWritableType(type))
      throw new MetadataWriteError(
        type
          ? `ExifTool cannot write alt text into ${type.replace('image/', '').toUpperCase()} files here; JPEG, PNG, WebP and GIF are written.`
          : 'The file is not an image.',
      );
    const release = await slots.acquire();
    try {
      const bytes = await writeAltMetadata(exiftool, original, type, {
        altText: source.altText,
        longDescription: source.longDescription,
        origin: source.origin,
        engine: source.engine,
        model: source.model,
      });
      return { bytes, type };
    } finally {
      release();
    }
  }

  /**
   * A zip of `sources` written one at a time, each after the client has taken most of the one before
   * (so memory stays near ZIP_BUFFER_BYTES whatever the zip's size), then manifest.csv. A file that
   * cannot be written is left out and named in the manifest with the reason; so is every image past
   * MAX_ZIP_IMAGES or MAX_ZIP_BYTES. `signal` stops it when the client goes away.
   */
  function buildZip(sources: Source[], more: number, signal: AbortSignal): NodeJS.ReadableStream {
    const zip = new ZipFile();
    const out = zip.outputStream as NodeJS.ReadableStream & { readableLength: number };
    const manifest: ManifestRow[] = [];
    const skip = (source: Source, reason: string) =>
      manifest.push({
        file: '',
        src: source.src,
        altText: source.altText ?? '',
        longDescription: source.longDescription ?? '',
        origin: source.origin ?? '',
        status: 'skipped',
        reason,
      });
    const fill = async () => {
      let bytes = 0;
      for (const [index, source] of sources.entries()) {
        if (signal.aborted) break;
        if (index >= MAX_ZIP_IMAGES) {
          skip(source, `Left out: one zip holds at most ${MAX_ZIP_IMAGES} images.`);
          continue;
        }
        try {
          const written = await withAlt(source);
          if (bytes + written.bytes.length > MAX_ZIP_BYTES) {
            skip(source, `Left out: one zip holds at most ${MAX_ZIP_BYTES / 1024 / 1024} MB of images.`);
            continue;
          }
          bytes += written.bytes.length;
          const file = entryName(index + 1, source, written.type);
          // Images are compressed already: stored, not deflated again.
          zip.addBuffer(written.bytes, file, { compress: false, mtime: new Date() });
          manifest.push({
            file,
            src: source.src,
            altText: source.altText ?? '',
            longDescription: source.longDescription ?? '',
            origin: source.origin ?? '',
            status: 'written',
            reason: '',
          });
        } catch (error) {
          if (!(error instanceof MetadataWriteError)) {
            logger.warn({ err: error, src: source.src }, 'an image could not be written with its alt text');
            skip(source, 'Something went wrong with this image.');
          } else skip(source, error.message);
        }
        // Wait while the client is behind: the zip never holds much more than one image unsent.
        while (out.readableLength > ZIP_BUFFER_BYTES && !signal.aborted) await sleep(25);
      }
      if (more > 0)
        manifest.push({
          file: '',
          src: '',
          altText: '',
          longDescription: '',
          origin: '',
          status: 'skipped',
          reason: `${more} more ${more === 1 ? 'image was' : 'images were'} left out: one zip holds at most ${MAX_ZIP_IMAGES} images.`,
        });
      const csv =
        csvByteOrderMark +
        [
          manifestHeader,
          ...manifest.map((row) => [
            row.file,
            row.src,
            row.altText,
            row.longDescription,
            row.origin,
            row.status,
            row.reason,
          ]),
        ]
          .map(csvRecord)
          .join('');
      zip.addBuffer(Buffer.from(csv, 'utf8'), 'manifest.csv', { mtime: new Date() });
      zip.end();
    };
    fill().catch((error: unknown) => {
      // Only a bug gets here (each image's failure is a manifest row): end the zip with what it has.
      logger.error({ err: error }, 'the zip of images with alt text stopped');
      zip.end();
    });
    return out;
  }

  return {
    /** GET /images/altText/{id}/with-alt: one library image's file with its alt text in the metadata. */
    async libraryImageWithAlt(
      userId: string,
      id: string,
    ): Promise<{ fileName: string; type: WritableType; bytes: Buffer }> {
      const row = await findLibraryImage(db, userId, id);
      // Only alt text we can stand behind is written into a file (ADR 067).
      const verdict = judgeLibraryImage(row);
      if (!verdict.publishable)
        throw unpublishableAlt([{ imageId: row.id, code: verdict.code, message: verdict.message }], 'write');
      await requireExiftool();
      try {
        const written = await withAlt(sourceOf(row));
        // An upload's address is its storage key: its own file name names the download.
        const name = displayFileName(row) ?? row.context?.fileName ?? lastSegment(row.src);
        return { fileName: safeFileName(name, written.type), ...written };
      } catch (error) {
        if (error instanceof MetadataWriteError) throw unprocessable(error.message);
        throw error;
      }
    },

    /** POST /images/altText/with-alt.zip: the caller's images among `ids`; 404 when none is theirs. */
    async libraryZip(userId: string, ids: string[], signal: AbortSignal): Promise<NodeJS.ReadableStream> {
      const rows = await findLibraryImagesOf(db, userId, ids);
      if (rows.length === 0) throw notFound('None of these images is in your library.');
      // A named set with an alt text that may not go live is refused whole (ADR 067, 068).
      const refused = listUnpublishable(rows, (row) => row.id, judgeLibraryImage);
      if (refused.length > 0) throw unpublishableAlt(refused, 'write');
      await requireExiftool();
      return buildZip(rows.map(sourceOf), 0, signal);
    },

    /** GET /audits/{id}/images-with-alt.zip: each of the audit's image addresses once. */
    async auditZip(
      userId: string,
      auditId: string,
      signal: AbortSignal,
    ): Promise<{ url: string; stream: NodeJS.ReadableStream }> {
      const { url, images } = await listAuditAltTexts(db, userId, auditId);
      await requireExiftool();
      const sources = images.slice(0, MAX_ZIP_IMAGES).map((image) => ({ ...image, fileKey: null }));
      return { url, stream: buildZip(sources, images.length - sources.length, signal) };
    },
  };
}
