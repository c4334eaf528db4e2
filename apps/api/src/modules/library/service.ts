import type { DeleteLibraryImagesResponse, LibraryImageRecord } from '@altwise/contracts/library';
import type { Database, DbExecutor } from '../../db/client.ts';
import { forbidden } from '../../errors.ts';
import {
  countLibraryImagesOf,
  deleteLibraryImagesOf,
  insertLibraryImages,
  listLibraryImages,
} from './repository.ts';

export type LibraryService = ReturnType<typeof createLibraryService>;

/** One alt text that landed, as a generation job stores it. */
export type NewLibraryImageRow = {
  src: string;
  altText: string;
  engine?: string | null;
  model?: string | null;
  batchId?: string | null;
};

/** Stores generated alt texts in the user's library, inside the caller's transaction (the batch jobs). */
export async function addLibraryImages(tx: DbExecutor, userId: string, rows: NewLibraryImageRow[]) {
  return insertLibraryImages(
    tx,
    rows.map((row) => ({
      userId,
      src: row.src,
      altText: row.altText,
      engine: row.engine ?? null,
      model: row.model ?? null,
      batchId: row.batchId ?? null,
    })),
  );
}

/** How many images the user's library holds (the profile's imagecount). */
export async function countLibraryImages(db: DbExecutor, userId: string): Promise<number> {
  return countLibraryImagesOf(db, userId);
}

/** The image library: only ever the signed-in user's own rows. */
export function createLibraryService(deps: { db: Database }) {
  const { db } = deps;

  return {
    /** `requestedUserId` is the browser's `?userId=`; it may only name the caller. */
    async listImages(userId: string, requestedUserId?: string): Promise<LibraryImageRecord[]> {
      if (requestedUserId && requestedUserId !== userId)
        throw forbidden('You can only see the images in your own library.');
      const rows = await listLibraryImages(db, userId);
      return rows.map((row) => ({ id: row.id, src: row.src, alt_text: row.altText }));
    },

    /** Deletes the caller's images among `ids`; others' ids are left alone and not counted. */
    async deleteImages(userId: string, ids: string[]): Promise<DeleteLibraryImagesResponse> {
      const deleted = await deleteLibraryImagesOf(db, userId, [
        ...new Set(ids.map((id) => id.toLowerCase())),
      ]);
      return { success: true, deleted };
    },
  };
}
