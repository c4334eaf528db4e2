import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { type LibraryImage, libraryImages, type NewLibraryImage } from '../../db/tables/library-images.ts';

/** What a library listing shows of a row: SPEC's id, src and alt text, and the review fields. */
export type ListedLibraryImage = Pick<
  LibraryImage,
  'id' | 'src' | 'altText' | 'confidence' | 'needsReview' | 'reasons'
>;

const listedColumns = {
  id: libraryImages.id,
  src: libraryImages.src,
  altText: libraryImages.altText,
  confidence: libraryImages.confidence,
  needsReview: libraryImages.needsReview,
  reasons: libraryImages.reasons,
};

/** Which of the user's rows a listing covers: all of them, or only those needing review. */
export type LibraryFilter = { needsReview?: boolean };

function rowsOf(userId: string, filter: LibraryFilter): SQL | undefined {
  return and(
    eq(libraryImages.userId, userId),
    filter.needsReview === undefined ? undefined : eq(libraryImages.needsReview, filter.needsReview),
  );
}

export async function insertLibraryImages(db: DbExecutor, rows: NewLibraryImage[]): Promise<LibraryImage[]> {
  if (rows.length === 0) return [];
  return db.insert(libraryImages).values(rows).returning();
}

/** The user's images, newest first. */
export async function listLibraryImages(
  db: DbExecutor,
  userId: string,
  filter: LibraryFilter = {},
): Promise<ListedLibraryImage[]> {
  return db
    .select(listedColumns)
    .from(libraryImages)
    .where(rowsOf(userId, filter))
    .orderBy(desc(libraryImages.createdAt), desc(libraryImages.id));
}

export async function countLibraryImagesOf(
  db: DbExecutor,
  userId: string,
  filter: LibraryFilter = {},
): Promise<number> {
  const [row] = await db.select({ n: count() }).from(libraryImages).where(rowsOf(userId, filter));
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

/**
 * One page of the user's images, newest first (the index on user_id, created_at serves it; the
 * partial index on flagged rows serves the needs-review filter).
 */
export async function listLibraryImagesPage(
  db: DbExecutor,
  userId: string,
  page: { offset: number; limit: number },
  filter: LibraryFilter = {},
): Promise<ListedLibraryImage[]> {
  return db
    .select(listedColumns)
    .from(libraryImages)
    .where(rowsOf(userId, filter))
    .orderBy(desc(libraryImages.createdAt), desc(libraryImages.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** A new alt text for a row, and what is known about it; fields left out stay as they were. */
export type LibraryAltTextChange = {
  altText?: string;
  engine?: string | null;
  model?: string | null;
  confidence?: number | null;
  reasons?: NewLibraryImage['reasons'];
  needsReview?: boolean;
};

/** Changes a row (its alt text, review fields); undefined when the row is not the user's. */
export async function updateLibraryImage(
  db: DbExecutor,
  userId: string,
  id: string,
  change: LibraryAltTextChange,
): Promise<LibraryImage | undefined> {
  const [row] = await db
    .update(libraryImages)
    .set({
      ...(change.altText !== undefined ? { altText: change.altText } : {}),
      ...(change.engine !== undefined ? { engine: change.engine } : {}),
      ...(change.model !== undefined ? { model: change.model } : {}),
      ...(change.confidence !== undefined ? { confidence: change.confidence } : {}),
      ...(change.reasons !== undefined ? { reasons: change.reasons } : {}),
      ...(change.needsReview !== undefined ? { needsReview: change.needsReview } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(libraryImages.userId, userId), eq(libraryImages.id, id)))
    .returning();
  return row;
}
