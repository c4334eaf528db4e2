import { randomUUID } from 'node:crypto';
import {
  type AuditFixStatus,
  type AuditImage,
  type FixAuditRequest,
  type FixAuditResponse,
  MAX_AUDIT_FIX_IMAGES,
  type ReviewAuditRequest,
  type ReviewAuditResponse,
} from '@altwise/contracts/audit';
import type { AuditProblem } from '@altwise/contracts/audit-problems';
import { errorCodes } from '@altwise/contracts/errors';
import { isEnglish, offlineLanguageMessage } from '@altwise/contracts/generation';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Database, type DbExecutor, queryRows } from '../../db/client.ts';
import type {
  AuditImageFactsRecord,
  AuditImageProblemRecord,
  AuditReviewState,
  AuditSuggestionDetails,
} from '../../db/tables/audits.ts';
import type { GenerationItemContext } from '../../db/tables/generation-items.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { jobNames } from '../../jobs/names.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { reserveCredits } from '../credits/service.ts';
import { findDefaultLanguage, insertBatch, insertItems } from '../generation/repository.ts';
import { updateLibraryImage } from '../library/repository.ts';
import { addLibraryImages } from '../library/service.ts';
import { countReviews, findAuditOf } from './repository.ts';

/**
 * Fixing an audit's failing images and reviewing the suggestions (issue 13, points 3 and 4; ADR
 * 030). A fix is an ordinary generation batch (source `audit`: one credit per image reserved up
 * front, refunded per image that fails, 402 with nothing queued when short) whose results land on
 * the audit images as pending suggestions; only an accept or an edit puts alt text in the library.
 */

/** An audit image with its fix's state, as the queries below read it. */
type ImageRow = {
  id: string;
  page_url: string;
  src: string;
  alt: string | null;
  role: AuditImage['role'];
  verdict: AuditImage['verdict'];
  problems: AuditImageProblemRecord[];
  facts: AuditImageFactsRecord;
  suggestion: string | null;
  review_state: AuditReviewState | null;
  suggestion_details: AuditSuggestionDetails | null;
  library_image_id: string | null;
  generation_item_id: string | null;
  item_status: 'pending' | 'processing' | 'done' | 'failed' | null;
  item_batch_id: string | null;
};

const imageColumns = sql`i.id, i.page_url, i.src, i.alt, i.role, i.verdict, i.problems, i.facts, i.suggestion,
  i.review_state, i.suggestion_details, i.library_image_id, i.generation_item_id,
  g.status as item_status, g.batch_id as item_batch_id`;
const imageFrom = sql`audit_images i
  join audit_pages p on p.id = i.page_id
  left join generation_items g on g.id = i.generation_item_id`;
const pageOrder = sql`p.depth, p.created_at, p.url, i.position`;

/** Whether the image's latest fix is under way, failed (refunded), or neither. */
export function fixStatusOf(itemStatus: string | null | undefined): AuditFixStatus | null {
  if (itemStatus === 'pending' || itemStatus === 'processing') return 'generating';
  if (itemStatus === 'failed') return 'failed';
  return null;
}

export function toAuditImage(row: ImageRow): AuditImage {
  return {
    id: row.id,
    pageUrl: row.page_url,
    src: row.src,
    alt: row.alt,
    role: row.role,
    verdict: row.verdict,
    problems: row.problems as AuditProblem[],
    suggestion: row.suggestion,
    reviewState: row.review_state,
    fixStatus: fixStatusOf(row.item_status),
  };
}

/** What the engine is told about an audit image: its page and its place on it. */
export function contextOf(
  row: Pick<ImageRow, 'page_url' | 'alt' | 'role' | 'facts'>,
): Record<string, string> {
  const { facts } = row;
  const context: Record<string, string | undefined> = {
    pageUrl: row.page_url,
    heading: facts.heading,
    caption: facts.caption,
    surroundingText: facts.adjacentText,
    linkTarget: facts.linkTarget,
    linkText: facts.linkText,
    existingAlt: row.alt ?? facts.ariaLabel,
    role: row.role === 'content' ? undefined : row.role,
  };
  return Object.fromEntries(
    Object.entries(context).filter((entry): entry is [string, string] => Boolean(entry[1]?.trim())),
  );
}

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
async function selectImages(db: DbExecutor, auditId: string, imageIds: string[], lock: boolean) {
  if (lock)
    await queryRows(
      db,
      sql`select id from audit_images where audit_id = ${auditId} and id in (${idList(imageIds)})
          order by id for update`,
    );
  return queryRows<ImageRow>(
    db,
    sql`select ${imageColumns} from ${imageFrom}
        where i.audit_id = ${auditId} and i.id in (${idList(imageIds)})
        order by ${pageOrder}`,
  );
}

/** Failing images without a suggestion and not being fixed: the default selection of a fix. */
const unfixedFailing = sql`i.verdict = 'fail' and i.suggestion is null
  and (g.status is null or g.status = 'failed')`;

const noSuchImage = () => notFound('There is no such image in this audit.');
const auditNotFound = () => notFound('There is no such audit.');

export function createAuditFixer(deps: {
  db: Database;
  queue: JobQueue;
  /** Starts working a stored batch in this process (the queued job is the durable copy). */
  runBatch?: (batchId: string) => Promise<void>;
  runsWorkers: boolean;
  logger: FastifyBaseLogger;
  /** The alt-text engine's name: the offline engine writes English only. */
  engineName?: string;
}) {
  const { db, queue, logger } = deps;

  async function ownedAudit(userId: string, auditId: string) {
    const audit = await findAuditOf(db, userId, auditId);
    if (!audit) throw auditNotFound();
    return audit;
  }

  return {
    /** POST /audits/{id}/fix. */
    async fix(userId: string, auditId: string, request: FixAuditRequest): Promise<FixAuditResponse> {
      await ownedAudit(userId, auditId);
      // The account's default language, as for every batch; refused (422) before anything is
      // reserved when the engine cannot write it.
      const language = await findDefaultLanguage(db, userId);
      if (language && deps.engineName === 'offline' && !isEnglish(language))
        throw new AppError(422, errorCodes.languageNotSupported, offlineLanguageMessage);
      const started = await db.transaction(async (tx) => {
        let images: ImageRow[];
        let remaining = 0;
        if (request.imageIds) {
          const ids = [...new Set(request.imageIds)];
          images = await selectImages(tx, auditId, ids, true);
          if (images.length < ids.length) throw noSuchImage();
          const busy = images.filter((image) => fixStatusOf(image.item_status) === 'generating').length;
          if (busy > 0)
            throw conflict(
              `${busy} of the selected images ${busy === 1 ? 'is' : 'are'} being fixed already. Wait for the suggestions, then choose again.`,
            );
        } else {
          // Locked first, then read (see selectImages): two fixes at once never queue an image twice.
          await queryRows(
            tx,
            sql`select id from audit_images
                where audit_id = ${auditId} and verdict = 'fail' and suggestion is null
                order by id for update`,
          );
          images = await queryRows<ImageRow>(
            tx,
            sql`select ${imageColumns} from ${imageFrom}
                where i.audit_id = ${auditId} and ${unfixedFailing}
                order by ${pageOrder}
                limit ${MAX_AUDIT_FIX_IMAGES}`,
          );
          if (images.length === 0)
            throw conflict('No failing image is left to fix: each has a suggestion or is being fixed.');
          const [left] = await queryRows<{ n: number | string }>(
            tx,
            sql`select count(*) as n from ${imageFrom} where i.audit_id = ${auditId} and ${unfixedFailing}`,
          );
          remaining = Math.max(0, Number(left?.n ?? 0) - images.length);
        }
        // Throws 402 (Insufficient credits) before anything is stored.
        const { reservationId, balance } = await reserveCredits(
          tx,
          userId,
          images.length,
          'generation:audit',
        );
        const batch = await insertBatch(tx, {
          userId,
          source: 'audit',
          prompt: null,
          pageUrl: null,
          reservationId,
          total: images.length,
        });
        const items = images.map((image, position) => ({
          id: randomUUID(),
          batchId: batch.id,
          position,
          src: image.src,
          fileKey: null,
          context: contextOf(image) as GenerationItemContext,
          language,
        }));
        await insertItems(tx, items);
        await queryRows(
          tx,
          sql`update audit_images i set generation_item_id = v.item_id::uuid
              from (values ${sql.join(
                items.map((item, n) => sql`(${images[n]?.id}::uuid, ${item.id})`),
                sql`, `,
              )}) as v(image_id, item_id)
              where i.id = v.image_id and i.audit_id = ${auditId}`,
        );
        await queue.send(jobNames.generateBatch, { batchId: batch.id }, { tx });
        return {
          batchId: batch.id,
          images: images.map((image) => image.id),
          creditsReserved: images.length,
          remainingCredits: balance,
          remaining,
        };
      });
      if (deps.runsWorkers && deps.runBatch)
        deps
          .runBatch(started.batchId)
          .catch((error) =>
            logger.error({ err: error, batch: started.batchId }, 'audit fix batch run failed'),
          );
      return started;
    },

    /** POST /audits/{id}/review: all the named images or none. */
    async review(userId: string, auditId: string, request: ReviewAuditRequest): Promise<ReviewAuditResponse> {
      await ownedAudit(userId, auditId);
      const ids = [...new Set(request.imageIds)];
      await db.transaction(async (tx) => {
        const images = await selectImages(tx, auditId, ids, true);
        if (images.length < ids.length) throw noSuchImage();
        const unsuggested = images.filter((image) => image.suggestion === null).length;
        if (unsuggested > 0)
          throw conflict(
            `${unsuggested} of the selected images ${unsuggested === 1 ? 'has' : 'have'} no suggestion yet. Fix ${unsuggested === 1 ? 'it' : 'them'} first; nothing was changed.`,
          );
        if (request.action === 'reject') {
          const landed = images.filter(
            (image) => image.review_state === 'accepted' || image.review_state === 'edited',
          ).length;
          if (landed > 0)
            throw conflict(
              `${landed} of the selected images ${landed === 1 ? 'is' : 'are'} in your library already; delete ${landed === 1 ? 'it' : 'them'} there instead. Nothing was changed.`,
            );
          await queryRows(
            tx,
            sql`update audit_images set review_state = 'rejected'
                where audit_id = ${auditId} and id in (${idList(ids)})`,
          );
          return;
        }
        for (const image of images) {
          const edited = request.action === 'edit';
          const altText = edited ? (request.altText ?? '') : (image.suggestion ?? '');
          const details = image.suggestion_details;
          // A person's own words carry no engine verdict; an accepted suggestion keeps the engine's,
          // and counts as reviewed.
          const verdict = edited
            ? { engine: null, model: null, confidence: null, reasons: null, needsReview: false }
            : {
                engine: details?.engine ?? null,
                model: details?.model ?? null,
                confidence: details?.confidence ?? null,
                reasons: details?.reasons ?? null,
                needsReview: false,
              };
          const updated = image.library_image_id
            ? await updateLibraryImage(tx, userId, image.library_image_id, { altText, ...verdict })
            : undefined;
          const libraryImageId =
            updated?.id ??
            (
              await addLibraryImages(tx, userId, [
                {
                  src: image.src,
                  altText,
                  batchId: image.item_batch_id,
                  context: contextOf(image),
                  ...verdict,
                },
              ])
            )[0]?.id;
          await queryRows(
            tx,
            sql`update audit_images
                set review_state = ${edited ? 'edited' : 'accepted'}, library_image_id = ${libraryImageId ?? null},
                    suggestion = ${altText}
                where id = ${image.id}`,
          );
        }
      });
      const items = (await selectImages(db, auditId, ids, false)).map(toAuditImage);
      return { items, reviews: await countReviews(db, auditId) };
    },
  };
}

/** Every image of an audit in page order, for the reports (at most `limit`). */
export async function listReportImages(db: DbExecutor, auditId: string, limit: number): Promise<ImageRow[]> {
  return queryRows<ImageRow>(
    db,
    sql`select ${imageColumns} from ${imageFrom} where i.audit_id = ${auditId} order by ${pageOrder} limit ${limit}`,
  );
}
