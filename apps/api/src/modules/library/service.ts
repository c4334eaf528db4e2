import type { DeleteLibraryImagesResponse, LibraryImageRecord } from '@altwise/contracts/library';
import { DEFAULT_LIBRARY_PAGE_SIZE } from '@altwise/contracts/limits';
import type { PageContext } from '@altwise/contracts/page-context';
import { type AltOrigin, approvedOrigin, editedOrigin } from '@altwise/contracts/provenance';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbExecutor } from '../../db/client.ts';
import type { LibraryImage } from '../../db/tables/library-images.ts';
import type { AltTextReason } from '../../engines/types.ts';
import { notFound, unpublishableAlt } from '../../errors.ts';
import { setBounded } from '../../lib/bounded-map.ts';
import { fileNameOfAddress } from '../../lib/file-names.ts';
import { judgePublishable, type PublishableVerdict } from '../../rules/publishable.ts';
import {
  countLibraryImagesOf,
  deleteLibraryImagesOf,
  findLibraryImageOf,
  insertLibraryImages,
  type LibraryFilter,
  type LibraryKey,
  type LibraryKeyPageStatement,
  type LibraryPageStatement,
  type ListedLibraryImage,
  listingSize,
  listLibraryImages,
  listLibraryImagesPage,
  prepareLibraryPage,
  prepareLibraryPageFromKey,
  readLibraryBoundaries,
  readLibraryCounts,
  readLibraryPage,
  readLibraryPageFromKey,
  selectLibraryImagesOf,
  updateLibraryImage,
} from './repository.ts';

/** A deep page walks fewer than this many index entries from its nearest cached boundary key. */
const BOUNDARY_STEP = 1000;
/** Listings whose boundary keys a process keeps (each ~100 keys at 100,000 images); oldest dropped. */
const MAX_CACHED_LISTINGS = 1000;

/** A listing's boundary keys, newest first (keys[j] was the row at j·BOUNDARY_STEP), as read. */
type BoundaryKeys = { keys: LibraryKey[]; total: number; reorderVersion: number };

/**
 * The nearest boundary key at or before `offset` in a listing of `total` rows that has only grown
 * at its newest end since the keys were read (by `total − keys.total` rows, each key as many rows
 * further down); none for a page among the rows added since.
 */
function startBefore(
  { keys, total: keysTotal }: BoundaryKeys,
  offset: number,
  total: number,
): { key: LibraryKey; position: number } | undefined {
  const added = total - keysTotal;
  if (offset < added) return undefined;
  const index = Math.min(Math.floor((offset - added) / BOUNDARY_STEP), keys.length - 1);
  const key = keys[index];
  return key && { key, position: index * BOUNDARY_STEP + added };
}

const imageNotFound = () => notFound('There is no such image in your library.');

/**
 * Whether a library image's alt text may go live (ADR 067), from what is stored. A library row has no
 * decorative flag of its own: an empty alt a person set (origin `human`, the audit's "Mark as
 * decorative") is decorative on purpose; an empty alt from an engine needs words (ADR 068).
 * Exported for the publishing paths (exports, downloads, webhooks, WordPress, the CLI).
 */
export function judgeLibraryImage(
  row: Pick<LibraryImage, 'altText' | 'origin' | 'reasons' | 'src'> &
    Partial<Pick<LibraryImage, 'context' | 'confidence'>>,
): PublishableVerdict {
  return judgePublishable({
    altText: row.altText,
    decorative: row.altText.trim() === '' && row.origin === 'human',
    origin: row.origin,
    evidenceRecorded: !(row.reasons == null || (row.reasons.length === 0 && row.confidence == null)),
    reasons: row.reasons ?? [],
    context: {
      pageTitle: row.context?.pageTitle,
      heading: row.context?.heading,
      fileName: row.context?.fileName ?? row.src.replace(/[?#].*$/, '').replace(/^.*\//, ''),
      siteName: row.context?.siteName,
    },
  });
}

function toRecord(row: ListedLibraryImage): LibraryImageRecord {
  const verdict = judgeLibraryImage(row);
  const needsWords = !verdict.publishable && verdict.code === 'needs-words';
  return {
    id: row.id,
    src: row.src,
    alt_text: row.altText,
    origin: row.origin,
    confidence: row.confidence,
    needsReview: row.needsReview,
    reasons: row.reasons ?? [],
    needsWords,
    needsWordsReason: needsWords ? verdict.message : null,
    publishable: verdict.publishable,
    longDescription: row.longDescription ?? null,
    thumbnailUrl: row.thumbnailUrl,
    fileName: displayFileName(row),
  };
}

/**
 * The name a person knows an image by: an upload's original file name, else the last path segment of
 * its address (a scraped or imported image); null when neither gives one. Exports name files by it.
 */
export function displayFileName(row: Pick<LibraryImage, 'fileName' | 'src'>): string | null {
  return row.fileName ?? fileNameOfAddress(row.src);
}

/** What an engine said about an alt text it wrote (AltTextResult): stored with the row. */
export type AltTextVerdict = {
  /** 0..1; null when unknown (rows written before engines reported it). */
  confidence?: number | null;
  reasons?: AltTextReason[] | null;
  needsReview?: boolean;
  /** A chart's or complex image's long description (ADR 050); null for other images. */
  longDescription?: string | null;
};

export type LibraryService = ReturnType<typeof createLibraryService>;

/** One alt text that landed. (The batch runner lands its rows in one guarded statement of its own.) */
export type NewLibraryImageRow = {
  src: string;
  altText: string;
  /** Whose words the alt text is (ADR 057); `ai` when left out. */
  origin?: AltOrigin;
  engine?: string | null;
  model?: string | null;
  batchId?: string | null;
  /** What the engine was told; regenerate reuses it. */
  context?: PageContext | null;
  /** The stored upload behind `src`, deleted with the row. */
  fileKey?: string | null;
  /** The upload's original file name, sanitised; null for an image added by its address. */
  fileName?: string | null;
  /**
   * A preview another record owns (an accepted audit suggestion's, ADR 051): shown with the row, not
   * deleted with it; the owner's account deletion removes it.
   */
  thumbnailUrl?: string | null;
} & AltTextVerdict;

/** Stores alt texts in the user's library, inside the caller's transaction. */
export async function addLibraryImages(tx: DbExecutor, userId: string, rows: NewLibraryImageRow[]) {
  return insertLibraryImages(
    tx,
    rows.map((row) => ({
      userId,
      src: row.src,
      altText: row.altText,
      origin: row.origin ?? 'ai',
      engine: row.engine ?? null,
      model: row.model ?? null,
      batchId: row.batchId ?? null,
      context: row.context ?? null,
      fileKey: row.fileKey ?? null,
      fileName: row.fileName ?? null,
      thumbnailUrl: row.thumbnailUrl ?? null,
      confidence: row.confidence ?? null,
      reasons: row.reasons ?? null,
      needsReview: row.needsReview ?? false,
      longDescription: row.longDescription ?? null,
    })),
  );
}

/** How many images the user's library holds (the profile's imagecount). */
export async function countLibraryImages(db: DbExecutor, userId: string): Promise<number> {
  return countLibraryImagesOf(db, userId);
}

/** One of the user's images (for regenerate); 404 when it is not theirs or does not exist. */
export async function findLibraryImage(db: DbExecutor, userId: string, id: string): Promise<LibraryImage> {
  const row = await findLibraryImageOf(db, userId, id);
  if (!row) throw imageNotFound();
  return row;
}

/** The user's images among `ids`, in that order; others' ids and unknown ids are left out. */
export async function findLibraryImagesOf(
  db: DbExecutor,
  userId: string,
  ids: string[],
): Promise<LibraryImage[]> {
  return selectLibraryImagesOf(db, userId, [...new Set(ids.map((id) => id.toLowerCase()))]);
}

/**
 * Replaces an image's alt text (a regenerate inside its transaction), with the new result's confidence,
 * reasons and review flag; 404 when it is not the user's.
 */
export async function setLibraryAltText(
  tx: DbExecutor,
  userId: string,
  id: string,
  change: {
    altText: string;
    origin: AltOrigin;
    engine?: string | null;
    model?: string | null;
    /** A preview made on the way (regenerate), kept only when the row has none (ADR 051). */
    thumbnail?: { key: string; url: string } | null;
  } & AltTextVerdict,
): Promise<LibraryImageRecord> {
  const row = await updateLibraryImage(tx, userId, id, change);
  if (!row) throw imageNotFound();
  return toRecord(row);
}

/**
 * Replaces an image's alt text and verdict inside the caller's transaction (an accepted audit
 * suggestion the user landed before); undefined, changing nothing, when the row is not the user's
 * any more (deleted in the library), so the caller can add it again.
 */
export async function replaceLibraryAltText(
  tx: DbExecutor,
  userId: string,
  id: string,
  change: {
    altText: string;
    origin: AltOrigin;
    engine?: string | null;
    model?: string | null;
  } & AltTextVerdict,
): Promise<{ id: string } | undefined> {
  const row = await updateLibraryImage(tx, userId, id, change);
  return row ? { id: row.id } : undefined;
}

/** The image library: only ever the signed-in user's own rows. */
export function createLibraryService(deps: {
  db: Database;
  /** Deletes an uploaded image's stored file once its library row is gone. */
  deleteFile: (key: string) => Promise<void>;
  logger: FastifyBaseLogger;
}) {
  const { db, deleteFile, logger } = deps;
  /**
   * Per listing (user and filter): the version and reorderVersion its last deep page saw, and the
   * keys of every BOUNDARY_STEP-th row with the listing's total and reorderVersion when they were
   * read (ADR 032, ADR 040's addendum).
   */
  type CachedListing = { version: number; reorderVersion: number; keys?: BoundaryKeys };
  const boundaries = new Map<string, CachedListing>();
  /** Keeps a listing's entry as the most recently used, dropping the least recently used beyond the cap. */
  const remember = (cacheKey: string, entry: CachedListing) =>
    setBounded(boundaries, cacheKey, entry, MAX_CACHED_LISTINGS);
  /**
   * The cached keys of a listing if they are still right at these counts (ADR 040's addendum): the
   * same reorderVersion means every change since they were read added rows newer than all of them,
   * so each is `total − keys.total` rows further down.
   */
  const validKeys = (cached: CachedListing | undefined, counts: { reorderVersion: number }, total: number) =>
    cached?.keys && cached.keys.reorderVersion === counts.reorderVersion && cached.keys.total <= total
      ? cached.keys
      : undefined;
  /** Per filter, the one statement that answers a shallow page (ADR 040), built once. */
  const pageStatements: Record<'all' | 'review' | 'reviewed', LibraryPageStatement> = {
    all: prepareLibraryPage(db, {}, BOUNDARY_STEP, 'library_page_all'),
    review: prepareLibraryPage(db, { needsReview: true }, BOUNDARY_STEP, 'library_page_review'),
    reviewed: prepareLibraryPage(db, { needsReview: false }, BOUNDARY_STEP, 'library_page_reviewed'),
  };
  /** Per filter, the one statement that answers a deep page from a cached key (ADR 040), built once. */
  const keyPageStatements: Record<'all' | 'review' | 'reviewed', LibraryKeyPageStatement> = {
    all: prepareLibraryPageFromKey(db, {}, 'library_key_page_all'),
    review: prepareLibraryPageFromKey(db, { needsReview: true }, 'library_key_page_review'),
    reviewed: prepareLibraryPageFromKey(db, { needsReview: false }, 'library_key_page_reviewed'),
  };
  const listingOf = (filter: LibraryFilter) =>
    filter.needsReview === undefined ? 'all' : filter.needsReview ? 'review' : 'reviewed';

  return {
    /** The caller's images, newest first (a `?userId=` naming anyone else never gets here: the gate). */
    async listImages(userId: string, filter: LibraryFilter = {}): Promise<LibraryImageRecord[]> {
      const rows = await listLibraryImages(db, userId, filter);
      return rows.map(toRecord);
    },

    /** One page, newest first, and how many rows the whole listing has (for the pager). */
    async listImagesPage(
      userId: string,
      paging: { page: number; pageSize?: number },
      filter: LibraryFilter = {},
    ): Promise<{ images: LibraryImageRecord[]; total: number }> {
      const limit = paging.pageSize ?? DEFAULT_LIBRARY_PAGE_SIZE;
      const offset = (paging.page - 1) * limit;
      // A page within BOUNDARY_STEP entries of either end, or past the end: total and rows in one
      // statement, one snapshot, one round trip (ADR 040).
      const listing = listingOf(filter);
      const shallow = await readLibraryPage(pageStatements[listing], userId, { offset, limit });
      if (!shallow.deep) return { images: shallow.rows.map(toRecord), total: shallow.total };
      const cacheKey = `${userId}:${filter.needsReview ?? 'all'}`;
      // A deep page that the cached keys can serve at the counts the statement saw: one more statement,
      // gated on the counts' version being still the one seen, so its rows go with that total
      // (ADR 040's second addendum).
      const cached = boundaries.get(cacheKey);
      const cachedKeys = validKeys(cached, shallow, shallow.total);
      const keyStart = cachedKeys && startBefore(cachedKeys, offset, shallow.total);
      if (cached && keyStart) {
        const rows = await readLibraryPageFromKey(keyPageStatements[listing], userId, {
          offset,
          limit,
          start: keyStart,
          version: shallow.version,
        });
        if (rows) {
          remember(cacheKey, { ...cached, version: shallow.version, reorderVersion: shallow.reorderVersion });
          return { images: rows.map(toRecord), total: shallow.total };
        }
      }
      // Otherwise (no keys that serve it, or a write landed in between): the total comes from the
      // counts the triggers keep; the page starts from the nearest cached boundary key (ADR 032), still
      // right after rows were only appended at the newest end (ADR 040's addendum). Counts, boundaries
      // and page share one snapshot.
      const { rows, total } = await db.transaction(
        async (tx) => {
          const counts = await readLibraryCounts(tx, userId);
          const total = listingSize(counts, filter);
          const skip = Math.min(offset, Math.max(0, total - offset - limit));
          let start: { key: LibraryKey; position: number } | undefined;
          if (skip >= BOUNDARY_STEP && offset < total) {
            const cached = boundaries.get(cacheKey);
            let keys = validKeys(cached, counts, total);
            start = keys && startBefore(keys, offset, total);
            if (
              !start &&
              cached &&
              (cached.version === counts.version || cached.reorderVersion === counts.reorderVersion)
            ) {
              // The keys are read only when a second deep page they cannot serve asks with nothing
              // but appends since the first (at the same version, or the same reorderVersion: keys
              // read now stay valid while a batch lands images); the first walks from the nearer end
              // (at most half the index), so a listing that keeps being reordered (deletes, review
              // flags) does not pay a whole walk per page.
              keys = {
                keys: await readLibraryBoundaries(tx, userId, filter, BOUNDARY_STEP),
                total,
                reorderVersion: counts.reorderVersion,
              };
              start = startBefore(keys, offset, total);
            }
            remember(cacheKey, { version: counts.version, reorderVersion: counts.reorderVersion, keys });
          }
          return {
            rows: await listLibraryImagesPage(tx, userId, { offset, limit, total, start }, filter),
            total,
          };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      return { images: rows.map(toRecord), total };
    },

    /**
     * A person's own wording for one of their images. Writing it is a review, so the flag clears; the
     * engine's confidence and reasons stay, as what the generator saw. The long description changes
     * only when the edit names it (null removes it, ADR 050).
     */
    async editAltText(
      userId: string,
      id: string,
      edit: { altText: string; longDescription?: string | null | undefined },
    ): Promise<LibraryImageRecord> {
      return db.transaction(async (tx) => {
        const before = await findLibraryImageOf(tx, userId, id, true);
        if (!before) throw imageNotFound();
        // The same words are an approval; changed words over an engine's text are `ai-edited` (ADR 057).
        const origin = editedOrigin(before.origin, before.altText, edit.altText);
        const unchanged = origin !== 'ai-edited' && origin !== 'human';
        return setLibraryAltText(tx, userId, id, {
          altText: edit.altText,
          origin,
          // An unchanged text keeps the engine that wrote it; a person's own words name none.
          ...(unchanged ? {} : { engine: 'manual', model: null }),
          needsReview: false,
          ...(edit.longDescription !== undefined ? { longDescription: edit.longDescription } : {}),
        });
      });
    },

    /**
     * A person has looked at the alt text and keeps it: the review flag clears and an engine's text
     * becomes `ai-reviewed` (ADR 057); nothing else changes.
     */
    async approveAltText(userId: string, id: string): Promise<LibraryImageRecord> {
      const before = await findLibraryImageOf(db, userId, id);
      if (!before) throw imageNotFound();
      // Only alt text we can stand behind is approved (ADR 067): an empty or filler one needs words.
      // A person approving the words stands behind them (ADR 068); an empty alt from an engine has no
      // words to approve. Exports and downloads still judge the words before they leave.
      const verdict = judgeLibraryImage({ ...before, origin: approvedOrigin(before.origin) });
      if (!verdict.publishable && verdict.code === 'needs-words')
        throw unpublishableAlt([{ imageId: id, code: verdict.code, message: verdict.message }], 'approve');
      const row = await updateLibraryImage(db, userId, id, {
        needsReview: false,
        approved: true,
      });
      if (!row) throw imageNotFound();
      return toRecord(row);
    },

    /** Deletes the caller's images among `ids`; others' ids are left alone and not counted. */
    async deleteImages(userId: string, ids: string[]): Promise<DeleteLibraryImagesResponse> {
      const deleted = await deleteLibraryImagesOf(db, userId, [
        ...new Set(ids.map((id) => id.toLowerCase())),
      ]);
      // An uploaded image lives only in the library: its file goes with its row. The rows are already
      // gone, so a storage failure is logged, not answered (the file is unreachable from the product).
      // Its stored preview (ADR 051) likewise.
      for (const key of deleted.flatMap((row) => [row.fileKey, row.thumbnailKey])) {
        if (!key) continue;
        await deleteFile(key).catch((error: unknown) =>
          logger.warn({ err: error, key }, 'could not delete an image file'),
        );
      }
      return { success: true, deleted: deleted.length };
    },
  };
}
