import type { Readable } from 'node:stream';
import type { ComponentStatus } from '../modules/health/component-status.ts';

/** A stored object opened for reading. */
export type StoredObject = {
  body: Readable;
  contentType: string;
  sizeBytes: number;
};

export type PutResult = {
  key: string;
  /** Absolute URL the app serves the file at (`${PUBLIC_URL}/files/<key>`), whatever the driver. */
  url: string;
  sizeBytes: number;
};

/**
 * Where file bytes live. The local directory is the embedded default; S3 (or any S3-compatible
 * service) is chosen by configuration. Both are served through the app at `/files/<key>`, so a
 * private bucket works without presigned URLs.
 */
export interface FileStorage {
  readonly driver: 'local' | 's3';
  put(key: string, body: Uint8Array | Readable, contentType: string): Promise<PutResult>;
  /** Resolves to null when there is no such file. */
  get(key: string): Promise<StoredObject | null>;
  /** Deleting a missing file is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  urlFor(key: string): string;
  health(): Promise<ComponentStatus>;
}

/**
 * Keys are relative paths of safe segments: letters, digits, `.`, `_`, `-`, separated by `/`, no
 * segment starting with a dot (so no `..`, no hidden files), at most 512 characters.
 */
const keyPattern = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*)(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export function isValidStorageKey(key: string): boolean {
  return key.length > 0 && key.length <= 512 && keyPattern.test(key);
}

export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key.slice(0, 100))}`);
    this.name = 'InvalidStorageKeyError';
  }
}

export function assertValidStorageKey(key: string): void {
  if (!isValidStorageKey(key)) throw new InvalidStorageKeyError(key);
}

export function fileUrl(publicUrl: string, key: string): string {
  return `${publicUrl}/files/${key.split('/').map(encodeURIComponent).join('/')}`;
}
