import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { type DbExecutor, queryRows } from '../../db/client.ts';
import {
  type ContentResult,
  contentResults,
  type StoredContentResult,
} from '../../db/tables/content-results.ts';
import {
  type GenerationBatch,
  generationBatches,
  type NewGenerationBatch,
} from '../../db/tables/generation-batches.ts';
import {
  type GenerationItemContext,
  generationItems,
  type NewGenerationItem,
} from '../../db/tables/generation-items.ts';
import type { NewLibraryImage } from '../../db/tables/library-images.ts';

export async function insertBatch(db: DbExecutor, batch: NewGenerationBatch): Promise<GenerationBatch> {
  const [row] = await db.insert(generationBatches).values(batch).returning();
  if (!row) throw new Error('insert into generation_batches returned no row');
  return row;
}

/** Rows per INSERT: a 100,000-row import stays far below Postgres's 65,535 parameters a statement. */
const INSERT_CHUNK = 1_000;

export async function insertItems(db: DbExecutor, items: NewGenerationItem[]): Promise<void> {
  for (let start = 0; start < items.length; start += INSERT_CHUNK)
    await db.insert(generationItems).values(items.slice(start, start + INSERT_CHUNK));
}

/** The account's default alt-text language (BCP 47), if it has set one. */
export async function findBatch(db: DbExecutor, id: string): Promise<GenerationBatch | undefined> {
  const [row] = await db.select().from(generationBatches).where(eq(generationBatches.id, id));
  return row;
}

export async function findBatchOf(
  db: DbExecutor,
  userId: string,
  id: string,
): Promise<GenerationBatch | undefined> {
  const [row] = await db
    .select()
    .from(generationBatches)
    .where(and(eq(generationBatches.id, id), eq(generationBatches.userId, userId)));
  return row;
}

/** The user's unfinished batches and those finished within `recentSeconds`, oldest first. */
export async function listRecentBatchesOf(
  db: DbExecutor,
  userId: string,
  recentSeconds: number,
): Promise<GenerationBatch[]> {
  return db
    .select()
    .from(generationBatches)
    .where(
      and(
        eq(generationBatches.userId, userId),
        or(
          isNull(generationBatches.finishedAt),
          gt(generationBatches.finishedAt, sql`now() - make_interval(secs => ${recentSeconds})`),
        ),
      ),
    )
    .orderBy(asc(generationBatches.createdAt))
    .limit(50);
}

/** Every batch not yet finished, for the worker's start-up resume. */
export async function listUnfinishedBatchIds(db: DbExecutor): Promise<string[]> {
  const rows = await db
    .select({ id: generationBatches.id })
    .from(generationBatches)
    .where(isNull(generationBatches.finishedAt))
    .orderBy(asc(generationBatches.createdAt));
  return rows.map((row) => row.id);
}

/**
 * Takes over batches whose run died (ADR 036): under way (`processing`), unfinished, nothing landed
 * and no claim renewed within the lease (a live run renews its claims every third of a lease), and
 * not run by this process (`runningHere`). Marks them adopted (`updated_at`) in the same statement,
 * with SKIP LOCKED, so of several workers sweeping at once one adopts each batch per lease; an
 * overlapping run would be safe anyway (claims). A queued batch is left to its job. One statement
 * on the partial index of unfinished batches and (batch_id, status) of the items.
 */
export async function adoptOrphanedBatches(
  db: DbExecutor,
  leaseSeconds: number,
  runningHere: string[],
  limit: number,
): Promise<string[]> {
  const notHere =
    runningHere.length > 0
      ? sql`and b.id not in (${sql.join(
          runningHere.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
      : sql``;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update generation_batches
        set updated_at = now()
        where id in (
          select b.id from generation_batches b
          where b.finished_at is null
            and b.status = 'processing'
            and b.updated_at < now() - make_interval(secs => ${leaseSeconds})
            ${notHere}
            and not exists (
              select 1 from generation_items i
              where i.batch_id = b.id and i.status = 'processing'
                and i.claimed_at >= now() - make_interval(secs => ${leaseSeconds})
            )
          order by b.created_at
          limit ${limit}
          for update of b skip locked
        )
        returning id`,
  );
  return rows.map((row) => row.id);
}

/** The failed items of these batches, in order, with their reason. */
export async function listFailuresOf(
  db: DbExecutor,
  batchIds: string[],
): Promise<{ batchId: string; src: string; error: string | null }[]> {
  if (batchIds.length === 0) return [];
  return db
    .select({ batchId: generationItems.batchId, src: generationItems.src, error: generationItems.error })
    .from(generationItems)
    .where(and(inArray(generationItems.batchId, batchIds), eq(generationItems.status, 'failed')))
    .orderBy(asc(generationItems.position));
}

export async function markBatchProcessing(db: DbExecutor, id: string): Promise<void> {
  await db
    .update(generationBatches)
    .set({ status: 'processing', updatedAt: sql`now()` })
    .where(and(eq(generationBatches.id, id), eq(generationBatches.status, 'queued')));
}

export type ClaimedItem = {
  id: string;
  position: number;
  src: string;
  fileKey: string | null;
  context: GenerationItemContext;
  attempts: number;
  language: string | null;
  keywords: string[] | null;
};

/**
 * Takes the next image of the batch for this worker: a pending one, or one whose claim is older
 * than the lease (its process died). SKIP LOCKED lets concurrent workers, in this process or
 * another, each take a different row without waiting on one another.
 */
export async function claimNextItem(
  db: DbExecutor,
  batchId: string,
  claimId: string,
  leaseSeconds: number,
): Promise<ClaimedItem | undefined> {
  const [row] = await queryRows<{
    id: string;
    position: number;
    src: string;
    file_key: string | null;
    context: GenerationItemContext | string;
    attempts: number;
    language: string | null;
    keywords: string[] | string | null;
  }>(
    db,
    sql`update generation_items
        set status = 'processing', claim_id = ${claimId}, claimed_at = now(), attempts = attempts + 1,
            updated_at = now()
        where id = (
          select id from generation_items
          where batch_id = ${batchId}
            and (status = 'pending'
                 or (status = 'processing' and claimed_at < now() - make_interval(secs => ${leaseSeconds})))
          order by position
          limit 1
          for update skip locked
        )
        returning id, position, src, file_key, context, attempts, language, keywords`,
  );
  if (!row) return undefined;
  return {
    id: row.id,
    position: row.position,
    src: row.src,
    fileKey: row.file_key,
    context: typeof row.context === 'string' ? JSON.parse(row.context) : row.context,
    attempts: row.attempts,
    language: row.language,
    keywords: typeof row.keywords === 'string' ? JSON.parse(row.keywords) : row.keywords,
  };
}

/** Gives an image back to the queue (its result could not be written); only while the claim is held. */
export async function releaseClaim(db: DbExecutor, itemId: string, claimId: string): Promise<void> {
  await db
    .update(generationItems)
    .set({ status: 'pending', claimId: null, claimedAt: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(generationItems.id, itemId),
        eq(generationItems.claimId, claimId),
        eq(generationItems.status, 'processing'),
      ),
    );
}

/** Keeps claims alive while their images are being described; answers how many were still held. */
export async function renewClaims(db: DbExecutor, claimIds: string[]): Promise<number> {
  if (claimIds.length === 0) return 0;
  const rows = await db
    .update(generationItems)
    .set({ claimedAt: sql`now()` })
    .where(and(inArray(generationItems.claimId, claimIds), eq(generationItems.status, 'processing')))
    .returning({ id: generationItems.id });
  return rows.length;
}

/** Counts one more attempt on a claim still held; undefined when the claim was lost. */
export async function recordRetry(
  db: DbExecutor,
  itemId: string,
  claimId: string,
): Promise<number | undefined> {
  const [row] = await db
    .update(generationItems)
    .set({ attempts: sql`${generationItems.attempts} + 1`, claimedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(generationItems.id, itemId),
        eq(generationItems.claimId, claimId),
        eq(generationItems.status, 'processing'),
      ),
    )
    .returning({ attempts: generationItems.attempts });
  return row?.attempts;
}

/** Ends a claimed item; false when the claim is no longer this worker's (nothing is changed then). */
export async function finishItem(
  db: DbExecutor,
  itemId: string,
  claimId: string,
  outcome: { status: 'done'; libraryImageId: string } | { status: 'failed'; error: string },
): Promise<boolean> {
  const rows = await db
    .update(generationItems)
    .set({
      status: outcome.status,
      libraryImageId: outcome.status === 'done' ? outcome.libraryImageId : null,
      error: outcome.status === 'failed' ? outcome.error : null,
      claimId: null,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(generationItems.id, itemId),
        eq(generationItems.claimId, claimId),
        eq(generationItems.status, 'processing'),
      ),
    )
    .returning({ id: generationItems.id });
  return rows.length === 1;
}

export async function addToBatchCounts(
  db: DbExecutor,
  batchId: string,
  change: { completed?: number; failed?: number },
): Promise<void> {
  await db
    .update(generationBatches)
    .set({
      completed: sql`${generationBatches.completed} + ${change.completed ?? 0}`,
      failed: sql`${generationBatches.failed} + ${change.failed ?? 0}`,
      status: 'processing',
      updatedAt: sql`now()`,
    })
    .where(eq(generationBatches.id, batchId));
}

/** How many of the batch's items are still to do, and when the oldest live claim runs out. */
export async function countOpenItems(
  db: DbExecutor,
  batchId: string,
): Promise<{ pending: number; processing: number; oldestClaim: Date | null }> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${generationItems.status} = 'pending')`.mapWith(Number),
      processing: sql<number>`count(*) filter (where ${generationItems.status} = 'processing')`.mapWith(
        Number,
      ),
      oldestClaim: sql<
        string | null
      >`min(${generationItems.claimedAt}) filter (where ${generationItems.status} = 'processing')`,
    })
    .from(generationItems)
    .where(eq(generationItems.batchId, batchId));
  return {
    pending: row?.pending ?? 0,
    processing: row?.processing ?? 0,
    oldestClaim: row?.oldestClaim ? new Date(row.oldestClaim) : null,
  };
}

/**
 * Closes a batch whose every item has ended: completed, or failed when nothing landed. Only the
 * first caller changes it; answers whether this call did.
 */
export async function finishBatch(db: DbExecutor, batchId: string): Promise<boolean> {
  const rows = await db
    .update(generationBatches)
    .set({
      status: sql`case when ${generationBatches.completed} = 0 then 'failed' else 'completed' end`,
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(generationBatches.id, batchId),
        isNull(generationBatches.finishedAt),
        sql`${generationBatches.completed} + ${generationBatches.failed} = ${generationBatches.total}`,
      ),
    )
    .returning({ id: generationBatches.id });
  return rows.length === 1;
}

/**
 * Lands one image's alt text as a single statement (one round trip, atomic): the item becomes
 * `done`, its library row is written and the batch's count goes up, but only while the claim is
 * still this worker's. Answers false, writing nothing, when the claim was lost.
 */
export async function landItem(
  db: DbExecutor,
  claim: { itemId: string; claimId: string },
  image: Omit<NewLibraryImage, 'id' | 'batchId'> & { id: string },
): Promise<boolean> {
  const rows = await queryRows<{ landed: number }>(
    db,
    sql`with item as (
          update generation_items
          set status = 'done', library_image_id = ${image.id}, claim_id = null, error = null, updated_at = now()
          where id = ${claim.itemId} and claim_id = ${claim.claimId} and status = 'processing'
          returning batch_id
        ),
        image as (
          insert into library_images (id, user_id, src, alt_text, origin, engine, model, batch_id, context, file_key,
                                      file_name, confidence, reasons, needs_review, long_description,
                                      thumbnail_key, thumbnail_url)
          select ${image.id}, ${image.userId}, ${image.src}, ${image.altText}, ${image.origin ?? 'ai'},
                 ${image.engine ?? null},
                 ${image.model ?? null}, item.batch_id, ${JSON.stringify(image.context ?? {})}::jsonb,
                 ${image.fileKey ?? null}, ${image.fileName ?? null}, ${image.confidence ?? null}::real,
                 ${image.reasons ? JSON.stringify(image.reasons) : null}::jsonb, ${image.needsReview ?? false},
                 ${image.longDescription ?? null}, ${image.thumbnailKey ?? null}, ${image.thumbnailUrl ?? null}
          from item
          returning id
        ),
        batch as (
          update generation_batches
          set completed = completed + 1, status = 'processing', updated_at = now()
          where id = (select batch_id from item)
          returning id
        )
        select (select count(*) from image)::int + (select count(*) from batch)::int as landed`,
  );
  return rows[0]?.landed === 2;
}

/** The content result for these bytes in this context (ADR 073), if this user has one. */
export async function findContentResult(
  db: DbExecutor,
  key: { userId: string; sha256: string; contextKey: string },
): Promise<ContentResult | undefined> {
  const [row] = await db
    .select()
    .from(contentResults)
    .where(
      and(
        eq(contentResults.userId, key.userId),
        eq(contentResults.sha256, key.sha256),
        eq(contentResults.contextKey, key.contextKey),
      ),
    );
  return row;
}

/**
 * A person approved or wrote the words of a batch item's image: they become the content result of
 * its bytes and context, marked approved. Nothing when the item was never read (no key).
 */
export async function approveContentResultOf(
  db: DbExecutor,
  userId: string,
  itemId: string,
  words: { altText: string; origin: StoredContentResult['origin']; longDescription: string | null },
): Promise<void> {
  await queryRows(
    db,
    sql`update content_results r
        set result = r.result || ${JSON.stringify({
          altText: words.altText,
          origin: words.origin,
          longDescription: words.longDescription,
          decorative: words.altText === '',
          needsWords: false,
          needsReview: false,
        })}::jsonb,
            origin = ${words.origin ?? 'human'}, needs_words = false, approved = true, updated_at = now()
        from generation_items i
        where i.id = ${itemId} and r.user_id = ${userId}
          and r.sha256 = i.content_sha256 and r.context_key = i.content_context_key`,
  );
}

/**
 * Records which bytes and context a claimed item was described under and whether it was reused, and
 * (a fresh answer) keeps the answer as the content result of that key, in one statement (ADR 073).
 * A result a person approved stays as it is. False when the claim was lost.
 */
export async function recordItemContent(
  db: DbExecutor,
  claim: { itemId: string; claimId: string },
  key: { userId: string; sha256: string; contextKey: string },
  answer: { result: StoredContentResult; reused: boolean },
): Promise<boolean> {
  const { result } = answer;
  const saved = answer.reused
    ? sql`select 1 where false`
    : sql`insert into content_results (user_id, sha256, context_key, result, origin, needs_words)
          values (${key.userId}, ${key.sha256}, ${key.contextKey}, ${JSON.stringify(result)}::jsonb,
                  ${result.origin ?? 'ai'}, ${result.needsWords === true})
          on conflict (user_id, sha256, context_key) do update
          set result = excluded.result, origin = excluded.origin, needs_words = excluded.needs_words,
              updated_at = now()
          where content_results.approved = false
          returning 1`;
  const rows = await queryRows<{ marked: number }>(
    db,
    sql`with saved as (${saved}),
        item as (
          update generation_items
          set content_sha256 = ${key.sha256}, content_context_key = ${key.contextKey}, reused = ${answer.reused}
          where id = ${claim.itemId} and claim_id = ${claim.claimId}
          returning id
        )
        select (select count(*) from item)::int as marked`,
  );
  return rows[0]?.marked === 1;
}
