import { inArray } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { type LibraryImage, libraryImages } from '../../db/tables/library-images.ts';

/**
 * What other modules may read of the library, by name (ADR 079): the library module owns
 * `library_images`, and these reads are the only way in from outside it. Nothing here writes.
 */

export type LibraryAltRow = Pick<
  LibraryImage,
  'id' | 'altText' | 'origin' | 'reasons' | 'context' | 'longDescription'
>;

/** The alt text of each named library image, with what it stands on. */
export async function findAltTextsOf(db: DbExecutor, ids: string[]): Promise<Map<string, LibraryAltRow>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({
      id: libraryImages.id,
      altText: libraryImages.altText,
      origin: libraryImages.origin,
      reasons: libraryImages.reasons,
      context: libraryImages.context,
      longDescription: libraryImages.longDescription,
    })
    .from(libraryImages)
    .where(inArray(libraryImages.id, wanted));
  return new Map(rows.map((row) => [row.id, row]));
}
