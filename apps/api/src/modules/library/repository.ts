import { and, asc, desc, eq, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../db/client.ts';
import {
  type LibraryImage,
  libraryCounts,
  libraryImages,
  type NewLibraryImage,
} from '../../db/tables/library-images.ts';

/** What a library listing shows of a row: the product spec's id, src and alt text, and the review fields. */
export type ListedLibraryImage = Pick<
  LibraryImage,
  | 'id'
  | 'src'
  | 'altText'
  | 'origin'
  | 'confidence'
  | 'needsReview'
  | 'reasons'
  | 'longDescription'
  | 'thumbnailUrl'
  | 'fileName'
>;

const listedColumns = {
  id: libraryImages.id,
  src: libraryImages.src,
  altText: libraryImages.altText,
  origin: libraryImages.origin,
  confidence: libraryImages.confidence,
  needsReview: libraryImages.needsReview,
  reasons: libraryImages.reasons,
  longDescription: libraryImages.longDescription,
  thumbnailUrl: libraryImages.thumbnailUrl,
  fileName: libraryImages.fileName,
};

/** Which of the user's rows a listing covers: all of them, or only those needing review. */
export type LibraryFilter = { needsReview?: boolean };

function rowsOf(userId: string | Placeholder, filter: LibraryFilter): SQL | undefined {
  return and(
    eq(libraryImages.userId, userId),
    // Written out, not a parameter: a prepared statement's generic plan can then still use the
    // partial index on the flagged rows.
    filter.needsReview === undefined
      ? undefined
      : filter.needsReview
        ? sql`${libraryImages.needsReview}`
        : sql`not ${libraryImages.needsReview}`,
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

/**
 * How many of the user's rows a listing covers, from the counts the triggers on library_images keep
 * (ADR 032): one primary-key read instead of count(*) over the library.
 */
export async function countLibraryImagesOf(
  db: DbExecutor,
  userId: string,
  filter: LibraryFilter = {},
): Promise<number> {
  return listingSize(await readLibraryCounts(db, userId), filter);
}

/** How many rows a listing has, from the user's counts. */
export function listingSize(counts: { images: number; needsReview: number }, filter: LibraryFilter): number {
  if (filter.needsReview === undefined) return counts.images;
  return filter.needsReview ? counts.needsReview : counts.images - counts.needsReview;
}

/**
 * Deletes those of `ids` that belong to the user; answers the deleted rows' ids, uploaded files and
 * stored previews.
 */
export async function deleteLibraryImagesOf(
  db: DbExecutor,
  userId: string,
  ids: string[],
): Promise<{ id: string; fileKey: string | null; thumbnailKey: string | null }[]> {
  if (ids.length === 0) return [];
  return db
    .delete(libraryImages)
    .where(and(eq(libraryImages.userId, userId), inArray(libraryImages.id, ids)))
    .returning({
      id: libraryImages.id,
      fileKey: libraryImages.fileKey,
      thumbnailKey: libraryImages.thumbnailKey,
    });
}

/** One of the user's images, or undefined when it is not theirs or does not exist. */
export async function findLibraryImageOf(
  db: DbExecutor,
  userId: string,
  id: string,
  /** Lock the row for the caller's transaction (an edit that reads what it replaces). */
  lock = false,
): Promise<LibraryImage | undefined> {
  const query = db
    .select()
    .from(libraryImages)
    .where(and(eq(libraryImages.userId, userId), eq(libraryImages.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The user's rows among `ids` (others' ids are left out), in the order of `ids`. */
export async function selectLibraryImagesOf(
  db: DbExecutor,
  userId: string,
  ids: string[],
): Promise<LibraryImage[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(libraryImages)
    .where(and(eq(libraryImages.userId, userId), inArray(libraryImages.id, ids)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** What the triggers keep for a user's library (ADR 032, ADR 040's addendum). */
export type LibraryCounts = { images: number; needsReview: number; version: number; reorderVersion: number };

/** The counts the triggers keep for a user's library (ADR 032); zeros when the user has none. */
export async function readLibraryCounts(db: DbExecutor, userId: string): Promise<LibraryCounts> {
  const [row] = await db
    .select({
      images: libraryCounts.images,
      needsReview: libraryCounts.needsReview,
      version: libraryCounts.version,
      reorderVersion: libraryCounts.reorderVersion,
    })
    .from(libraryCounts)
    .where(eq(libraryCounts.userId, userId));
  return row ?? { images: 0, needsReview: 0, version: 0, reorderVersion: 0 };
}

/** A position in the newest-first order: created_at as Postgres prints it (to the microsecond), and id. */
export type LibraryKey = { at: string; id: string };

/**
 * The keys of every `step`-th row of a listing, newest first (keys[j] is the row at position j·step):
 * one index-only walk over the whole listing, so that later pages skip fewer than `step` entries.
 */
export async function readLibraryBoundaries(
  db: DbExecutor,
  userId: string,
  filter: LibraryFilter,
  step: number,
): Promise<LibraryKey[]> {
  const ordered = db
    .select({
      at: sql<Date>`${libraryImages.createdAt}`.as('at'),
      id: sql<string>`${libraryImages.id}`.as('key_id'),
      position:
        sql<number>`row_number() over (order by ${libraryImages.createdAt} desc, ${libraryImages.id} desc) - 1`.as(
          'position',
        ),
    })
    .from(libraryImages)
    .where(rowsOf(userId, filter))
    .as('ordered');
  const rows = await db
    // Printed only for the kept rows (to the microsecond, with its offset: read back exactly).
    .select({ at: sql<string>`${ordered.at}::text`, id: ordered.id })
    .from(ordered)
    .where(sql`${ordered.position} % ${step} = 0`)
    .orderBy(ordered.position);
  return rows;
}

/**
 * One page of the user's images, newest first, given how many rows the listing has (`total`, from
 * the counts). Never an OFFSET over whole rows (ADR 032): with `start`, the key of a row at most a
 * few entries before the page (a cached boundary), the page is a short index-only walk from that key
 * and a keyset seek; without it, the page is read from whichever end of the listing is nearer, so at
 * most half the listing's index is walked. A page past the end is empty.
 */
export async function listLibraryImagesPage(
  db: DbExecutor,
  userId: string,
  page: { offset: number; limit: number; total: number; start?: { key: LibraryKey; position: number } },
  filter: LibraryFilter = {},
): Promise<ListedLibraryImage[]> {
  const { offset, limit, total, start } = page;
  if (offset >= total || limit <= 0) return [];
  const where = rowsOf(userId, filter);
  if (start && start.position <= offset) {
    const from = sql`(${libraryImages.createdAt}, ${libraryImages.id}) <= (${start.key.at}::timestamptz, ${start.key.id}::uuid)`;
    return seek(db, and(where, from), 'newest', offset - start.position, limit);
  }
  const fromNewest = offset <= total - (offset + limit);
  if (fromNewest) return seek(db, where, 'newest', offset, limit);
  // The same rows counted from the oldest end, read oldest first and turned around.
  const fromOldest = total - (offset + limit);
  const rows = await seek(db, where, 'oldest', Math.max(0, fromOldest), limit + Math.min(0, fromOldest));
  return rows.reverse();
}

/** `limit` rows from the `skip`-th on (of those `where` keeps), in the listing's order from one end. */
async function seek(
  db: DbExecutor,
  where: SQL | undefined,
  from: 'newest' | 'oldest',
  skip: number,
  limit: number,
): Promise<ListedLibraryImage[]> {
  const order = from === 'newest' ? desc : asc;
  const query = db
    .select(listedColumns)
    .from(libraryImages)
    .orderBy(order(libraryImages.createdAt), order(libraryImages.id))
    .limit(limit);
  if (skip === 0) return query.where(where);
  // The page's first key: an index-only walk past `skip` entries (no row is read).
  const first = db
    .select({ createdAt: libraryImages.createdAt, id: libraryImages.id })
    .from(libraryImages)
    .where(where)
    .orderBy(order(libraryImages.createdAt), order(libraryImages.id))
    .offset(skip)
    .limit(1);
  const comparison = from === 'newest' ? sql.raw('<=') : sql.raw('>=');
  return query.where(
    and(where, sql`(${libraryImages.createdAt}, ${libraryImages.id}) ${comparison} (${first})`),
  );
}

/** listingSize over library_counts' columns, for a statement that reads the counts itself. */
function listingSizeSql(filter: LibraryFilter): SQL {
  if (filter.needsReview === undefined) return sql`${libraryCounts.images}`;
  return filter.needsReview
    ? sql`${libraryCounts.needsReview}`
    : sql`${libraryCounts.images} - ${libraryCounts.needsReview}`;
}

/**
 * One listing's shallow pages in one statement (ADR 040), prepared once: its values are `userId`,
 * `offset` and `limit`. It reads the listing's total from library_counts and, in the same snapshot,
 * the page as listLibraryImagesPage reads it without a boundary key: from the nearer end, an index-only
 * walk to the page's first key and a keyset seek. Each direction is a branch gated on the counts, so
 * at most one runs, and none when the page is past the end or `deep` (its skip from the nearer end is
 * `maxSkip` or more: the caller then takes the boundary-key path). Always one row with the total,
 * `deep` and the counts row's `version` and `reorder_version` (the image columns null) when no image
 * comes back; rows newest first.
 */
export function prepareLibraryPage(db: Database, filter: LibraryFilter, maxSkip: number, name: string) {
  if (!Number.isSafeInteger(maxSkip) || maxSkip < 0)
    throw new Error(`maxSkip must be a count, not ${maxSkip}`);
  const where = rowsOf(sql.placeholder('userId'), filter);
  const offset = sql`${sql.placeholder('offset')}::int8`;
  const limit = sql`${sql.placeholder('limit')}::int8`;
  const { createdAt, id } = libraryImages;
  const branch = (from: 'newest' | 'oldest', rowLimit: SQL) => {
    const order = sql.raw(from === 'newest' ? 'desc' : 'asc');
    const comparison = sql.raw(from === 'newest' ? '<=' : '>=');
    const gate = sql.raw(from === 'newest' ? 'not plan.from_oldest' : 'plan.from_oldest');
    // The gate is a one-time filter: when it is false the seek never starts. The walk to the first
    // key carries it too: Postgres runs that InitPlan even for a seek that never starts (seen in
    // EXPLAIN ANALYZE: a half-listing walk for a deep page), and then it reads no index entry.
    return sql`(select ${createdAt}, ${id}, ${libraryImages.src},
        ${libraryImages.altText}, ${libraryImages.confidence}, ${libraryImages.needsReview}, ${libraryImages.reasons},
        ${libraryImages.longDescription}, ${libraryImages.thumbnailUrl}, ${libraryImages.origin},
        ${libraryImages.fileName}
      from ${libraryImages}
      where (select plan.reads and ${gate} from plan) and ${where}
        and (${createdAt}, ${id}) ${comparison} (
          select ${createdAt}, ${id} from ${libraryImages} where (select plan.reads and ${gate} from plan) and ${where}
          order by ${createdAt} ${order}, ${id} ${order} offset (select plan.skip from plan) limit 1)
      order by ${createdAt} ${order}, ${id} ${order} limit ${rowLimit})`;
  };
  // The rules of listLibraryImagesPage and of the service's deep-page test, over the counts.
  const statement = sql`(with plan as (
      select total, ${offset} < total and ${limit} > 0 and skip < ${sql.raw(String(maxSkip))} as reads,
        ${offset} < total and skip >= ${sql.raw(String(maxSkip))} as deep,
        ${offset} > total - ${offset} - ${limit} as from_oldest, skip,
        greatest(0, least(${limit}, total - ${offset})) as oldest_limit, version, reorder_version
      from (select total, least(${offset}, greatest(0, total - ${offset} - ${limit})) as skip, version, reorder_version
        from (select coalesce(${listingSizeSql(filter)}, 0)::int8 as total,
            coalesce(${libraryCounts.version}, 0) as version,
            coalesce(${libraryCounts.reorderVersion}, 0) as reorder_version
          from (select) as one left join ${libraryCounts} on ${libraryCounts.userId} = ${sql.placeholder('userId')}
        ) as counts) as skips)
    select plan.total, plan.deep, plan.version, plan.reorder_version, page.*
    from plan left join (
      ${branch('newest', limit)}
      union all
      ${branch('oldest', sql`(select plan.oldest_limit from plan)`)}
    ) as page on true) as library_page`;
  return preparePageStatement(db, statement, name, {
    total: sql<number>`${pageColumn('total')}`.mapWith(Number),
    deep: sql<boolean>`${pageColumn('deep')}`,
    version: sql<number>`${pageColumn('version')}`.mapWith(Number),
    reorderVersion: sql<number>`${pageColumn('reorder_version')}`.mapWith(Number),
  });
}

/** A column of a page statement's `library_page` subquery. */
const pageColumn = (name: string) => sql.raw(`library_page.${name}`);

/**
 * Prepares a page statement (a `library_page` subquery of the page's rows left-joined to one row of
 * what the statement also answers, `head`): the head's columns and the listed image columns (null on
 * the lone row of an empty page), newest first. SQL keeps no order through the join without the
 * ORDER BY, which sorts at most `limit` rows.
 */
function preparePageStatement<Head extends Record<string, SQL.Aliased | SQL>>(
  db: Database,
  statement: SQL,
  name: string,
  head: Head,
) {
  return db
    .select({
      ...head,
      id: sql<string | null>`${pageColumn('id')}`,
      src: sql<string | null>`${pageColumn('src')}`,
      altText: sql<string | null>`${pageColumn('alt_text')}`,
      origin: sql<LibraryImage['origin'] | null>`${pageColumn('origin')}`,
      confidence: sql<number | null>`${pageColumn('confidence')}`.mapWith(libraryImages.confidence),
      needsReview: sql<boolean | null>`${pageColumn('needs_review')}`,
      reasons: sql<LibraryImage['reasons']>`${pageColumn('reasons')}`.mapWith(libraryImages.reasons),
      longDescription: sql<string | null>`${pageColumn('long_description')}`,
      thumbnailUrl: sql<string | null>`${pageColumn('thumbnail_url')}`,
      fileName: sql<string | null>`${pageColumn('file_name')}`,
    })
    .from(statement)
    .orderBy(sql`${pageColumn('created_at')} desc nulls last, ${pageColumn('id')} desc nulls last`)
    .prepare(name);
}

/** A listing's shallow-page statement, as prepareLibraryPage builds it. */
export type LibraryPageStatement = ReturnType<typeof prepareLibraryPage>;

/** A statement's rows that carry an image (a left join's lone row of nulls carries none), as listed. */
function listedRows(
  result: {
    id: string | null;
    src: string | null;
    altText: string | null;
    origin: LibraryImage['origin'] | null;
    confidence: number | null;
    needsReview: boolean | null;
    reasons: LibraryImage['reasons'];
    longDescription: string | null;
    thumbnailUrl: string | null;
    fileName: string | null;
  }[],
): ListedLibraryImage[] {
  const rows: ListedLibraryImage[] = [];
  for (const row of result) {
    if (row.id === null) continue;
    rows.push({
      id: row.id,
      src: row.src as string,
      altText: row.altText as string,
      origin: row.origin ?? 'ai',
      confidence: row.confidence,
      needsReview: row.needsReview as boolean,
      reasons: row.reasons,
      longDescription: row.longDescription,
      thumbnailUrl: row.thumbnailUrl,
      fileName: row.fileName,
    });
  }
  return rows;
}

/**
 * One page through a prepared statement: the listing's total, the counts row's `version` and
 * `reorderVersion` in the same snapshot and, unless the page is deep, its rows newest first (none past
 * the end). A deep page comes back `deep`, without rows.
 */
export async function readLibraryPage(
  statement: LibraryPageStatement,
  userId: string,
  page: { offset: number; limit: number },
): Promise<{
  total: number;
  deep: boolean;
  version: number;
  reorderVersion: number;
  rows: ListedLibraryImage[];
}> {
  // Beyond any count (an int4): past the end whatever the page number.
  const offset = Math.min(page.offset, 2 ** 31);
  const result = await statement.execute({ userId, offset, limit: page.limit });
  const [first] = result;
  if (!first) throw new Error('the library page statement answered no row');
  return {
    total: first.total,
    deep: first.deep,
    version: first.version,
    reorderVersion: first.reorderVersion,
    rows: listedRows(result),
  };
}

/**
 * One listing's deep pages from a cached boundary key in one statement (ADR 040's second addendum),
 * prepared once: its values are `userId`, the key (`at`, `keyId`), `skip` (entries from the key to
 * the page, fewer than the boundary step), `limit` and the counts row's `version` the caller saw. The
 * page is listLibraryImagesPage's read with `start`: an index-only walk of `skip` entries from the key
 * to the page's first key, then a keyset seek of `limit` rows. Both are gated (a one-time filter, so
 * no index entry is read otherwise) on library_counts.version still being `version`: then nothing that
 * moves, adds or removes a row has committed since the caller read the total and chose the key. Always
 * one row telling whether the gate held (the image columns null when no image comes back); rows newest
 * first.
 */
export function prepareLibraryPageFromKey(db: Database, filter: LibraryFilter, name: string) {
  const where = rowsOf(sql.placeholder('userId'), filter);
  const { createdAt, id } = libraryImages;
  const held = sql`(select gate.held from gate)`;
  // The key is a subquery (an InitPlan, then an index condition) so that no plan sees its value: a
  // plan made for a key near the oldest end (node-postgres's first executions are planned for their
  // values) estimated ~1,000 rows after it and walked them by a bitmap scan and a sort of 2,000 rows.
  const statement = sql`(with gate as (
      select exists (select from ${libraryCounts} where ${libraryCounts.userId} = ${sql.placeholder('userId')}
        and ${libraryCounts.version} = ${sql.placeholder('version')}::int8) as held)
    select gate.held, page.*
    from gate left join (
      select ${createdAt}, ${id}, ${libraryImages.src}, ${libraryImages.altText}, ${libraryImages.confidence},
        ${libraryImages.needsReview}, ${libraryImages.reasons}, ${libraryImages.longDescription}, ${libraryImages.thumbnailUrl}, ${libraryImages.origin},
        ${libraryImages.fileName}
      from ${libraryImages}
      where ${held} and ${where}
        and (${createdAt}, ${id}) <= (
          select ${createdAt}, ${id} from ${libraryImages}
          where ${held} and ${where}
            and (${createdAt}, ${id}) <= (select ${sql.placeholder('at')}::timestamptz, ${sql.placeholder('keyId')}::uuid)
          order by ${createdAt} desc, ${id} desc offset ${sql.placeholder('skip')}::int8 limit 1)
      order by ${createdAt} desc, ${id} desc limit ${sql.placeholder('limit')}::int8
    ) as page on true) as library_page`;
  return preparePageStatement(db, statement, name, { held: sql<boolean>`${pageColumn('held')}` });
}

/** A listing's deep-page statement, as prepareLibraryPageFromKey builds it. */
export type LibraryKeyPageStatement = ReturnType<typeof prepareLibraryPageFromKey>;

/**
 * A deep page from a boundary key at `start.position` (at or before `offset`) through a prepared
 * statement, if library_counts.version is still `version`: its rows newest first, as
 * listLibraryImagesPage reads them with `start`; undefined when the version has moved on.
 */
export async function readLibraryPageFromKey(
  statement: LibraryKeyPageStatement,
  userId: string,
  page: { offset: number; limit: number; start: { key: LibraryKey; position: number }; version: number },
): Promise<ListedLibraryImage[] | undefined> {
  const { offset, limit, start, version } = page;
  if (start.position > offset) throw new Error('a boundary key after the page');
  const result = await statement.execute({
    userId,
    at: start.key.at,
    keyId: start.key.id,
    skip: offset - start.position,
    limit,
    version,
  });
  const [first] = result;
  if (!first) throw new Error('the library key page statement answered no row');
  return first.held ? listedRows(result) : undefined;
}

/** A new alt text for a row, and what is known about it; fields left out stay as they were. */
export type LibraryAltTextChange = {
  altText?: string;
  origin?: LibraryImage['origin'];
  /** A person approved the text unchanged: an engine's (`ai`) becomes `ai-reviewed` (ADR 057). */
  approved?: true;
  engine?: string | null;
  model?: string | null;
  confidence?: number | null;
  reasons?: NewLibraryImage['reasons'];
  needsReview?: boolean;
  longDescription?: string | null;
  /** A preview for a row that has none (ADR 051); a row that has one keeps it. */
  thumbnail?: { key: string; url: string } | null;
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
      ...(change.origin !== undefined ? { origin: change.origin } : {}),
      ...(change.approved
        ? {
            origin: sql<LibraryImage['origin']>`case when ${libraryImages.origin} = 'ai' then 'ai-reviewed'
              else ${libraryImages.origin} end`,
          }
        : {}),
      ...(change.engine !== undefined ? { engine: change.engine } : {}),
      ...(change.model !== undefined ? { model: change.model } : {}),
      ...(change.confidence !== undefined ? { confidence: change.confidence } : {}),
      ...(change.reasons !== undefined ? { reasons: change.reasons } : {}),
      ...(change.needsReview !== undefined ? { needsReview: change.needsReview } : {}),
      ...(change.longDescription !== undefined ? { longDescription: change.longDescription } : {}),
      ...(change.thumbnail
        ? {
            thumbnailKey: sql`coalesce(${libraryImages.thumbnailKey}, ${change.thumbnail.key})`,
            thumbnailUrl: sql`case when ${libraryImages.thumbnailKey} is null then ${change.thumbnail.url}
              else ${libraryImages.thumbnailUrl} end`,
          }
        : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(libraryImages.userId, userId), eq(libraryImages.id, id)))
    .returning();
  return row;
}
