import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GenerationConfig } from '../../config.ts';
import type { Database, Transaction } from '../../db/client.ts';
import type { GenerationBatch, GenerationSource } from '../../db/tables/generation-batches.ts';
import type { GenerationItemContext } from '../../db/tables/generation-items.ts';
import type { AltTextResult } from '../../engines/types.ts';
import { refundReservation, settleReservation } from '../credits/service.ts';
import { discardPreview, makePreview, type StoredPreview, storePreview } from '../files/preview.ts';
import { contentContextKey, contentSha256 } from './content-key.ts';
import { classifyFailure, type DescribeDeps, describeOnce, ImageFailure } from './describe.ts';
import {
  addToBatchCounts,
  type ClaimedItem,
  claimNextItem,
  countOpenItems,
  findBatch,
  findContentResult,
  finishBatch,
  finishItem,
  markBatchProcessing,
  recordItemContent,
  recordRetry,
  releaseClaim,
  renewClaims,
} from './repository.ts';

/** One image of a batch the engine described, handed to its source's lander. */
export type FinishedItem = {
  userId: string;
  src: string;
  fileKey: string | null;
  context: GenerationItemContext;
  result: AltTextResult;
  /** The image's stored preview (ADR 051); null when none could be made. */
  thumbnail: StoredPreview | null;
};

/**
 * How a finished image of one source lands (ADR 043): in one statement or transaction it marks the
 * item `done`, writes the result where that source keeps it and counts the batch's `completed`,
 * all only while `claim` is still the caller's. Answers false, writing nothing, when the claim was
 * lost (another run took the image over).
 */
export type ItemLander = (
  db: Database,
  claim: { itemId: string; claimId: string },
  item: FinishedItem,
) => Promise<boolean>;

/** A content result's key (ADR 073): whose, which bytes, in what context. */
type ContentKey = { userId: string; sha256: string; contextKey: string };

/** The claim was taken over by another worker (this one was too slow): roll back, write nothing. */
class LostClaim extends Error {}

/** The process is stopping: the batch is left for a job retry or the next start to finish. */
export class BatchInterrupted extends Error {
  constructor() {
    super('The worker stopped before the batch finished; it resumes on retry or at the next start.');
    this.name = 'BatchInterrupted';
  }
}

export type BatchRunnerDeps = DescribeDeps & {
  db: Database;
  config: GenerationConfig;
  /** The lander of each source; a batch of a source with none is not run (its job retries). */
  landerFor: (source: GenerationSource) => ItemLander | undefined;
  /** Called in the transaction that closes a batch: outgoing webhooks queue their deliveries (ADR 029). */
  onBatchFinished?: (tx: Transaction, batchId: string) => Promise<unknown>;
};

/**
 * Works one batch to its end. Safe to run more than once at the same time, in one process or
 * several: each image is claimed with SKIP LOCKED, and its result or its refund is written only
 * while the claim is still this worker's, in one transaction with the batch's counts. So every
 * image is charged once and lands once, whoever finishes it.
 */
export function createBatchRunner(deps: BatchRunnerDeps) {
  const { db, config, logger } = deps;
  /** Claims this process holds, renewed together so a long engine call keeps its lease. */
  const held = new Set<string>();
  let heartbeat: NodeJS.Timeout | undefined;

  function hold(claimId: string) {
    held.add(claimId);
    heartbeat ??= setInterval(
      () => {
        renewClaims(db, [...held]).catch((error) => logger.warn({ err: error }, 'renewing claims failed'));
      },
      Math.max(200, (config.leaseSeconds * 1000) / 3),
    );
    heartbeat.unref();
  }

  function release(claimId: string) {
    held.delete(claimId);
    if (held.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
  }

  /**
   * Images this process is describing now, by user, bytes and context (ADR 073): a second copy in
   * the same batch (or another batch here) waits for the first's answer instead of paying again.
   */
  const describing = new Map<string, Promise<AltTextResult | null>>();

  /** An earlier answer for these bytes in this context, marked reused; null when there is none. */
  async function earlierAnswer(key: ContentKey): Promise<AltTextResult | null> {
    const underway = describing.get(`${key.userId}:${key.sha256}:${key.contextKey}`);
    const found = underway ? await underway : (await findContentResult(db, key))?.result;
    // A needs-words answer is reused as one: still no alt, still a person's words needed.
    return found ? { ...found, reused: true } : null;
  }

  async function landResult(batch: GenerationBatch, land: ItemLander, item: ClaimedItem, claimId: string) {
    let preview: Promise<StoredPreview | null> | undefined;
    let key: ContentKey | undefined;
    let settle: ((result: AltTextResult | null) => void) | undefined;
    let landed = false;
    const contextKey = contentContextKey({
      context: item.context,
      // The language the engine is asked for: the batch's, else the image's place's (ADR 071).
      language: item.language ?? item.context?.language,
      prompt: batch.prompt,
      keywords: item.keywords,
    });
    try {
      const result = await describeOnce(deps, {
        onImage: (bytes) => {
          // Made and stored while the engine works, so landing never waits for it (ADR 051).
          preview = storePreview(deps.files, batch.userId, makePreview(bytes));
        },
        answerFrom: async (bytes) => {
          key = { userId: batch.userId, sha256: contentSha256(bytes), contextKey };
          const earlier = await earlierAnswer(key);
          if (!earlier) {
            const mapKey = `${key.userId}:${key.sha256}:${key.contextKey}`;
            describing.set(
              mapKey,
              new Promise<AltTextResult | null>((resolve) => {
                settle = (answer) => {
                  describing.delete(mapKey);
                  resolve(answer);
                };
              }),
            );
          }
          return earlier;
        },
        src: item.src,
        fileKey: item.fileKey,
        context: { ...item.context, ...(batch.pageUrl ? { pageUrl: batch.pageUrl } : {}) },
        prompt: batch.prompt,
        language: item.language,
        keywords: item.keywords,
      });
      // Kept before it lands, so a copy that waited on this answer finds it, here or in another process.
      if (
        key &&
        !(await recordItemContent(db, { itemId: item.id, claimId }, key, {
          result,
          reused: result.reused === true,
        }))
      )
        throw new LostClaim();
      settle?.(result);
      settle = undefined;
      // A reused answer keeps no credit (ADR 073): its part of the reservation comes back before it
      // lands, under the part name a failure would use, so whatever happens next (a lost claim, a
      // retry, a failure) the image is refunded once and never charged.
      if (result.reused)
        await db.transaction((tx) =>
          refundReservation(tx, batch.userId, batch.reservationId, 1, { part: `item:${item.id}` }),
        );
      const finished = {
        userId: batch.userId,
        src: item.src,
        fileKey: item.fileKey,
        context: item.context,
        result,
        thumbnail: (await preview) ?? null,
      };
      landed = await land(db, { itemId: item.id, claimId }, finished);
      if (!landed) throw new LostClaim();
    } finally {
      // A preview nothing points at would live until the account is deleted.
      if (!landed && preview) await discardPreview(deps.files, await preview);
      // A failed describe leaves the waiting copies to describe for themselves.
      settle?.(null);
    }
  }

  async function recordFailure(
    batch: GenerationBatch,
    item: ClaimedItem,
    claimId: string,
    failure: ImageFailure,
  ) {
    await db.transaction(async (tx) => {
      if (!(await finishItem(tx, item.id, claimId, { status: 'failed', error: failure.message })))
        throw new LostClaim();
      // Refunded once per image: the claim guard above, and the ledger reference names the image.
      await refundReservation(tx, batch.userId, batch.reservationId, 1, { part: `item:${item.id}` });
      await addToBatchCounts(tx, batch.id, { failed: 1 });
      // The upload has no purpose left: it stops being served now and the purge job deletes it.
      if (item.fileKey) await deps.files.expireFiles(tx, [item.fileKey]);
    });
  }

  async function processItem(batch: GenerationBatch, land: ItemLander, item: ClaimedItem, claimId: string) {
    let attempts = item.attempts;
    for (;;) {
      let failure: ImageFailure;
      try {
        await landResult(batch, land, item, claimId);
        return;
      } catch (error) {
        if (error instanceof LostClaim) throw error;
        failure = classifyFailure(error);
      }
      if (failure.retryable && attempts < config.maxAttempts) {
        await sleep(config.retryDelayMs * 2 ** (attempts - 1) * (0.75 + Math.random() * 0.5));
        const next = await recordRetry(db, item.id, claimId);
        if (next === undefined) throw new LostClaim();
        attempts = next;
        continue;
      }
      const gaveUp = failure.retryable && attempts > 1;
      if (gaveUp) logger.warn({ err: failure.cause, item: item.id, attempts }, 'image failed after retries');
      const final = gaveUp
        ? new ImageFailure(`${failure.message} (gave up after ${attempts} attempts)`, false)
        : failure;
      await recordFailure(batch, item, claimId, final);
      return;
    }
  }

  /** One lane: claims and works images until the batch has none left to claim. */
  async function runLane(batch: GenerationBatch, land: ItemLander, stopping: () => boolean) {
    while (!stopping()) {
      const claimId = randomUUID();
      const item = await claimNextItem(db, batch.id, claimId, config.leaseSeconds);
      if (!item) return;
      hold(claimId);
      try {
        if (item.attempts > config.maxAttempts)
          // A process died on this image every time it tried; do not let it take down another.
          await recordFailure(
            batch,
            item,
            claimId,
            new ImageFailure(
              `Describing this image did not finish after ${config.maxAttempts} attempts.`,
              false,
            ),
          );
        else await processItem(batch, land, item, claimId);
      } catch (error) {
        if (error instanceof LostClaim)
          logger.warn({ item: item.id }, 'image was taken over by another worker');
        else {
          // Its result or refund could not be written (the database failed): give the image back
          // after a pause so it is tried again now (each claim counts an attempt, so a lasting failure
          // ends as a refunded failure). If even that write fails, the lease runs out instead.
          logger.error({ err: error, item: item.id }, 'image could not be finished; it will be tried again');
          await sleep(config.retryDelayMs);
          await releaseClaim(db, item.id, claimId).catch(() => {});
        }
      } finally {
        release(claimId);
      }
    }
  }

  return {
    /** Works the batch until every image has ended, then closes it. Returns when done. */
    async runBatch(batchId: string, stopping: () => boolean = () => false): Promise<void> {
      const batch = await findBatch(db, batchId);
      if (!batch || batch.finishedAt) return;
      const land = deps.landerFor(batch.source);
      // A process built without this source's module: nothing is claimed, the job retries elsewhere.
      if (!land) throw new Error(`No lander is registered for generation batches of source ${batch.source}.`);
      await markBatchProcessing(db, batchId);
      for (;;) {
        await Promise.all(
          // Twice as many lanes as engine slots: while some wait for the engine, others download.
          Array.from({ length: Math.min(config.concurrency * 2, batch.total) }, () =>
            runLane(batch, land, stopping),
          ),
        );
        if (stopping()) throw new BatchInterrupted();
        const open = await countOpenItems(db, batchId);
        if (open.pending === 0 && open.processing === 0) break;
        // Images still claimed by another worker: it finishes them, or its lease runs out and we
        // take them over. Either way, look again shortly.
        const leaseEnds = open.oldestClaim ? open.oldestClaim.getTime() + config.leaseSeconds * 1000 : 0;
        await sleep(Math.min(Math.max(250, leaseEnds - Date.now()), 2_000));
      }
      const closed = await db.transaction(async (tx) => {
        if (!(await finishBatch(tx, batchId))) return false;
        // The batch's one reservation (ADR 024) ends here: its failed images were refunded one by
        // one, and what it still holds paid for the images that landed.
        await settleReservation(tx, batch.reservationId);
        await deps.onBatchFinished?.(tx, batchId);
        return true;
      });
      if (closed) {
        const done = await findBatch(db, batchId);
        logger.info(
          { batch: batchId, total: done?.total, completed: done?.completed, failed: done?.failed },
          'generation batch finished',
        );
      }
    },
  };
}

export type BatchRunner = ReturnType<typeof createBatchRunner>;
