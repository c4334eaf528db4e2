import type { Transaction } from '../../db/client.ts';
import { jobNames } from '../../jobs/names.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { deleteStoredFilesByKey, listStoredFileKeysOf } from './repository.ts';

/** Keys per `files.delete` job, so a large account's deletion is many small jobs, not one huge payload. */
export const FILE_DELETION_CHUNK = 500;

/**
 * Deletes files durably, inside the caller's transaction: their records go at once (GET /files
 * answers 404 from the commit on) and `files.delete` jobs, committed with them, delete the bytes,
 * retried by the queue until storage agrees. A rolled-back transaction deletes nothing.
 */
export async function deleteFilesLater(tx: Transaction, queue: JobQueue, keys: string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += FILE_DELETION_CHUNK) {
    const chunk = keys.slice(start, start + FILE_DELETION_CHUNK);
    await queue.send(jobNames.deleteFiles, { keys: chunk }, { tx });
  }
  await deleteStoredFilesByKey(tx, keys);
}

/** Every file the user owns, deleted durably within the caller's transaction; answers how many. */
export async function deleteFilesOfOwnerLater(
  tx: Transaction,
  queue: JobQueue,
  ownerId: string,
): Promise<number> {
  const keys = await listStoredFileKeysOf(tx, ownerId);
  await deleteFilesLater(tx, queue, keys);
  return keys.length;
}
