import type { AltOrigin } from '@altwise/contracts/provenance';
import { and, count, desc, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { type DbExecutor, queryRows } from '../../db/client.ts';
import {
  type Audit,
  type AuditCounts,
  type AuditImage,
  type AuditImageFactsRecord,
  type AuditImageProblemRecord,
  type AuditPage,
  type AuditPageAnnouncementsRecord,
  type AuditRenderMode,
  type AuditReviewState,
  type AuditScope,
  type AuditSuggestionDetails,
  auditImages,
  auditPages,
  audits,
  type NewAuditImage,
} from '../../db/tables/audits.ts';
import { findItemStatuses } from '../generation/queries.ts';

export type AuditReviewCounts = Record<AuditReviewState, number>;

export type ClaimedPage = { id: string; url: string; depth: number };

export async function countActiveAudits(db: DbExecutor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(audits)
    .where(and(eq(audits.userId, userId), inArray(audits.status, ['queued', 'running'])));
  return row?.n ?? 0;
}

/** Audits started since `since`, and the oldest of them (when the window frees a place). */
export async function auditsStartedSince(
  db: DbExecutor,
  userId: string,
  since: Date,
): Promise<{ n: number; oldest: Date | null }> {
  const [row] = await db
    .select({ n: count(), oldest: sql<string | Date | null>`min(${audits.createdAt})` })
    .from(audits)
    .where(and(eq(audits.userId, userId), gte(audits.createdAt, since)));
  return { n: row?.n ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

export async function insertAudit(
  db: DbExecutor,
  values: { userId: string; url: string; scope: AuditScope; maxPages: number; render: AuditRenderMode },
): Promise<Audit> {
  const [row] = await db.insert(audits).values(values).returning();
  if (!row) throw new Error('insert into audits returned nothing');
  return row;
}

export async function findAudit(db: DbExecutor, id: string): Promise<Audit | undefined> {
  const [row] = await db.select().from(audits).where(eq(audits.id, id));
  return row;
}

export async function findAuditOf(db: DbExecutor, userId: string, id: string): Promise<Audit | undefined> {
  const [row] = await db
    .select()
    .from(audits)
    .where(and(eq(audits.id, id), eq(audits.userId, userId)));
  return row;
}

export async function listAuditsOf(db: DbExecutor, userId: string, limit: number): Promise<Audit[]> {
  return db
    .select()
    .from(audits)
    .where(eq(audits.userId, userId))
    .orderBy(desc(audits.createdAt), desc(audits.id))
    .limit(limit);
}

export async function listUnfinishedAuditIds(db: DbExecutor): Promise<string[]> {
  const rows = await db.select({ id: audits.id }).from(audits).where(isNull(audits.finishedAt));
  return rows.map((row) => row.id);
}

export async function markAuditRunning(db: DbExecutor, id: string): Promise<void> {
  await db
    .update(audits)
    .set({ status: 'running', updatedAt: new Date() })
    .where(and(eq(audits.id, id), eq(audits.status, 'queued')));
}

export async function addAuditNotice(db: DbExecutor, id: string, notice: string): Promise<void> {
  await db
    .update(audits)
    .set({
      notices: sql`case when ${audits.notices} @> ${JSON.stringify([notice])}::jsonb then ${audits.notices}
                   else ${audits.notices} || ${JSON.stringify([notice])}::jsonb end`,
      updatedAt: new Date(),
    })
    .where(eq(audits.id, id));
}

/**
 * Stores pages to visit, at most up to the audit's maxPages in all; a page already stored is left
 * as it is. Runs under the audit's row lock, so two workers cannot together pass the cap.
 */
export async function addPages(
  tx: DbExecutor,
  auditId: string,
  pages: { url: string; depth: number }[],
): Promise<number> {
  const [audit] = await queryRows<{ max_pages: number }>(
    tx,
    sql`select max_pages from audits where id = ${auditId} for update`,
  );
  if (!audit || pages.length === 0) return 0;
  const [stored] = await tx.select({ n: count() }).from(auditPages).where(eq(auditPages.auditId, auditId));
  const room = audit.max_pages - (stored?.n ?? 0);
  if (room <= 0) return 0;
  const existing = new Set(
    (
      await tx
        .select({ url: auditPages.url })
        .from(auditPages)
        .where(
          and(
            eq(auditPages.auditId, auditId),
            inArray(
              auditPages.url,
              pages.map((page) => page.url),
            ),
          ),
        )
    ).map((row) => row.url),
  );
  const fresh = pages.filter((page) => !existing.has(page.url)).slice(0, room);
  if (fresh.length === 0) return 0;
  const inserted = await tx
    .insert(auditPages)
    .values(fresh.map((page) => ({ auditId, url: page.url, depth: page.depth })))
    .onConflictDoNothing()
    .returning({ id: auditPages.id });
  return inserted.length;
}

export async function markSeeded(db: DbExecutor, id: string): Promise<void> {
  await db.update(audits).set({ seededAt: new Date(), updatedAt: new Date() }).where(eq(audits.id, id));
}

/** Claims the next page breadth first: pending, or fetching under a claim older than the lease. */
export async function claimNextPage(
  db: DbExecutor,
  auditId: string,
  claimId: string,
  leaseSeconds: number,
): Promise<ClaimedPage | undefined> {
  const [row] = await queryRows<{ id: string; url: string; depth: number }>(
    db,
    sql`update audit_pages
        set status = 'fetching', claim_id = ${claimId}, claimed_at = now()
        where id = (
          select id from audit_pages
          where audit_id = ${auditId}
            and (status = 'pending'
                 or (status = 'fetching' and claimed_at < now() - make_interval(secs => ${leaseSeconds})))
          order by depth, created_at, url
          limit 1
          for update skip locked
        )
        returning id, url, depth`,
  );
  return row ? { id: row.id, url: row.url, depth: row.depth } : undefined;
}

export async function renewPageClaims(db: DbExecutor, claimIds: string[]): Promise<void> {
  if (claimIds.length === 0) return;
  await db
    .update(auditPages)
    .set({ claimedAt: new Date() })
    .where(and(inArray(auditPages.claimId, claimIds), eq(auditPages.status, 'fetching')));
}

/** Ends a page, only while the claim is still ours; false when another worker took it over. */
async function endPage(
  tx: DbExecutor,
  page: { id: string; claimId: string },
  status: 'scanned' | 'skipped' | 'failed',
  note: string | null,
  rendered = false,
  preview: { hiddenImages: number; announcements: AuditPageAnnouncementsRecord } | null = null,
): Promise<boolean> {
  const ended = await tx
    .update(auditPages)
    .set({ status, note, rendered, claimId: null, claimedAt: null, scannedAt: new Date(), ...preview })
    .where(
      and(
        eq(auditPages.id, page.id),
        eq(auditPages.claimId, page.claimId),
        eq(auditPages.status, 'fetching'),
      ),
    )
    .returning({ id: auditPages.id });
  return ended.length > 0;
}

/**
 * A scanned page: its images (with their verdicts) and the pages it links to, and the audit's
 * progress, in one transaction that writes only while the claim is held. So a page lands once.
 */
export async function landScannedPage(
  db: DbExecutor & { transaction: <T>(run: (tx: DbExecutor) => Promise<T>) => Promise<T> },
  auditId: string,
  page: { id: string; claimId: string },
  images: Omit<NewAuditImage, 'auditId' | 'pageId'>[],
  links: { url: string; depth: number }[],
  rendered = false,
  preview: { hiddenImages: number; announcements: AuditPageAnnouncementsRecord } = {
    hiddenImages: 0,
    announcements: { items: [], truncated: false },
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await endPage(tx, page, 'scanned', null, rendered, preview))) return false;
    await addPages(tx, auditId, links);
    if (images.length > 0)
      await tx
        .insert(auditImages)
        .values(images.map((image) => ({ ...image, auditId, pageId: page.id })))
        .onConflictDoNothing();
    await tx
      .update(audits)
      .set({
        pagesScanned: sql`${audits.pagesScanned} + 1`,
        imagesFound: sql`${audits.imagesFound} + ${images.length}`,
        updatedAt: new Date(),
      })
      .where(eq(audits.id, auditId));
    return true;
  });
}

export async function endUnreadPage(
  db: DbExecutor,
  page: { id: string; claimId: string },
  status: 'skipped' | 'failed',
  note: string,
): Promise<boolean> {
  return endPage(db, page, status, note);
}

export async function countOpenPages(db: DbExecutor, auditId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(auditPages)
    .where(and(eq(auditPages.auditId, auditId), inArray(auditPages.status, ['pending', 'fetching'])));
  return row?.n ?? 0;
}

/** The audit's pages in the order they were found, and whether each was rendered (ADR 061). */
export async function listPages(
  db: DbExecutor,
  auditId: string,
  limit: number,
): Promise<{ url: string; status: AuditPage['status']; rendered: boolean }[]> {
  return db
    .select({ url: auditPages.url, status: auditPages.status, rendered: auditPages.rendered })
    .from(auditPages)
    .where(eq(auditPages.auditId, auditId))
    .orderBy(auditPages.depth, auditPages.createdAt, auditPages.url)
    .limit(limit);
}

/** How many scanned pages of each audit were rendered. */
export async function countRenderedPages(db: DbExecutor, auditId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(auditPages)
    .where(
      and(eq(auditPages.auditId, auditId), eq(auditPages.status, 'scanned'), eq(auditPages.rendered, true)),
    );
  return row?.n ?? 0;
}

/** One image's screenshot key, when the image is of this audit. */
export async function findImageScreenshot(
  db: DbExecutor,
  auditId: string,
  imageId: string,
): Promise<{ screenshotKey: string | null } | undefined> {
  const [row] = await db
    .select({ screenshotKey: auditImages.screenshotKey })
    .from(auditImages)
    .where(and(eq(auditImages.auditId, auditId), eq(auditImages.id, imageId)));
  return row;
}

/** The pages of an audit in the order they are visited, with their image counts. */
export async function listAuditPages(db: DbExecutor, auditId: string) {
  return db
    .select({
      id: auditPages.id,
      url: auditPages.url,
      status: auditPages.status,
      note: auditPages.note,
      hiddenImages: auditPages.hiddenImages,
      rendered: auditPages.rendered,
      images: sql<number>`(select count(*)::int from audit_images where audit_images.page_id = audit_pages.id)`,
    })
    .from(auditPages)
    .where(eq(auditPages.auditId, auditId))
    .orderBy(auditPages.depth, auditPages.createdAt, auditPages.url);
}

/** One page of an audit with its screen-reader preview; undefined when it is not the audit's. */
export async function findAuditPage(db: DbExecutor, auditId: string, pageId: string) {
  const [row] = await db
    .select({
      id: auditPages.id,
      url: auditPages.url,
      hiddenImages: auditPages.hiddenImages,
      announcements: auditPages.announcements,
    })
    .from(auditPages)
    .where(and(eq(auditPages.auditId, auditId), eq(auditPages.id, pageId)));
  return row;
}

/** What went wrong with pages, in words, first pages first. */
export async function listPageNotes(db: DbExecutor, auditId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ note: auditPages.note })
    .from(auditPages)
    .where(and(eq(auditPages.auditId, auditId), inArray(auditPages.status, ['skipped', 'failed'])))
    .orderBy(auditPages.depth, auditPages.createdAt, auditPages.url)
    .limit(limit);
  return rows.map((row) => row.note ?? '').filter(Boolean);
}

/** Verdict counts and problem counts of an audit's images. */
export async function summarizeImages(
  db: DbExecutor,
  auditId: string,
): Promise<{ counts: AuditCounts; problems: Record<string, number> }> {
  const counts: AuditCounts = { pass: 0, fail: 0, warning: 0, decorative: 0 };
  const verdicts = await db
    .select({ verdict: auditImages.verdict, n: count() })
    .from(auditImages)
    .where(eq(auditImages.auditId, auditId))
    .groupBy(auditImages.verdict);
  for (const row of verdicts) counts[row.verdict] = row.n;
  const codes = await queryRows<{ code: string; n: number | string }>(
    db,
    sql`select problem->>'code' as code, count(distinct audit_images.id) as n
        from audit_images, jsonb_array_elements(audit_images.problems) as problem
        where audit_images.audit_id = ${auditId}
        group by 1 order by 1`,
  );
  return { counts, problems: Object.fromEntries(codes.map((row) => [row.code, Number(row.n)])) };
}

export async function finishAudit(
  db: DbExecutor,
  id: string,
  values: {
    status: 'completed' | 'failed';
    error?: string | null;
    score: number | null;
    counts: AuditCounts;
    problems: Record<string, number>;
  },
): Promise<boolean> {
  const ended = await db
    .update(audits)
    .set({ ...values, finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(audits.id, id), isNull(audits.finishedAt)))
    .returning({ id: audits.id });
  return ended.length > 0;
}

export type ImageFilters = { verdict?: string; problem?: string; review?: string };

function imageConditions(auditId: string, filters: ImageFilters) {
  const conditions = [eq(auditImages.auditId, auditId)];
  if (filters.verdict) conditions.push(sql`${auditImages.verdict} = ${filters.verdict}`);
  if (filters.problem)
    conditions.push(sql`${auditImages.problems} @> ${JSON.stringify([{ code: filters.problem }])}::jsonb`);
  if (filters.review === 'none') conditions.push(isNull(auditImages.reviewState));
  else if (filters.review) conditions.push(sql`${auditImages.reviewState} = ${filters.review}`);
  return and(...conditions);
}

export async function listImages(
  db: DbExecutor,
  auditId: string,
  filters: ImageFilters,
  paging: { page: number; pageSize: number },
): Promise<{ rows: (AuditImage & { itemStatus: string | null })[]; total: number }> {
  const where = imageConditions(auditId, filters);
  const [total] = await db.select({ n: count() }).from(auditImages).where(where);
  const rows = await db
    .select({ image: auditImages })
    .from(auditImages)
    .innerJoin(auditPages, eq(auditPages.id, auditImages.pageId))
    .where(where)
    .orderBy(auditPages.depth, auditPages.createdAt, auditPages.url, auditImages.position)
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize);
  const statuses = await findItemStatuses(
    db,
    rows.flatMap((row) => (row.image.generationItemId ? [row.image.generationItemId] : [])),
  );
  return {
    rows: rows.map((row) => ({
      ...row.image,
      itemStatus: row.image.generationItemId ? (statuses.get(row.image.generationItemId) ?? null) : null,
    })),
    total: total?.n ?? 0,
  };
}

/** How many images of an audit are in each review state. */
export async function countReviews(db: DbExecutor, auditId: string): Promise<AuditReviewCounts> {
  const reviews: AuditReviewCounts = { pending: 0, accepted: 0, rejected: 0, edited: 0 };
  const rows = await db
    .select({ state: auditImages.reviewState, n: count() })
    .from(auditImages)
    .where(and(eq(auditImages.auditId, auditId), isNotNull(auditImages.reviewState)))
    .groupBy(auditImages.reviewState);
  for (const row of rows) if (row.state) reviews[row.state] = row.n;
  return reviews;
}

/** An image the pixel check may look at, with where it stands in the audit (ADR 037). */
export type PixelCheckRow = Pick<AuditImage, 'src' | 'alt' | 'role' | 'facts' | 'pageUrl' | 'position'> & {
  depth: number;
};

/** The audit's `<img>` elements with the depth of their page: the pixel check picks from these. */
export async function listImagesForPixelCheck(db: DbExecutor, auditId: string): Promise<PixelCheckRow[]> {
  return db
    .select({
      src: auditImages.src,
      alt: auditImages.alt,
      role: auditImages.role,
      facts: auditImages.facts,
      pageUrl: auditImages.pageUrl,
      position: auditImages.position,
      depth: auditPages.depth,
    })
    .from(auditImages)
    .innerJoin(auditPages, eq(auditPages.id, auditImages.pageId))
    .where(and(eq(auditImages.auditId, auditId), sql`${auditImages.facts}->>'element' = 'img'`));
}

/**
 * Stores what the pixels of `src` showed on every image of the audit with that src and, when that
 * is evidence, checks their pages again with `recheck` (one page at a time: `repeated` compares a
 * page's images). The pages are locked first, in id order, so two sources landing at once on the
 * same page cannot interleave. Repeating it changes nothing.
 */
export async function landPixelEvidence(
  db: DbExecutor & { transaction: <T>(run: (tx: DbExecutor) => Promise<T>) => Promise<T> },
  auditId: string,
  src: string,
  pixels: NonNullable<AuditImage['facts']['pixels']>,
  recheck: (pageImages: AuditImage[]) => Array<Pick<AuditImage, 'verdict' | 'problems'>>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const ofSrc = and(eq(auditImages.auditId, auditId), eq(auditImages.src, src));
    const pages = await tx.selectDistinct({ id: auditImages.pageId }).from(auditImages).where(ofSrc);
    const pageIds = pages.map((page) => page.id).sort();
    if (pageIds.length === 0) return;
    await tx
      .select({ id: auditPages.id })
      .from(auditPages)
      .where(inArray(auditPages.id, pageIds))
      .orderBy(auditPages.id)
      .for('update');
    await tx
      .update(auditImages)
      .set({ facts: sql`${auditImages.facts} || ${JSON.stringify({ pixels })}::jsonb` })
      .where(ofSrc);
    if (pixels.informative === undefined) return;
    for (const pageId of pageIds) {
      const rows = await tx
        .select()
        .from(auditImages)
        .where(eq(auditImages.pageId, pageId))
        .orderBy(auditImages.position);
      const verdicts = recheck(rows);
      for (const [index, row] of rows.entries()) {
        const next = verdicts[index];
        if (!next) continue;
        if (next.verdict === row.verdict && JSON.stringify(next.problems) === JSON.stringify(row.problems))
          continue;
        await tx
          .update(auditImages)
          .set({ verdict: next.verdict, problems: next.problems })
          .where(eq(auditImages.id, row.id));
      }
    }
  });
}

// Fixing an audit's images and reviewing the suggestions (ADR 030): the SQL of fix.ts.

/** An audit image with its fix's state (the generation item it points at), as fix and reports read it. */
export type AuditFixImageRow = {
  id: string;
  pageUrl: string;
  src: string;
  alt: string | null;
  role: AuditImage['role'];
  verdict: AuditImage['verdict'];
  problems: AuditImageProblemRecord[];
  facts: AuditImageFactsRecord;
  suggestion: string | null;
  longDescription: string | null;
  reviewState: AuditReviewState | null;
  origin: AltOrigin | null;
  suggestionDetails: AuditSuggestionDetails | null;
  libraryImageId: string | null;
  generationItemId: string | null;
  itemStatus: 'pending' | 'processing' | 'done' | 'failed' | null;
  itemBatchId: string | null;
  thumbnailUrl: string | null;
  auditId: string;
  screenshotKey: string | null;
};

const fixImageColumns = sql`i.id, i.page_url as "pageUrl", i.src, i.alt, i.role, i.verdict, i.problems, i.facts,
  i.suggestion, i.long_description as "longDescription", i.review_state as "reviewState", i.origin,
  i.suggestion_details as "suggestionDetails", i.library_image_id as "libraryImageId",
  i.generation_item_id as "generationItemId", g.status as "itemStatus", g.batch_id as "itemBatchId",
  i.thumbnail_url as "thumbnailUrl", i.audit_id as "auditId", i.screenshot_key as "screenshotKey"`;
const fixImageFrom = sql`audit_images i
  join audit_pages p on p.id = i.page_id
  left join generation_items g on g.id = i.generation_item_id`;
const pageOrder = sql`p.depth, p.created_at, p.url, i.position`;

const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/**
 * Reads the named images of an audit. With `lock`, in a transaction: their rows are locked first (in
 * id order, so two requests cannot deadlock) and read by a later statement, which therefore sees
 * what a request that held them before has committed (its fix, its review).
 */
export async function selectFixImages(
  db: DbExecutor,
  auditId: string,
  imageIds: string[],
  lock: boolean,
): Promise<AuditFixImageRow[]> {
  if (lock)
    await queryRows(
      db,
      sql`select id from audit_images where audit_id = ${auditId} and id in (${idList(imageIds)})
          order by id for update`,
    );
  return queryRows<AuditFixImageRow>(
    db,
    sql`select ${fixImageColumns} from ${fixImageFrom}
        where i.audit_id = ${auditId} and i.id in (${idList(imageIds)})
        order by ${pageOrder}`,
  );
}

/** Failing images without a suggestion and not being fixed: the default selection of a fix. */
const unfixedFailing = sql`i.verdict = 'fail' and i.suggestion is null
  and (g.status is null or g.status = 'failed')`;

/**
 * In a transaction: the failing images with no suggestion and no fix under way, at most `limit` in
 * page order, and how many such images there are in all. The candidates are locked first, then
 * read, so two fixes at once never queue an image twice.
 */
export async function selectUnfixedFailing(
  tx: DbExecutor,
  auditId: string,
  limit: number,
): Promise<{ images: AuditFixImageRow[]; total: number }> {
  await queryRows(
    tx,
    sql`select id from audit_images
        where audit_id = ${auditId} and verdict = 'fail' and suggestion is null
        order by id for update`,
  );
  const images = await queryRows<AuditFixImageRow>(
    tx,
    sql`select ${fixImageColumns} from ${fixImageFrom}
        where i.audit_id = ${auditId} and ${unfixedFailing}
        order by ${pageOrder}
        limit ${limit}`,
  );
  if (images.length === 0) return { images, total: 0 };
  const [all] = await queryRows<{ n: number | string }>(
    tx,
    sql`select count(*) as n from ${fixImageFrom} where i.audit_id = ${auditId} and ${unfixedFailing}`,
  );
  return { images, total: Number(all?.n ?? 0) };
}

/** Points each audit image at the generation item that fixes it (its latest fix). */
export async function linkFixItems(
  tx: DbExecutor,
  auditId: string,
  links: { imageId: string; itemId: string }[],
): Promise<void> {
  if (links.length === 0) return;
  await queryRows(
    tx,
    sql`update audit_images i set generation_item_id = v.item_id::uuid
        from (values ${sql.join(
          links.map((link) => sql`(${link.imageId}::uuid, ${link.itemId})`),
          sql`, `,
        )}) as v(image_id, item_id)
        where i.id = v.image_id and i.audit_id = ${auditId}`,
  );
}

export async function rejectSuggestions(tx: DbExecutor, auditId: string, imageIds: string[]): Promise<void> {
  await queryRows(
    tx,
    sql`update audit_images set review_state = 'rejected'
        where audit_id = ${auditId} and id in (${idList(imageIds)})`,
  );
}

/** An accepted or edited suggestion: its words and the library row it landed as. */
export async function markSuggestionLanded(
  tx: DbExecutor,
  imageId: string,
  landed: {
    state: 'accepted' | 'edited';
    altText: string;
    origin: AltOrigin;
    longDescription: string | null;
    libraryImageId: string | null;
    /** Replaces the stored details when given (a decorative mark, words over a needs-words image). */
    details?: AuditSuggestionDetails;
  },
): Promise<void> {
  const details = landed.details ? JSON.stringify(landed.details) : null;
  await queryRows(
    tx,
    sql`update audit_images
        set review_state = ${landed.state}, origin = ${landed.origin}, library_image_id = ${landed.libraryImageId},
            suggestion = ${landed.altText}, long_description = ${landed.longDescription},
            suggestion_details = coalesce(${details}::jsonb, suggestion_details)
        where id = ${imageId}`,
  );
}

/** Every image of an audit in page order, for the reports (at most `limit`). */
export async function listReportImages(
  db: DbExecutor,
  auditId: string,
  limit: number,
): Promise<AuditFixImageRow[]> {
  return queryRows<AuditFixImageRow>(
    db,
    sql`select ${fixImageColumns} from ${fixImageFrom} where i.audit_id = ${auditId} order by ${pageOrder} limit ${limit}`,
  );
}

/**
 * The audit's lander for its fix batches (ADR 030, ADR 043): the generation item is done, and its
 * alt text becomes the pending suggestion of the audit image that points at this item; nothing
 * lands in the library until the user accepts it. One statement, written only while the claim is
 * still the caller's (the generation runner's guard, as its own library landing has it), with the
 * batch's count; false, writing nothing, when the claim was lost.
 */
export async function landFixSuggestion(
  db: DbExecutor,
  claim: { itemId: string; claimId: string },
  suggestion: {
    altText: string;
    origin: AltOrigin;
    longDescription: string | null;
    details: AuditSuggestionDetails;
    /** The fix's preview of the image (ADR 051), kept where the image has none yet. */
    thumbnail: { key: string; url: string } | null;
  },
): Promise<{ landed: boolean; keptThumbnail: boolean }> {
  const rows = await queryRows<{ landed: number; kept_thumbnail: boolean }>(
    db,
    sql`with item as (
          update generation_items
          set status = 'done', claim_id = null, error = null, updated_at = now()
          where id = ${claim.itemId} and claim_id = ${claim.claimId} and status = 'processing'
          returning id, batch_id
        ),
        suggestion as (
          update audit_images
          set suggestion = ${suggestion.altText}, long_description = ${suggestion.longDescription},
              review_state = 'pending', origin = ${suggestion.origin},
              suggestion_details = ${JSON.stringify(suggestion.details)}::jsonb,
              thumbnail_key = coalesce(thumbnail_key, ${suggestion.thumbnail?.key ?? null}),
              thumbnail_url = case when thumbnail_key is null then ${suggestion.thumbnail?.url ?? null}
                                   else thumbnail_url end
          where generation_item_id = (select id from item)
          returning id, thumbnail_key
        ),
        batch as (
          update generation_batches
          set completed = completed + 1, status = 'processing', updated_at = now()
          where id = (select batch_id from item)
          returning id
        )
        select (select count(*) from item)::int + (select count(*) from batch)::int as landed,
               exists (select from suggestion where thumbnail_key = ${suggestion.thumbnail?.key ?? null})
                 as kept_thumbnail`,
  );
  return { landed: rows[0]?.landed === 2, keptThumbnail: rows[0]?.kept_thumbnail === true };
}

/**
 * Records a stored preview (ADR 051) on the audit's images of `src` that have none yet; false when
 * none took it (its caller then deletes the file).
 */
export async function landAuditPreview(
  db: DbExecutor,
  auditId: string,
  src: string,
  preview: { key: string; url: string },
): Promise<boolean> {
  const rows = await db
    .update(auditImages)
    .set({ thumbnailKey: preview.key, thumbnailUrl: preview.url })
    .where(and(eq(auditImages.auditId, auditId), eq(auditImages.src, src), isNull(auditImages.thumbnailKey)))
    .returning({ id: auditImages.id });
  return rows.length > 0;
}

/**
 * An audit that arrives whole (a WordPress import): the audit, its pages (scanned) and
 * their images in one transaction, with the id the caller chose, so a retried import that already
 * landed finds it instead of making a second one. Answers the images as stored.
 */
export async function insertWholeAudit(
  tx: DbExecutor,
  audit: { id: string; userId: string; url: string; notices: string[] },
  pages: { url: string; images: Omit<NewAuditImage, 'auditId' | 'pageId'>[] }[],
): Promise<void> {
  const now = new Date();
  await tx.insert(audits).values({
    id: audit.id,
    userId: audit.userId,
    url: audit.url,
    scope: 'site',
    maxPages: Math.min(500, Math.max(1, pages.length)),
    status: 'running',
    notices: audit.notices,
    seededAt: now,
  });
  let imagesFound = 0;
  for (const page of pages) {
    const [stored] = await tx
      .insert(auditPages)
      .values({ auditId: audit.id, url: page.url, status: 'scanned', scannedAt: now })
      .onConflictDoNothing()
      .returning({ id: auditPages.id });
    if (!stored) continue;
    if (page.images.length > 0)
      await tx
        .insert(auditImages)
        .values(page.images.map((image) => ({ ...image, auditId: audit.id, pageId: stored.id })));
    imagesFound += page.images.length;
  }
  await tx
    .update(audits)
    .set({ pagesScanned: pages.length, imagesFound, updatedAt: now })
    .where(eq(audits.id, audit.id));
}

/** The images of an audit with where they are (page and position), in page order. */
export async function listImagePlaces(
  db: DbExecutor,
  auditId: string,
): Promise<{ id: string; pageUrl: string; position: number; src: string }[]> {
  return db
    .select({
      id: auditImages.id,
      pageUrl: auditImages.pageUrl,
      position: auditImages.position,
      src: auditImages.src,
    })
    .from(auditImages)
    .where(eq(auditImages.auditId, auditId))
    .orderBy(auditImages.pageUrl, auditImages.position);
}

/** An accepted or edited image with its approved words, where they came from and the engine's evidence. */
export type ApprovedImageRow = {
  id: string;
  src: string;
  altText: string;
  reviewState: 'accepted' | 'edited';
  origin: AltOrigin | null;
  reasons: { source: string; detail: string; score?: number }[];
  heading: string | null;
};

/** The address and stored preview (ADR 051) of those of `imageIds` that are images of the user's audits. */
export async function listImagePreviews(
  db: DbExecutor,
  userId: string,
  imageIds: string[],
): Promise<{ id: string; src: string; thumbnailUrl: string | null }[]> {
  if (imageIds.length === 0) return [];
  return db
    .select({ id: auditImages.id, src: auditImages.src, thumbnailUrl: auditImages.thumbnailUrl })
    .from(auditImages)
    .innerJoin(audits, eq(audits.id, auditImages.auditId))
    .where(and(eq(audits.userId, userId), inArray(auditImages.id, imageIds)));
}

/** Accepted or edited images of an audit (all, or these ids) with their approved words. */
export async function listApprovedImages(
  db: DbExecutor,
  auditId: string,
  imageIds?: string[],
): Promise<ApprovedImageRow[]> {
  const rows = await db
    .select({
      id: auditImages.id,
      src: auditImages.src,
      altText: auditImages.suggestion,
      reviewState: auditImages.reviewState,
      origin: auditImages.origin,
      details: auditImages.suggestionDetails,
      facts: auditImages.facts,
    })
    .from(auditImages)
    .where(
      and(
        eq(auditImages.auditId, auditId),
        inArray(auditImages.reviewState, ['accepted', 'edited']),
        isNotNull(auditImages.suggestion),
        ...(imageIds ? [inArray(auditImages.id, imageIds)] : []),
      ),
    );
  return rows.map((row) => ({
    id: row.id,
    src: row.src,
    altText: row.altText ?? '',
    reviewState: row.reviewState === 'edited' ? 'edited' : 'accepted',
    origin: row.origin,
    reasons: row.details?.reasons ?? [],
    heading: row.facts.heading ?? null,
  }));
}

/**
 * Puts approved images back to a pending suggestion (an Undo of what they published, ADR 069): the
 * next publish no longer finds them approved. Their library rows stay.
 */
export async function unapproveImages(db: DbExecutor, auditId: string, imageIds: string[]): Promise<number> {
  if (imageIds.length === 0) return 0;
  const rows = await db
    .update(auditImages)
    .set({ reviewState: 'pending' })
    .where(
      and(
        eq(auditImages.auditId, auditId),
        inArray(auditImages.id, imageIds),
        inArray(auditImages.reviewState, ['accepted', 'edited']),
      ),
    )
    .returning({ id: auditImages.id });
  return rows.length;
}
