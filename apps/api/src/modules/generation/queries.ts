import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { DbExecutor } from '../../db/client.ts';
import { type GenerationBatch, generationBatches } from '../../db/tables/generation-batches.ts';
import { generationItems } from '../../db/tables/generation-items.ts';

/**
 * What other modules may read of generation batches and their items, by name (ADR 079): the
 * generation module owns both tables, and these reads are the only way in from outside it. Nothing
 * here writes.
 */

export async function findBatchRow(db: DbExecutor, batchId: string): Promise<GenerationBatch | null> {
  const [batch] = await db.select().from(generationBatches).where(eq(generationBatches.id, batchId));
  return batch ?? null;
}

export type BatchItemRow = {
  position: number;
  externalId: string | null;
  src: string;
  status: 'pending' | 'processing' | 'done' | 'failed';
  error: string | null;
  libraryImageId: string | null;
};

/** A page of a batch's items in upload order, from after `afterPosition`. */
export async function listBatchItems(
  db: DbExecutor,
  batchId: string,
  page: { afterPosition: number; limit: number },
): Promise<BatchItemRow[]> {
  return db
    .select({
      position: generationItems.position,
      externalId: generationItems.externalId,
      src: generationItems.src,
      status: generationItems.status,
      error: generationItems.error,
      libraryImageId: generationItems.libraryImageId,
    })
    .from(generationItems)
    .where(and(eq(generationItems.batchId, batchId), gt(generationItems.position, page.afterPosition)))
    .orderBy(asc(generationItems.position))
    .limit(page.limit);
}

/** Each named item's status, for the images waiting on it. */
export async function findItemStatuses(
  db: DbExecutor,
  itemIds: string[],
): Promise<Map<string, BatchItemRow['status']>> {
  if (itemIds.length === 0) return new Map();
  const rows = await db
    .select({ id: generationItems.id, status: generationItems.status })
    .from(generationItems)
    .where(inArray(generationItems.id, itemIds));
  return new Map(rows.map((row) => [row.id, row.status]));
}
