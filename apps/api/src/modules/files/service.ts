import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbExecutor } from '../../db/client.ts';
import type { StoredFile } from '../../db/tables/stored-files.ts';
import type { FileStorage, StoredObject } from '../../storage/file-storage.ts';
import { isValidStorageKey } from '../../storage/file-storage.ts';
import {
  deleteStoredFilesByKey,
  expireStoredFiles,
  findLiveStoredFileByKey,
  findStoredFileByKey,
  insertStoredFile,
  keepStoredFiles,
  listExpiredStoredFiles,
} from './repository.ts';

const extensionByType: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'video/mp4': 'mp4',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'application/json': 'json',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

/**
 * Folders whose files GET /files never serves, whoever has the key: the owner reads them through a
 * route that checks who asks (audit screenshots of rendered pages, ADR 061).
 */
export const privateFolders = ['screenshots'] as const;
const isPrivateKey = (key: string) => privateFolders.some((folder) => key.startsWith(`${folder}/`));

export type SaveFileInput = {
  body: Uint8Array | Readable;
  contentType: string;
  /** Top-level folder of the key, e.g. "uploads" or "reels". */
  folder: string;
  /** The user the file belongs to: deleting the account deletes the file (ADR 022). */
  ownerId: string;
  /** Makes the file temporary: the purge job deletes it after this moment. */
  expiresAt?: Date | null;
};

export type SavedFile = StoredFile & { url: string };

export type FilesService = ReturnType<typeof createFilesService>;

/** Saving, opening and purging files: bytes go to storage, and a `stored_files` row records them. */
export function createFilesService(deps: { db: Database; storage: FileStorage; logger: FastifyBaseLogger }) {
  const { db, storage, logger } = deps;

  return {
    async saveFile(input: SaveFileInput): Promise<SavedFile> {
      if (!isValidStorageKey(input.folder)) throw new Error(`Invalid folder name: ${input.folder}`);
      const extension = extensionByType[input.contentType.split(';')[0]?.trim().toLowerCase() ?? ''] ?? 'bin';
      const now = new Date();
      const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
      const key = `${input.folder}/${month}/${randomUUID()}.${extension}`;
      const put = await storage.put(key, input.body, input.contentType);
      try {
        const row = await insertStoredFile(db, {
          key,
          contentType: input.contentType,
          sizeBytes: put.sizeBytes,
          ownerId: input.ownerId,
          expiresAt: input.expiresAt ?? null,
        });
        return { ...row, url: put.url };
      } catch (error) {
        // Without its record nothing would ever delete the bytes.
        await storage.delete(key).catch(() => {});
        throw error;
      }
    },

    /**
     * Inside the caller's transaction: temporary files (uploads saved before their batch) become
     * lasting, because the work that uses them was stored.
     */
    keepFiles(tx: DbExecutor, keys: string[]): Promise<void> {
      return keepStoredFiles(tx, keys);
    },

    /**
     * Inside the caller's transaction: files with no purpose left (a failed image's upload) stop
     * being served now, and the purge job deletes them.
     */
    expireFiles(tx: DbExecutor, keys: string[]): Promise<void> {
      return expireStoredFiles(tx, keys);
    },

    /** Null for an unknown or malformed key, so a caller can answer 404 either way. */
    async openFile(key: string): Promise<StoredObject | null> {
      if (!isValidStorageKey(key)) return null;
      return storage.get(key);
    },

    /**
     * What GET /files/<key> serves (ADR 022): only a file whose record is live. A file whose record
     * is gone (its account was deleted) or expired (a failed upload, a finished temporary file) is
     * null at once, even while the job that deletes its bytes has not run yet.
     */
    async openPublicFile(key: string): Promise<StoredObject | null> {
      if (!isValidStorageKey(key) || isPrivateKey(key)) return null;
      if (!(await findLiveStoredFileByKey(db, key, new Date()))) return null;
      return storage.get(key);
    },

    /** A live file of `ownerId` (a private one included); null for anyone else's, or a gone one. */
    async openOwnedFile(key: string, ownerId: string): Promise<StoredObject | null> {
      if (!isValidStorageKey(key)) return null;
      const row = await findLiveStoredFileByKey(db, key, new Date());
      if (!row || row.ownerId !== ownerId) return null;
      return storage.get(key);
    },

    findFile(key: string): Promise<StoredFile | undefined> {
      return findStoredFileByKey(db, key);
    },

    /**
     * Deletes one file now. Its record expires first, so it is 404 at once even if storage then
     * fails; the purge job finishes such a deletion later instead of leaving the file public.
     */
    async deleteFile(key: string): Promise<void> {
      await expireStoredFiles(db, [key]);
      await storage.delete(key);
      await deleteStoredFilesByKey(db, [key]);
    },

    /**
     * The `files.delete` job: deletes every key's bytes, then whatever records are left. Throws when
     * storage refused any of them, after trying all, so the job is retried (deleting is idempotent).
     */
    async deleteFiles(keys: string[]): Promise<{ deleted: number }> {
      const failed = new Set<string>();
      for (const key of keys) {
        if (!isValidStorageKey(key)) continue;
        try {
          await storage.delete(key);
        } catch (error) {
          logger.warn({ err: error, key }, 'could not delete a file; the job will retry');
          failed.add(key);
        }
      }
      const done = keys.filter((key) => !failed.has(key));
      await deleteStoredFilesByKey(db, done);
      if (failed.size > 0) throw new Error(`Storage did not delete ${failed.size} of ${keys.length} files`);
      return { deleted: done.length };
    },

    /**
     * Deletes temporary files whose time is up, oldest first, bytes before records: if the process
     * dies in between, the record survives and the next run retries.
     */
    async purgeExpiredFiles(options: { now?: Date; limit?: number } = {}): Promise<{ deleted: number }> {
      const expired = await listExpiredStoredFiles(db, options.now ?? new Date(), options.limit ?? 500);
      const deletedKeys: string[] = [];
      for (const file of expired) {
        try {
          await storage.delete(file.key);
          deletedKeys.push(file.key);
        } catch (error) {
          logger.warn({ err: error, key: file.key }, 'could not delete an expired file; will retry');
        }
      }
      const deleted = await deleteStoredFilesByKey(db, deletedKeys);
      if (deleted > 0) logger.info({ deleted }, 'purged expired files');
      return { deleted };
    },
  };
}
