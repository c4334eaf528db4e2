import { randomUUID } from 'node:crypto';
import { errorCodes } from '@altwise/contracts/errors';
import {
  type BatchProgress,
  batchStartedMessage,
  type GenerateAltTextRequest,
  type generateAltTextRequestSchema,
  type ImportCsvResponse,
  isEnglish,
  offlineLanguageMessage,
  type RegenerateAltTextResponse,
  type StartBatchResponse,
} from '@altwise/contracts/generation';
import { normalizeImageUrl, uniqueImageUrls } from '@altwise/contracts/image-urls';
import type { AltOrigin } from '@altwise/contracts/provenance';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { AppConfig } from '../../config.ts';
import type { Database, Transaction } from '../../db/client.ts';
import type { GenerationBatch, GenerationSource } from '../../db/tables/generation-batches.ts';
import type { GenerationItemContext } from '../../db/tables/generation-items.ts';
import type { AltTextEngine } from '../../engines/types.ts';
import { AppError, notFound, WorkFailedError } from '../../errors.ts';
import { jobNames } from '../../jobs/names.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { createRunScheduler } from '../../jobs/run-scheduler.ts';
import { csvRecord } from '../../lib/csv.ts';
import { createProviderLimiters, Semaphore } from '../../lib/throttle.ts';
import { suggestionToStore } from '../../rules/publishable.ts';
import { findDefaultLanguage } from '../accounts/queries.ts';
import {
  getCreditBalance,
  refundReservationInFull,
  reserveCredits,
  settleReservation,
} from '../credits/service.ts';
import { discardPreview, makePreview, type StoredPreview, storePreview } from '../files/preview.ts';
import type { FilesService } from '../files/service.ts';
import { findAltTextsOf } from '../library/queries.ts';
import { findLibraryImage, setLibraryAltText } from '../library/service.ts';
import { type BatchRunnerDeps, createBatchRunner, type ItemLander } from './batch-runner.ts';
import { classifyFailure, type DescribeDeps, describeOnce } from './describe.ts';
import { listBatchItems } from './queries.ts';
import type { ImportCheck, ImportRow } from './read-import.ts';
import {
  adoptOrphanedBatches,
  approveContentResultOf,
  findBatchOf,
  insertBatch,
  insertItems,
  landItem,
  listFailuresOf,
  listRecentBatchesOf,
  listUnfinishedBatchIds,
} from './repository.ts';

/** How long a finished batch still shows in GET /images/batches (the progress panel's last look). */
export const RECENT_BATCH_SECONDS = 60;

/**
 * How long a regenerate may take before its open reservation counts as abandoned (a stopped
 * process): well past one engine call with its retries.
 */
export const REGENERATE_LEASE_SECONDS = 15 * 60;

/** An upload already checked (size, magic bytes) and saved as a temporary file. */
export type SavedUpload = { key: string; url: string; fileName: string };

/** One image of a new batch. */
export type NewBatchItem = {
  /** Set when the source links its own rows to the item (an audit image to its fix). */
  id?: string;
  src: string;
  fileKey: string | null;
  context: GenerationItemContext;
  externalId?: string | null;
  language?: string | null;
  keywords?: string[] | null;
};

/** A batch's images: a list, or (a CSV import) their count and the rows read back a chunk at a time. */
type BatchItems = NewBatchItem[] | { count: number; chunks: () => AsyncIterable<NewBatchItem[]> };

/** What startGenerationBatch stores: whose, from where, which images, and the prompt and page they share. */
export type NewGenerationBatch = {
  userId: string;
  /** Chooses the lander its finished images go to (registerLander) and the reservation's purpose. */
  source: GenerationSource;
  items: BatchItems;
  prompt?: string | null;
  pageUrl?: string | null;
};

/** A batch stored by startGenerationBatch; it runs once the caller's transaction has committed. */
export type StartedGenerationBatch = {
  batchId: string;
  status: GenerationBatch['status'];
  total: number;
  /** The balance after the reservation. */
  balance: number;
};

/** Rows of an import read back and inserted per chunk. */
const IMPORT_CHUNK = 1_000;

/** What a request says about the language and keywords of its alt text. */
type Wording = { language?: string; keywords?: string[] };

const batchNotFound = () => notFound('There is no such generation batch.');

/** Orphaned batches one sweep takes over at most (the rest at the next): as many as a worker's batch jobs. */
const ADOPT_PER_SWEEP = 4;

/** Rows of results.csv read per query. */
const RESULTS_PAGE = 1_000;

function toProgress(
  batch: GenerationBatch,
  failures: { src: string; error: string | null }[],
): BatchProgress {
  return {
    id: batch.id,
    status: batch.status,
    total: batch.total,
    completed: batch.completed,
    failed: batch.failed,
    creditsReserved: batch.total,
    createdAt: batch.createdAt.toISOString(),
    finishedAt: batch.finishedAt?.toISOString() ?? null,
    failures: failures.map((failure) => ({ src: failure.src, error: failure.error ?? 'Failed' })),
  };
}

function dropEmpty(context: GenerationItemContext): GenerationItemContext {
  return Object.fromEntries(
    Object.entries(context).filter(
      ([, value]) => value !== undefined && value !== null && (typeof value !== 'string' || value.trim()),
    ),
  );
}

export type GenerationService = ReturnType<typeof createGenerationService>;

/**
 * Bulk alt-text generation: batches paid up front (one credit per image, refunded per image that
 * fails), worked in the background by durable jobs, with their progress readable by the owner.
 */
export function createGenerationService(deps: {
  db: Database;
  queue: JobQueue;
  files: FilesService;
  engine: AltTextEngine;
  config: Pick<AppConfig, 'fetch' | 'generation'>;
  /** Whether this process works batches (PROCESS_ROLE all or worker). */
  runsWorkers: boolean;
  logger: FastifyBaseLogger;
  /** Runs in the transaction that closes a batch (outgoing webhooks, ADR 029). */
  onBatchFinished?: BatchRunnerDeps['onBatchFinished'];
}) {
  const { db, queue, files, engine, config, logger } = deps;
  const limiterFor = createProviderLimiters(config.generation.rateLimitPerMinute);
  const describeDeps: DescribeDeps = {
    engine,
    files,
    fetch: config.fetch,
    limiter: limiterFor(engine.name),
    engineSlots: new Semaphore(config.generation.concurrency),
    logger,
  };
  /** The one landing generation does itself: the library row, in one guarded statement (ADR 015). */
  const landInLibrary: ItemLander = (executor, claim, item) => {
    // Nothing the engine can stand behind is stored as no alt, for a person's words (ADR 068).
    const stored = suggestionToStore(item.result, item.context);
    return landItem(executor, claim, {
      id: randomUUID(),
      userId: item.userId,
      src: item.src,
      altText: stored.altText,
      origin: item.result.origin ?? 'ai',
      engine: item.result.engine,
      model: item.result.model,
      context: item.context,
      fileKey: item.fileKey,
      // An upload's original name (the multipart reader sanitised it); an address names its own image.
      fileName: item.fileKey ? (item.context?.fileName ?? null) : null,
      confidence: item.result.confidence,
      reasons: item.result.reasons,
      needsReview: item.result.needsReview || stored.needsWords,
      longDescription: stored.needsWords ? null : (item.result.longDescription ?? null),
      thumbnailKey: item.thumbnail?.key ?? null,
      thumbnailUrl: item.thumbnail?.url ?? null,
    });
  };
  /**
   * How each source's finished images land (ADR 043). Registered when the process is built, not
   * per request: a batch outlives its request (a resumed or adopted batch runs in another process).
   */
  const landers = new Map<GenerationSource, ItemLander>([
    ['scrape', landInLibrary],
    ['upload', landInLibrary],
    ['csv', landInLibrary],
  ]);
  const runner = createBatchRunner({
    ...describeDeps,
    db,
    config: config.generation,
    landerFor: (source) => landers.get(source),
    onBatchFinished: deps.onBatchFinished,
  });
  /** This process's run of each batch: a job for a batch already running here joins that run. */
  const runs = createRunScheduler({
    run: (batchId, stopping) => runner.runBatch(batchId, stopping),
    onKickFailed: (error, batchId) =>
      logger.error({ err: error, batch: batchId }, 'generation batch run failed'),
  });

  /**
   * The language a request's alt text is written in: its own, else the account's default, else
   * the engine's (undefined). The offline engine writes English only: any other is a 422 here,
   * before anything is reserved.
   */
  async function resolveLanguage(userId: string, requested: string | undefined): Promise<string | undefined> {
    const language = requested ?? (await findDefaultLanguage(db, userId)) ?? undefined;
    refuseUnwritable(language);
    return language;
  }

  function refuseUnwritable(language: string | null | undefined) {
    if (language && engine.name === 'offline' && !isEnglish(language))
      throw new AppError(errorCodes.languageNotSupported, offlineLanguageMessage);
  }

  /**
   * The one way paid generation starts (ADR 043), inside the caller's transaction, so that what the
   * source records about the batch (an audit image's link to its item) commits with it or not at
   * all: refuses a language the engine cannot write (422), reserves one credit per image (402 and
   * nothing written when short), stores the batch and its items, keeps the uploads they use and
   * queues the durable job. After the commit the caller hands the id to `runAfterCommit`.
   */
  async function startGenerationBatch(
    tx: Transaction,
    batch: NewGenerationBatch,
  ): Promise<StartedGenerationBatch> {
    if (!landers.has(batch.source))
      throw new Error(`No lander is registered for generation batches of source ${batch.source}.`);
    const { items } = batch;
    // An audit's items carry their page's language: the engine writes in it, quotes the page's own
    // words or asks for a person's (ADR 071). The account's language was checked by resolveLanguage.
    if (Array.isArray(items) && batch.source !== 'audit')
      for (const item of items) refuseUnwritable(item.language);
    const total = Array.isArray(items) ? items.length : items.count;
    const { reservationId, balance } = await reserveCredits(
      tx,
      batch.userId,
      total,
      `generation:${batch.source}`,
    );
    const row = await insertBatch(tx, {
      userId: batch.userId,
      source: batch.source,
      prompt: batch.prompt || null,
      pageUrl: batch.pageUrl || null,
      reservationId,
      total,
    });
    let position = 0;
    for await (const chunk of Array.isArray(items) ? [items] : items.chunks()) {
      // A list was checked before the reservation; a file's rows are checked as they are read (the
      // transaction then stores nothing).
      if (!Array.isArray(items)) for (const item of chunk) refuseUnwritable(item.language);
      await insertItems(
        tx,
        chunk.map((item) => ({ batchId: row.id, position: position++, ...item })),
      );
      // Uploads were saved as temporary files; their batch now uses them.
      await files.keepFiles(
        tx,
        chunk.flatMap((item) => (item.fileKey ? [item.fileKey] : [])),
      );
    }
    if (position !== total) throw new Error(`batch of ${total} images stored ${position}`);
    await queue.send(jobNames.generateBatch, { batchId: row.id }, { tx });
    return { batchId: row.id, status: row.status, total, balance };
  }

  /**
   * Starts a committed batch in this process when it works batches. The job is the durable copy;
   * starting here as well saves the queue's polling delay. Two runs of one batch share its images
   * safely (batch-runner.ts).
   */
  function runAfterCommit(batchId: string): void {
    if (deps.runsWorkers) runs.kick(batchId);
  }

  /** Scrape, upload and CSV import: startGenerationBatch in a transaction of its own, then the run. */
  async function startBatch(batch: NewGenerationBatch): Promise<StartBatchResponse> {
    const started = await db.transaction((tx) => startGenerationBatch(tx, batch));
    runAfterCommit(started.batchId);
    return {
      success: true,
      message: batchStartedMessage(started.total),
      batchId: started.batchId,
      total: started.total,
      creditsReserved: started.total,
      remainingCredits: started.balance,
      status: started.status,
    };
  }

  /**
   * A batch whose process died keeps its pg-boss job active until the job expires (3 h): a worker
   * killed with SIGKILL never hands it back. Every lease, each worker runs the batches under way with
   * no claim renewed within the lease and no run here (ADR 036).
   */
  let sweep: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> | undefined;
  async function adoptOrphans(): Promise<string[]> {
    if (runs.isStopping()) return [];
    const ids = await adoptOrphanedBatches(
      db,
      config.generation.leaseSeconds,
      runs.runningIds(),
      ADOPT_PER_SWEEP,
    );
    if (runs.isStopping()) return ids;
    for (const batchId of ids) runs.kick(batchId);
    if (ids.length > 0) logger.warn({ batches: ids }, 'adopted generation batches whose worker stopped');
    return ids;
  }

  return {
    /** POST /images/generate-alt-text: the scraped images the user selected. */
    async startScrapeBatch(
      userId: string,
      request: z.output<typeof generateAltTextRequestSchema>,
    ): Promise<StartBatchResponse> {
      const language = await resolveLanguage(userId, request.language);
      // `x.png` and `x.png#frag` are one image: one row, one credit.
      const items = uniqueImageUrls(request.selectedImages, (image) => image.src).map((image) => ({
        src: normalizeImageUrl(image.src),
        fileKey: null,
        context: dropEmpty({ ...image.context, existingAlt: image.alt }),
        language: language ?? null,
        keywords: request.keywords?.length ? request.keywords : null,
      }));
      return startBatch({
        userId,
        source: 'scrape',
        prompt: request.chatGptPrompt,
        pageUrl: request.pageUrl,
        items,
      });
    },

    /** POST /images/upload-and-generate: files already checked and saved as temporary uploads. */
    async startUploadBatch(
      userId: string,
      fields: { chatGptPrompt?: string } & Wording,
      uploads: SavedUpload[],
    ): Promise<StartBatchResponse> {
      const language = await resolveLanguage(userId, fields.language);
      const items = uploads.map((upload) => ({
        src: upload.url,
        fileKey: upload.key,
        context: dropEmpty({ fileName: upload.fileName }),
        language: language ?? null,
        keywords: fields.keywords?.length ? fields.keywords : null,
      }));
      // Each item's fileKey is its upload: the batch's transaction keeps those files.
      return startBatch({ userId, source: 'upload', prompt: fields.chatGptPrompt, items });
    },

    /**
     * POST /images/import-csv: the file's accepted rows as one ordinary batch. A row's own
     * language wins over the form's, then the account's. 402 naming the credits the rows need when
     * the balance is short; nothing is stored then. The rows are read back from `reading.accepted`
     * a chunk at a time; the caller removes it.
     */
    async startImportBatch(
      userId: string,
      fields: { chatGptPrompt?: string; language?: string },
      reading: ImportCheck,
    ): Promise<ImportCsvResponse> {
      const language =
        reading.withoutLanguage > 0 ? await resolveLanguage(userId, fields.language) : undefined;
      if (fields.language) refuseUnwritable(fields.language);
      if (reading.accepted.count === 0)
        throw new AppError(errorCodes.badRequest, 'No row of the file could be imported.', {
          errors: reading.rejected
            .slice(0, 20)
            .map((row) => ({ path: `line ${row.line}`, message: row.reason })),
        });
      const needed = reading.accepted.count;
      const balance = (await getCreditBalance(db, userId)) ?? 0;
      const short = () =>
        new AppError(
          errorCodes.insufficientCredits,
          `Insufficient credits: this import needs ${needed.toLocaleString('en-US')} ${needed === 1 ? 'credit' : 'credits'} and your balance is ${balance.toLocaleString('en-US')}. Nothing was imported.`,
          { creditsNeeded: needed },
        );
      if (balance < needed) throw short();
      const toItem = (row: ImportRow): NewBatchItem => ({
        src: row.src,
        fileKey: null,
        context: dropEmpty({
          pageUrl: row.pageUrl ?? undefined,
          existingAlt: row.existingAlt ?? undefined,
          caption: row.caption ?? undefined,
        }),
        externalId: row.externalId,
        language: row.language ?? language ?? null,
        keywords: row.keywords,
      });
      async function* chunks() {
        for await (const rows of reading.accepted.chunks(IMPORT_CHUNK)) yield rows.map(toItem);
      }
      let started: StartBatchResponse;
      try {
        started = await startBatch({
          userId,
          source: 'csv',
          prompt: fields.chatGptPrompt,
          items: { count: needed, chunks },
        });
      } catch (error) {
        // Spent between the check and the reservation: the same 402, with the count.
        if (error instanceof AppError && error.code === errorCodes.insufficientCredits) throw short();
        throw error;
      }
      return {
        success: true,
        batchId: started.batchId,
        accepted: needed,
        duplicates: reading.duplicates,
        rejected: reading.rejected,
        rejectedTotal: reading.rejectedTotal,
        creditsReserved: started.creditsReserved,
        remainingCredits: started.remainingCredits,
      };
    },

    /** GET /images/batches/{id}/results.csv: the owner's batch, streamed a page of rows at a time. */
    async exportResults(userId: string, batchId: string) {
      const batch = await findBatchOf(db, userId, batchId);
      if (!batch) throw batchNotFound();
      async function* rows(): AsyncGenerator<string> {
        yield csvRecord(['id', 'image_url', 'alt_text', 'status', 'long_description', 'origin']);
        let after = -1;
        for (;;) {
          const page = await listBatchItems(db, batchId, { afterPosition: after, limit: RESULTS_PAGE });
          if (page.length === 0) return;
          const alts = await findAltTextsOf(
            db,
            page.flatMap((row) => (row.libraryImageId ? [row.libraryImageId] : [])),
          );
          yield page
            .map((row) => {
              const alt = row.libraryImageId ? alts.get(row.libraryImageId) : undefined;
              return csvRecord([
                row.externalId ?? '',
                row.src,
                alt?.altText ?? '',
                row.status,
                alt?.longDescription ?? '',
                alt?.origin ?? '',
              ]);
            })
            .join('');
          after = page[page.length - 1]?.position ?? after;
          if (page.length < RESULTS_PAGE) return;
        }
      }
      return { batchId: batch.id, rows: rows() };
    },

    async getProgress(userId: string, batchId: string): Promise<BatchProgress> {
      const batch = await findBatchOf(db, userId, batchId);
      if (!batch) throw batchNotFound();
      return toProgress(batch, batch.failed > 0 ? await listFailuresOf(db, [batch.id]) : []);
    },

    async listBatches(userId: string): Promise<BatchProgress[]> {
      const batches = await listRecentBatchesOf(db, userId, RECENT_BATCH_SECONDS);
      const failures = await listFailuresOf(
        db,
        batches.filter((batch) => batch.failed > 0).map((batch) => batch.id),
      );
      return batches.map((batch) =>
        toProgress(
          batch,
          failures.filter((failure) => failure.batchId === batch.id),
        ),
      );
    },

    /** POST /images/altText/{id}/regenerate: one credit, given back if no new alt text lands. */
    async regenerate(
      userId: string,
      imageId: string,
      prompt: string | undefined,
      wording: Wording = {},
    ): Promise<RegenerateAltTextResponse> {
      const image = await findLibraryImage(db, userId, imageId);
      const language = await resolveLanguage(userId, wording.language);
      // The reservation is regenerate's record (ADR 024): a process that stops before settling or
      // refunding leaves it open, and the recovery job refunds it once its lease has run out.
      const { reservationId } = await db.transaction((tx) =>
        reserveCredits(tx, userId, 1, 'regenerate', { leaseSeconds: REGENERATE_LEASE_SECONDS }),
      );
      // A row stored before previews existed gets one now (ADR 051).
      let preview: Promise<Buffer | null> | undefined;
      let thumbnail: StoredPreview | null = null;
      try {
        const result = await describeOnce(describeDeps, {
          src: image.src,
          fileKey: image.fileKey,
          context: (image.context ?? {}) as GenerationItemContext,
          prompt,
          language,
          keywords: wording.keywords,
          ...(image.thumbnailUrl
            ? {}
            : {
                onImage: (bytes: Uint8Array) => {
                  preview = makePreview(bytes);
                },
              }),
        });
        thumbnail = await storePreview(files, userId, preview);
        const record = await db.transaction(async (tx) => {
          // Nothing it can stand behind is stored as no alt, for a person's words (ADR 068).
          const stored = suggestionToStore(result, image.context ?? undefined);
          const row = await setLibraryAltText(tx, userId, imageId, {
            altText: stored.altText,
            origin: result.origin ?? 'ai',
            engine: result.engine,
            model: result.model,
            confidence: result.confidence,
            reasons: result.reasons,
            needsReview: result.needsReview || stored.needsWords,
            longDescription: stored.needsWords ? null : (result.longDescription ?? null),
            thumbnail,
          });
          // False only when the recovery job refunded it first (a call slower than the lease): the
          // text still lands, and the credit stays refunded.
          if (!(await settleReservation(tx, reservationId)))
            logger.warn({ image: imageId }, 'regenerate landed after its credit was recovered');
          return row;
        });
        const made = thumbnail;
        thumbnail = null;
        // Another request gave the row a preview in the meantime: this one is not needed.
        if (made && record.thumbnailUrl !== made.url) await discardPreview(files, made);
        return { success: true, image: record, remainingCredits: (await getCreditBalance(db, userId)) ?? 0 };
      } catch (error) {
        await discardPreview(files, thumbnail);
        const failure = new WorkFailedError(error instanceof AppError ? error : classifyFailure(error), {
          refundedCredits: 1,
        });
        // Once: a refund the recovery job already made is not made again.
        await db.transaction((tx) => refundReservationInFull(tx, reservationId, failure.message));
        logger.warn({ err: error, image: imageId }, 'regenerate failed; credit refunded');
        throw failure;
      }
    },

    startGenerationBatch,
    runAfterCommit,

    /**
     * A person accepted or wrote the words of a batch image (an audit fix's review): they become
     * what a later copy of the same bytes in the same context is answered with (ADR 073).
     */
    recordApprovedWords(
      tx: Transaction,
      userId: string,
      itemId: string,
      words: { altText: string; origin: AltOrigin; longDescription: string | null },
    ): Promise<void> {
      return approveContentResultOf(tx, userId, itemId, words);
    },

    /** The language a source's batch is written in (its own, else the account's); 422 when unwritable. */
    resolveLanguage,

    /**
     * How finished images of `source` land (ADR 043): registered once when the process is built,
     * by the module that owns the source (the audit registers its fixes' lander).
     */
    registerLander(source: GenerationSource, lander: ItemLander): void {
      if (landers.has(source))
        throw new Error(`A lander for generation source ${source} is registered already.`);
      landers.set(source, lander);
    },

    /** The lander of a source (a test's second runner lands as this process does). */
    landerFor: (source: GenerationSource): ItemLander | undefined => landers.get(source),

    /** The job handler: works one batch to its end (or until this process stops). */
    runBatch(batchId: string): Promise<void> {
      return runs.run(batchId);
    },

    /** On worker start: queue every unfinished batch again (a process may have died mid-way). */
    async resumeUnfinishedBatches(): Promise<number> {
      const ids = await listUnfinishedBatchIds(db);
      for (const batchId of ids) await queue.send(jobNames.generateBatch, { batchId });
      if (ids.length > 0) logger.info({ batches: ids.length }, 'resuming unfinished generation batches');
      return ids.length;
    },

    /**
     * Starts the periodic adoption of orphaned batches (worker roles, once). Each sweep is one
     * indexed query; a sweep still running when the next is due is not doubled.
     */
    startAdoptingOrphans(): void {
      if (sweep || runs.isStopping()) return;
      sweep = setInterval(() => {
        sweeping ??= adoptOrphans()
          .catch((error) => logger.warn({ err: error }, 'looking for orphaned generation batches failed'))
          .finally(() => {
            sweeping = undefined;
          });
      }, config.generation.leaseSeconds * 1000);
      sweep.unref();
    },

    /** Stops claiming images and waits for the ones under way (app close). */
    async close(): Promise<void> {
      runs.stop();
      clearInterval(sweep);
      await sweeping;
      await runs.close();
    },
  };
}

export type { GenerateAltTextRequest };
