import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { type NewStoredFile, type StoredFile, storedFiles } from '../../db/tables/stored-files.ts';

export async function insertStoredFile(db: DbExecutor, file: NewStoredFile): Promise<StoredFile> {
  const [row] = await db.insert(storedFiles).values(file).returning();
  if (!row) throw new Error('insert into stored_files returned no row');
  return row;
}

export async function findStoredFileByKey(db: DbExecutor, key: string): Promise<StoredFile | undefined> {
  const [row] = await db.select().from(storedFiles).where(eq(storedFiles.key, key)).limit(1);
  return row;
}

/** The file's record while it is live: not expired (ADR 022: only live files are served). */
export async function findLiveStoredFileByKey(
  db: DbExecutor,
  key: string,
  now: Date,
): Promise<StoredFile | undefined> {
  const [row] = await db
    .select()
    .from(storedFiles)
    .where(and(eq(storedFiles.key, key), or(isNull(storedFiles.expiresAt), gt(storedFiles.expiresAt, now))))
    .limit(1);
  return row;
}

/** Every file key the user owns. */
export async function listStoredFileKeysOf(db: DbExecutor, ownerId: string): Promise<string[]> {
  const rows = await db
    .select({ key: storedFiles.key })
    .from(storedFiles)
    .where(eq(storedFiles.ownerId, ownerId));
  return rows.map((row) => row.key);
}

/**
 * Makes files temporary files whose time is up: they stop being served at once, and the
 * `files.purge-expired` job deletes their bytes and records (retrying until storage agrees).
 */
export async function expireStoredFiles(db: DbExecutor, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  // Whole milliseconds: a JavaScript clock read in the same millisecond already sees it expired.
  await db
    .update(storedFiles)
    .set({ expiresAt: sql`date_trunc('milliseconds', now())` })
    .where(inArray(storedFiles.key, keys));
}

/** Makes temporary files lasting (an upload whose batch was stored keeps its file). */
export async function keepStoredFiles(db: DbExecutor, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.update(storedFiles).set({ expiresAt: null }).where(inArray(storedFiles.key, keys));
}

export async function listExpiredStoredFiles(
  db: DbExecutor,
  now: Date,
  limit: number,
): Promise<StoredFile[]> {
  return db
    .select()
    .from(storedFiles)
    .where(and(isNotNull(storedFiles.expiresAt), lte(storedFiles.expiresAt, now)))
    .orderBy(asc(storedFiles.expiresAt))
    .limit(limit);
}

export async function deleteStoredFilesByKey(db: DbExecutor, keys: string[]): Promise<number> {
  if (keys.length === 0) return 0;
  const rows = await db
    .delete(storedFiles)
    .where(inArray(storedFiles.key, keys))
    .returning({ id: storedFiles.id });
  return rows.length;
}
