import type { AppConfig } from '../config.ts';
import type { FileStorage } from './file-storage.ts';
import { createLocalStorage } from './local.ts';
import { createS3Storage } from './s3.ts';

export function createStorage(config: AppConfig): FileStorage {
  return config.storage.driver === 's3'
    ? createS3Storage({ ...config.storage, publicUrl: config.publicUrl })
    : createLocalStorage({ dir: config.storage.dir, publicUrl: config.publicUrl });
}
