import { and, asc, eq, inArray, isNotNull, lte } from 'drizzle-orm';
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
