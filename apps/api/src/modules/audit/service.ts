import {
  type Audit,
  type AuditImagesResponse,
  type AuditPagesResponse,
  type auditImagesQuerySchema,
  MAX_ACTIVE_AUDITS,
  MAX_AUDITS_PER_DAY,
  type PageAnnouncementsResponse,
  type StartAuditResponse,
  type startAuditRequestSchema,
} from '@altwise/contracts/audit';
import type { AuditProblem } from '@altwise/contracts/audit-problems';
import { errorCodes } from '@altwise/contracts/errors';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, Transaction } from '../../db/client.ts';
import type { Audit as AuditRow } from '../../db/tables/audits.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import { jobNames } from '../../jobs/names.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { createRunScheduler } from '../../jobs/run-scheduler.ts';
import { assertPublicAddress, parseFetchableUrl, SafeFetchError } from '../../net/safe-fetch.ts';
import type { FilesService } from '../files/service.ts';
import type { FetchSettings } from '../scrape/service.ts';
import { spokenOf } from './announcements.ts';
import { createAuditRunner, scoreOf } from './audit-runner.ts';
import { createCrawler } from './crawler.ts';
import { createAuditFixer, type FixGeneration, fixStatusOf, namingOf } from './fix.ts';
import type { PageSandbox } from './page-sandbox.ts';
import { createPixelChecker, type ImageTextReader } from './pixel-check.ts';
import { createAuditPreviewKeeper } from './previews.ts';
import { type AuditReportRow, buildAuditCsv, buildAuditXlsx } from './report.ts';
import {
  auditsStartedSince,
  countActiveAudits,
  countReviews,
  findAuditOf,
  findAuditPage,
  insertAudit,
  listAuditPages,
  listAuditsOf,
  listImages,
  listPageNotes,
  listReportImages,
  listUnfinishedAuditIds,
  lockUser,
  summarizeImages,
} from './repository.ts';

/** How many audits GET /audits lists. */
const LIST_LIMIT = 100;
/** Most page notes an audit's answer carries. */
const MAX_NOTICES = 50;
const DAY_MS = 24 * 3600 * 1000;
/** When the running-audits limit is reached: look again in a minute. */
const ACTIVE_RETRY_AFTER_SECONDS = 60;

/** 429 with the seconds after which trying again can succeed (the route sends Retry-After). */
export class AuditLimitError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(errorCodes.rateLimited, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const auditNotFound = () => notFound('There is no such audit.');

/** Most rows one report holds (500 pages of 200 images). */
export const MAX_REPORT_ROWS = 100_000;

/** `audit-example.com-2026-11-23`: the host (ASCII, as URL gives it) and the day the audit began. */
function reportBaseName(url: string, createdAt: Date): string {
  let host = 'site';
  try {
    host = new URL(url).hostname.replace(/[^a-z0-9.-]/gi, '') || host;
  } catch {}
  return `audit-${host}-${createdAt.toISOString().slice(0, 10)}`;
}

export type AuditService = ReturnType<typeof createAuditService>;

/**
 * Alt-text audits (issue 13, ADR 026): free, limited per user, run by the durable `audit.run` job,
 * readable by their owner only.
 */
export function createAuditService(deps: {
  db: Database;
  queue: JobQueue;
  fetch: FetchSettings;
  /** The process's page reader (worker threads, issue 22). */
  pages: PageSandbox;
  /** Whether this process runs audits (PROCESS_ROLE all or worker). */
  runsWorkers: boolean;
  logger: FastifyBaseLogger;
  /** Generation's one paid batch start (ADR 043): an audit's fix is a batch of source `audit`. */
  generation: FixGeneration;
  /** Runs in the transaction that completes an audit (outgoing webhooks, ADR 029). */
  onAuditCompleted?: (tx: Transaction, auditId: string) => Promise<unknown>;
  /** The offline engine's pixel reader for the pixel check (ADR 037); absent = HTML only. */
  readImageText?: ImageTextReader;
  /**
   * Where the pixel check keeps its previews of the images it fetched, and where a fix deletes a
   * preview its image did not need (ADR 051); absent = no previews.
   */
  files?: Pick<FilesService, 'saveFile' | 'deleteFile'>;
}) {
  const { db, queue, logger } = deps;
  const fixer = createAuditFixer({
    db,
    generation: deps.generation,
    ...(deps.files ? { files: deps.files } : {}),
  });
  const crawler = createCrawler(deps.fetch);
  const runner = createAuditRunner({
    db,
    crawler,
    pages: deps.pages,
    logger,
    ...(deps.readImageText
      ? {
          pixels: createPixelChecker({
            db,
            crawler,
            read: deps.readImageText,
            logger,
            ...(deps.files ? { storePreview: createAuditPreviewKeeper({ db, files: deps.files }) } : {}),
          }),
        }
      : {}),
    ...(deps.onAuditCompleted ? { onAuditCompleted: deps.onAuditCompleted } : {}),
  });
  /** This process's run of each audit: a job for an audit already running here joins that run. */
  const runs = createRunScheduler({
    run: (auditId, stopping) => runner.runAudit(auditId, stopping),
    onKickFailed: (error, auditId) => logger.error({ err: error, audit: auditId }, 'audit run failed'),
  });

  async function toAudit(row: AuditRow): Promise<Audit> {
    const finished = row.finishedAt !== null && row.counts !== null && row.problems !== null;
    const summary = finished
      ? {
          counts: row.counts ?? { pass: 0, fail: 0, warning: 0, decorative: 0 },
          problems: row.problems ?? {},
        }
      : await summarizeImages(db, row.id);
    const pageNotes = await listPageNotes(db, row.id, MAX_NOTICES);
    const notices = [...row.notices, ...pageNotes.filter((note) => note !== row.error)].slice(0, MAX_NOTICES);
    return {
      id: row.id,
      url: row.url,
      scope: row.scope,
      maxPages: row.maxPages,
      status: row.status,
      ...(row.error ? { error: row.error } : {}),
      notices,
      pagesScanned: row.pagesScanned,
      imagesFound: row.imagesFound,
      score: finished ? row.score : scoreOf(summary.counts),
      counts: summary.counts,
      problems: summary.problems,
      reviews: await countReviews(db, row.id),
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
    };
  }

  /** The address must be fetchable and public (unless FETCH_ALLOW_PRIVATE) before anything is queued. */
  async function checkAddress(address: string): Promise<void> {
    try {
      await assertPublicAddress(parseFetchableUrl(address), { allowPrivate: deps.fetch.allowPrivate });
    } catch (error) {
      if (error instanceof SafeFetchError) throw badRequest(error.message);
      throw error;
    }
  }

  return {
    /** POST /audits: checked, limited, stored and queued in one transaction. */
    async start(
      userId: string,
      request: z.output<typeof startAuditRequestSchema>,
    ): Promise<StartAuditResponse> {
      await checkAddress(request.url);
      const audit = await db.transaction(async (tx) => {
        await lockUser(tx, userId);
        if ((await countActiveAudits(tx, userId)) >= MAX_ACTIVE_AUDITS)
          throw new AuditLimitError(
            `You already have ${MAX_ACTIVE_AUDITS} audits queued or running. Please wait for one to finish.`,
            ACTIVE_RETRY_AFTER_SECONDS,
          );
        const now = Date.now();
        const today = await auditsStartedSince(tx, userId, new Date(now - DAY_MS));
        if (today.n >= MAX_AUDITS_PER_DAY) {
          const freesAt = (today.oldest?.getTime() ?? now) + DAY_MS;
          const seconds = Math.max(1, Math.ceil((freesAt - now) / 1000));
          const hours = Math.ceil(seconds / 3600);
          throw new AuditLimitError(
            `You have started ${MAX_AUDITS_PER_DAY} audits in the last 24 hours, the most allowed. Please try again in ${hours} hour${hours === 1 ? '' : 's'}.`,
            seconds,
          );
        }
        const row = await insertAudit(tx, {
          userId,
          url: request.url,
          scope: request.scope,
          maxPages: request.maxPages,
        });
        await queue.send(jobNames.runAudit, { auditId: row.id }, { tx });
        return row;
      });
      // The job is the durable copy; starting here as well saves the queue's polling delay.
      if (deps.runsWorkers) runs.kick(audit.id);
      return { id: audit.id };
    },

    async get(userId: string, auditId: string): Promise<Audit> {
      const row = await findAuditOf(db, userId, auditId);
      if (!row) throw auditNotFound();
      return toAudit(row);
    },

    async list(userId: string): Promise<Audit[]> {
      const rows = await listAuditsOf(db, userId, LIST_LIMIT);
      const answers: Audit[] = [];
      for (const row of rows) answers.push(await toAudit(row));
      return answers;
    },

    async images(
      userId: string,
      auditId: string,
      query: z.output<typeof auditImagesQuerySchema>,
    ): Promise<AuditImagesResponse> {
      if (!(await findAuditOf(db, userId, auditId))) throw auditNotFound();
      const { page, pageSize, ...filters } = query;
      const { rows, total } = await listImages(db, auditId, filters, { page, pageSize });
      return {
        items: rows.map((row) => ({
          id: row.id,
          pageUrl: row.pageUrl,
          src: row.src,
          alt: row.alt,
          role: row.role,
          ...namingOf(row.alt, row.facts),
          verdict: row.verdict,
          problems: row.problems as AuditProblem[],
          suggestion: row.suggestion,
          longDescription: row.longDescription,
          reviewState: row.reviewState,
          fixStatus: fixStatusOf(row.itemStatus),
          thumbnailUrl: row.thumbnailUrl,
        })),
        total,
      };
    },

    /** GET /audits/{id}/pages: the pages the audit visits, with their image counts. */
    async pages(userId: string, auditId: string): Promise<AuditPagesResponse> {
      if (!(await findAuditOf(db, userId, auditId))) throw auditNotFound();
      return { items: await listAuditPages(db, auditId) };
    },

    /** GET /audits/{id}/pages/{pageId}/announcements: a page's screen-reader preview. */
    async announcements(userId: string, auditId: string, pageId: string): Promise<PageAnnouncementsResponse> {
      if (!(await findAuditOf(db, userId, auditId))) throw auditNotFound();
      const page = await findAuditPage(db, auditId, pageId);
      if (!page) throw notFound('There is no such page in this audit.');
      const items = (page.announcements?.items ?? []).map((item) => ({ ...item, spoken: spokenOf(item) }));
      const marked = (kind: 'redundant' | 'verbose') =>
        items.filter((item) => item.flags.some((flag) => flag.kind === kind)).length;
      return {
        pageId: page.id,
        url: page.url,
        items,
        truncated: page.announcements?.truncated ?? false,
        hiddenImages: page.hiddenImages,
        redundant: marked('redundant'),
        verbose: marked('verbose'),
      };
    },

    /** POST /audits/{id}/fix. */
    fix: fixer.fix,

    /** POST /audits/{id}/review. */
    review: fixer.review,

    /** GET /audits/{id}/report.csv and .xlsx: the file's name and body. */
    async report(
      userId: string,
      auditId: string,
      format: 'csv' | 'xlsx',
    ): Promise<{ fileName: string; body: string | Buffer }> {
      const audit = await findAuditOf(db, userId, auditId);
      if (!audit) throw auditNotFound();
      const images = await listReportImages(db, auditId, MAX_REPORT_ROWS + 1);
      if (images.length > MAX_REPORT_ROWS)
        throw new AppError(
          errorCodes.payloadTooLarge,
          `This audit has more than ${MAX_REPORT_ROWS.toLocaleString('en-US')} images, too many for one report.`,
        );
      const rows: AuditReportRow[] = images.map((image) => ({
        pageUrl: image.page_url,
        imageUrl: image.src,
        existingAlt: image.alt,
        verdict: image.verdict,
        problemCodes: image.problems.map((problem) => problem.code),
        wcag: [...new Set(image.problems.flatMap((problem) => problem.wcag))].sort(),
        ...(image.suggestion !== null ? { suggestedAlt: image.suggestion } : {}),
        ...(image.long_description !== null ? { longDescription: image.long_description } : {}),
        ...(image.review_state ? { reviewState: image.review_state } : {}),
      }));
      const fileName = `${reportBaseName(audit.url, audit.createdAt)}.${format}`;
      return { fileName, body: format === 'csv' ? buildAuditCsv(rows) : await buildAuditXlsx(rows) };
    },

    /** The job handler: runs one audit to its end (or until this process stops). */
    runAudit(auditId: string): Promise<void> {
      return runs.run(auditId);
    },

    /** On worker start: queue every unfinished audit again (a process may have died mid-way). */
    async resumeUnfinishedAudits(): Promise<number> {
      const ids = await listUnfinishedAuditIds(db);
      for (const auditId of ids) await queue.send(jobNames.runAudit, { auditId });
      if (ids.length > 0) logger.info({ audits: ids.length }, 'resuming unfinished audits');
      return ids.length;
    },

    /** Stops claiming pages and waits for the ones under way (app close). */
    close(): Promise<void> {
      return runs.close();
    },
  };
}
