import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, constants, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ComponentStatus } from '../modules/health/component-status.ts';
import { assertValidStorageKey, type FileStorage, fileUrl, type StoredObject } from './file-storage.ts';

type Metadata = { contentType: string; sizeBytes: number };

/**
 * Files in a local directory (`${DATA_DIR}/files`). The content type lives in a small JSON sidecar
 * under `.meta/`, which no valid key can reach (keys never start a segment with a dot). Writes go
 * to a temporary file first and are renamed into place, so a reader never sees half a file.
 */
export function createLocalStorage(options: { dir: string; publicUrl: string }): FileStorage {
  const root = path.resolve(options.dir);
  const metaRoot = path.join(root, '.meta');
  const tmpRoot = path.join(root, '.tmp');

  const resolveKey = (key: string) => {
    assertValidStorageKey(key);
    const file = path.resolve(root, key);
    // Belt and braces: the key pattern already rules out traversal.
    if (!file.startsWith(`${root}${path.sep}`))
      throw new Error(`Storage key escapes the storage root: ${key}`);
    return { file, meta: path.join(metaRoot, `${key}.json`) };
  };

  const readMetadata = async (metaFile: string): Promise<Metadata | null> => {
    try {
      return JSON.parse(await readFile(metaFile, 'utf8')) as Metadata;
    } catch {
      return null;
    }
  };

  return {
    driver: 'local',

    async put(key, body, contentType) {
      const { file, meta } = resolveKey(key);
      await mkdir(path.dirname(file), { recursive: true });
      await mkdir(path.dirname(meta), { recursive: true });
      await mkdir(tmpRoot, { recursive: true });
      const tmp = path.join(tmpRoot, randomUUID());
      try {
        if (body instanceof Readable) {
          await pipeline(body, createWriteStream(tmp));
        } else {
          await writeFile(tmp, body);
        }
        const { size } = await stat(tmp);
        await writeFile(meta, JSON.stringify({ contentType, sizeBytes: size } satisfies Metadata));
        await rename(tmp, file);
        return { key, url: fileUrl(options.publicUrl, key), sizeBytes: size };
      } finally {
        await rm(tmp, { force: true });
      }
    },

    async get(key): Promise<StoredObject | null> {
      const { file, meta } = resolveKey(key);
      let size: number;
      try {
        const info = await stat(file);
        if (!info.isFile()) return null;
        size = info.size;
      } catch {
        return null;
      }
      const metadata = await readMetadata(meta);
      return {
        body: createReadStream(file),
        contentType: metadata?.contentType ?? 'application/octet-stream',
        sizeBytes: size,
      };
    },

    async delete(key) {
      const { file, meta } = resolveKey(key);
      await rm(file, { force: true });
      await rm(meta, { force: true });
    },

    async exists(key) {
      const { file } = resolveKey(key);
      try {
        return (await stat(file)).isFile();
      } catch {
        return false;
      }
    },

    urlFor: (key) => fileUrl(options.publicUrl, key),

    async health(): Promise<ComponentStatus> {
      const started = performance.now();
      try {
        await mkdir(root, { recursive: true });
        await access(root, constants.R_OK | constants.W_OK);
        return { status: 'up', driver: 'local', latencyMs: elapsed(started) };
      } catch (error) {
        return {
          status: 'down',
          driver: 'local',
          message: `Storage directory is not writable: ${errorCode(error)}`,
        };
      }
    },
  };
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'unknown error';
}
