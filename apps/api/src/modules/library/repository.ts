import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { type LibraryImage, libraryImages, type NewLibraryImage } from '../../db/tables/library-images.ts';

export async function insertLibraryImages(db: DbExecutor, rows: NewLibraryImage[]): Promise<LibraryImage[]> {
  if (rows.length === 0) return [];
  return db.insert(libraryImages).values(rows).returning();
}

/** The user's images, newest first. */
export async function listLibraryImages(
  db: DbExecutor,
  userId: string,
): Promise<Pick<LibraryImage, 'id' | 'src' | 'altText'>[]> {
  return db
    .select({ id: libraryImages.id, src: libraryImages.src, altText: libraryImages.altText })
    .from(libraryImages)
    .where(eq(libraryImages.userId, userId))
    .orderBy(desc(libraryImages.createdAt), desc(libraryImages.id));
}

export async function countLibraryImagesOf(db: DbExecutor, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(libraryImages).where(eq(libraryImages.userId, userId));
  return row?.n ?? 0;
}

/** Deletes those of `ids` that belong to the user; answers the deleted rows' ids and uploaded files. */
export async function deleteLibraryImagesOf(
  db: DbExecutor,
  userId: string,
  ids: string[],
): Promise<{ id: string; fileKey: string | null }[]> {
  if (ids.length === 0) return [];
  return db
    .delete(libraryImages)
    .where(and(eq(libraryImages.userId, userId), inArray(libraryImages.id, ids)))
    .returning({ id: libraryImages.id, fileKey: libraryImages.fileKey });
}

/** One of the user's images, or undefined when it is not theirs or does not exist. */
export async function findLibraryImageOf(
  db: DbExecutor,
  userId: string,
  id: string,
): Promise<LibraryImage | undefined> {
  const [row] = await db
    .select()
    .from(libraryImages)
    .where(and(eq(libraryImages.userId, userId), eq(libraryImages.id, id)));
  return row;
}

/** One page of the user's images, newest first (the index on user_id, created_at serves it). */
export async function listLibraryImagesPage(
  db: DbExecutor,
  userId: string,
  page: { offset: number; limit: number },
): Promise<Pick<LibraryImage, 'id' | 'src' | 'altText'>[]> {
  return db
    .select({ id: libraryImages.id, src: libraryImages.src, altText: libraryImages.altText })
    .from(libraryImages)
    .where(eq(libraryImages.userId, userId))
    .orderBy(desc(libraryImages.createdAt), desc(libraryImages.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** Sets a row's alt text (and who wrote it); undefined when the row is not the user's. */
export async function updateLibraryImageAltText(
  db: DbExecutor,
  userId: string,
  id: string,
  change: { altText: string; engine?: string | null; model?: string | null },
): Promise<LibraryImage | undefined> {
  const [row] = await db
    .update(libraryImages)
    .set({
      altText: change.altText,
      ...(change.engine !== undefined ? { engine: change.engine } : {}),
      ...(change.model !== undefined ? { model: change.model } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(libraryImages.userId, userId), eq(libraryImages.id, id)))
    .returning();
  return row;
}
