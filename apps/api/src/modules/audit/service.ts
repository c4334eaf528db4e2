import {
  type Audit,
  type AuditImagesResponse,
  type AuditPagesResponse,
  type auditImagesQuerySchema,
  MAX_ACTIVE_AUDITS,
  MAX_AUDITS_PER_DAY,
  MAX_LISTED_AUDIT_PAGES,
  type PageAnnouncementsResponse,
  type StartAuditResponse,
  type startAuditRequestSchema,
} from '@altwise/contracts/audit';
import { errorCodes } from '@altwise/contracts/errors';
import type { AltOrigin } from '@altwise/contracts/provenance';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, Transaction } from '../../db/client.ts';
import type { Audit as AuditRow } from '../../db/tables/audits.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import { jobNames } from '../../jobs/names.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { createRunScheduler } from '../../jobs/run-scheduler.ts';
import { SandboxLimitError } from '../../lib/sandbox.ts';
import { assertPublicAddress, parseFetchableUrl, SafeFetchError } from '../../net/safe-fetch.ts';
import { spokenOf } from '../../pages/announcements.ts';
import { type PageSandbox, pageLimitNote, unreadablePageNote } from '../../pages/page-sandbox.ts';
import { judgePublishable, type UnpublishableCode } from '../../rules/publishable.ts';
import type { StoredObject } from '../../storage/file-storage.ts';
import { lockUser } from '../accounts/queries.ts';
import type { FilesService } from '../files/service.ts';
import type { FetchSettings } from '../scrape/service.ts';
import { createAuditRunner, scoreOf, toStoredImage } from './audit-runner.ts';
import { createCrawler } from './crawler.ts';
import {
  auditImageOrigin,
  createAuditFixer,
  type FixGeneration,
  judgeSuggestion,
  toAuditImage,
} from './fix.ts';
import { createPixelChecker, type ImageTextReader } from './pixel-check.ts';
import { createAuditPreviewKeeper } from './previews.ts';
import type { Renderer } from './render/renderer.ts';
import { createScreenshotKeeper } from './render/screenshots.ts';
import { type AuditReportRow, buildAuditCsv, buildAuditXlsx } from './report.ts';
import {
  type ApprovedImageRow,
  auditsStartedSince,
  countActiveAudits,
  countRenderedPages,
  countReviews,
  findAuditOf,
  findAuditPage,
  findImageScreenshot,
  finishAudit,
  insertAudit,
  insertWholeAudit,
  listApprovedImages,
  listAuditPages,
  listAuditsOf,
  listImagePlaces,
  listImagePreviews,
  listImages,
  listPageNotes,
  listPages,
  listReportImages,
  listUnfinishedAuditIds,
  summarizeImages,
  unapproveImages,
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

/** What a caller knows of words Altwise wrote to a site (ADR 069): their origin and the evidence. */
export type WrittenByUs = {
  origin: AltOrigin;
  reasons: { source: string; detail: string; score?: number }[];
  fileName?: string;
};

/** Which audit problem an unpublishable verdict shows as (ADR 069). */
const unpublishableProblem: Record<UnpublishableCode, 'vague' | 'file-name' | 'missing'> = {
  'needs-words': 'missing',
  'kind-and-tone': 'vague',
  'file-name': 'file-name',
  'title-prefix': 'vague',
  ungrounded: 'vague',
};

/**
 * An image whose alt Altwise wrote (ADR 069): it keeps the origin the change log knows and is
 * judged like any suggestion; words that may not go live fail, whatever the checks said of them.
 */
function judgeOurWords<T extends ReturnType<typeof toStoredImage>>(stored: T, ours: WrittenByUs): T {
  const verdict = judgePublishable({
    altText: stored.alt ?? '',
    decorative: false,
    origin: ours.origin,
    reasons: ours.reasons,
    context: {
      ...(stored.facts.heading ? { heading: stored.facts.heading } : {}),
      ...(ours.fileName ? { fileName: ours.fileName } : {}),
    },
  });
  if (verdict.publishable) return { ...stored, origin: ours.origin };
  const code = unpublishableProblem[verdict.code];
  return {
    ...stored,
    origin: ours.origin,
    verdict: 'fail',
    problems: [
      ...stored.problems.filter((problem) => problem.code !== code),
      {
        code,
        severity: 'fail',
        wcag: ['1.1.1'],
        message: `Altwise wrote this alt text earlier. ${verdict.message}`,
      },
    ],
  };
}

/** An audit image with the alt text the user can publish, as the download with alt text reads it. */
export type AuditAltText = {
  src: string;
  pageUrl: string;
  /** The accepted or edited suggestion, else a passing alt the page already had; null when neither. */
  altText: string | null;
  longDescription: string | null;
  origin: AltOrigin | null;
  engine: string | null;
  model: string | null;
  /** Why there is no alt text to write, in words. */
  missing: string | null;
};

/**
 * The owner's audit's images, one per address (the first in page order that has an alt text to
 * publish wins); 404 when the audit is not the caller's. An image's alt
 * text is its accepted or edited suggestion, else the page's own alt when the audit passed it.
 */
export async function listAuditAltTexts(
  db: Database,
  userId: string,
  auditId: string,
): Promise<{ url: string; createdAt: Date; images: AuditAltText[] }> {
  const audit = await findAuditOf(db, userId, auditId);
  if (!audit) throw notFound('There is no such audit.');
  const rows = await listReportImages(db, auditId, MAX_REPORT_ROWS);
  const bySrc = new Map<string, AuditAltText>();
  for (const row of rows) {
    const approved = row.reviewState === 'accepted' || row.reviewState === 'edited';
    // An approved text that may not go live (ADR 067) is not written: no filler leaves (ADR 068).
    const verdict = approved ? judgeSuggestion(row) : null;
    if (verdict && !verdict.publishable) {
      const known = bySrc.get(row.src);
      if (!known)
        bySrc.set(row.src, {
          src: row.src,
          pageUrl: row.pageUrl,
          altText: null,
          longDescription: null,
          origin: null,
          engine: null,
          model: null,
          missing: verdict.message,
        });
      continue;
    }
    const passing = row.verdict === 'pass' && row.alt !== null && row.alt.trim() !== '';
    const image: AuditAltText = approved
      ? {
          src: row.src,
          pageUrl: row.pageUrl,
          altText: row.suggestion,
          longDescription: row.longDescription,
          origin: auditImageOrigin(row.origin, row.alt),
          engine: row.suggestionDetails?.engine ?? null,
          model: row.suggestionDetails?.model ?? null,
          missing: null,
        }
      : passing
        ? {
            src: row.src,
            pageUrl: row.pageUrl,
            altText: row.alt,
            longDescription: null,
            origin: 'human',
            engine: null,
            model: null,
            missing: null,
          }
        : {
            src: row.src,
            pageUrl: row.pageUrl,
            altText: null,
            longDescription: null,
            origin: null,
            engine: null,
            model: null,
            missing:
              row.verdict === 'decorative'
                ? 'Decorative: its empty alt says so; there is no alt text to write.'
                : row.suggestion !== null
                  ? 'Its suggestion is not accepted yet.'
                  : 'It has no approved alt text yet: fix it and accept the suggestion.',
          };
    const known = bySrc.get(row.src);
    if (!known || (known.altText === null && image.altText !== null)) bySrc.set(row.src, image);
  }
  return { url: audit.url, createdAt: audit.createdAt, images: [...bySrc.values()] };
}

/**
 * Alt-text audits (ADR 026): free, limited per user, run by the durable `audit.run` job,
 * readable by their owner only.
 */
export function createAuditService(deps: {
  db: Database;
  queue: JobQueue;
  fetch: FetchSettings;
  /** The process's page reader (worker threads). */
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
  files?: Pick<FilesService, 'saveFile' | 'deleteFile' | 'openOwnedFile'>;
  /** The process's headless browser for rendered audits (ADR 061); null when none is configured. */
  renderer?: Renderer | null;
}) {
  const { db, queue, logger } = deps;
  const fixer = createAuditFixer({
    db,
    generation: deps.generation,
    ...(deps.files ? { files: deps.files } : {}),
  });
  const crawler = createCrawler(deps.fetch, deps.renderer);
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
    ...(deps.files ? { screenshots: createScreenshotKeeper(deps.files) } : {}),
  });
  /** This process's run of each audit: a job for an audit already running here joins that run. */
  const runs = createRunScheduler({
    run: (auditId, stopping) => runner.runAudit(auditId, stopping),
    onKickFailed: (error, auditId) => logger.error({ err: error, audit: auditId }, 'audit run failed'),
  });

  async function toAudit(row: AuditRow, withPages = false): Promise<Audit> {
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
      render: row.render,
      pagesRendered: await countRenderedPages(db, row.id),
      ...(withPages ? { pages: await listPages(db, row.id, MAX_LISTED_AUDIT_PAGES) } : {}),
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
    /**
     * POST /audits: checked, limited, stored and queued in one transaction. `onStarted` runs in that
     * transaction (a monitor records its run there, ADR 062): if it throws, nothing is stored or queued.
     */
    async start(
      userId: string,
      request: z.output<typeof startAuditRequestSchema>,
      options: { onStarted?: (tx: Transaction, auditId: string) => Promise<void> } = {},
    ): Promise<StartAuditResponse> {
      await checkAddress(request.url);
      if (request.render === 'always' && !deps.renderer)
        throw new AppError(
          errorCodes.renderingUnavailable,
          'This server has no browser to render pages with, so render "always" cannot be done. Use render "auto" or "never" to audit the HTML as sent, or ask the administrator to set CHROMIUM_PATH.',
        );
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
          render: request.render,
        });
        await options.onStarted?.(tx, row.id);
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
      return toAudit(row, true);
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
        items: rows.map(toAuditImage),
        total,
      };
    },

    /** GET /audits/{id}/images/{imageId}/screenshot: the owner's screenshot of a rendered image. */
    async screenshot(userId: string, auditId: string, imageId: string): Promise<StoredObject> {
      if (!(await findAuditOf(db, userId, auditId))) throw auditNotFound();
      const image = await findImageScreenshot(db, auditId, imageId);
      if (!image) throw notFound('There is no such image in this audit.');
      const file =
        image.screenshotKey && deps.files
          ? await deps.files.openOwnedFile(image.screenshotKey, userId)
          : null;
      if (!file)
        throw notFound(
          'This image has no screenshot: its page was not rendered or the image was not on screen.',
        );
      return file;
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
      const rows: AuditReportRow[] = images.map((image) => {
        const origin = auditImageOrigin(image.origin, image.alt);
        return {
          pageUrl: image.pageUrl,
          imageUrl: image.src,
          existingAlt: image.alt,
          verdict: image.verdict,
          problemCodes: image.problems.map((problem) => problem.code),
          wcag: [...new Set(image.problems.flatMap((problem) => problem.wcag))].sort(),
          // A suggestion that may not go live is left out of the file (ADR 067, 068).
          ...(image.suggestion !== null && judgeSuggestion(image).publishable
            ? { suggestedAlt: image.suggestion }
            : {}),
          ...(image.longDescription !== null ? { longDescription: image.longDescription } : {}),
          ...(image.reviewState ? { reviewState: image.reviewState } : {}),
          ...(origin ? { origin } : {}),
        };
      });
      const fileName = `${reportBaseName(audit.url, audit.createdAt)}.${format}`;
      return { fileName, body: format === 'csv' ? buildAuditCsv(rows) : await buildAuditXlsx(rows) };
    },

    /**
     * An audit of pages another module read (a WordPress import): each page's HTML is
     * read and checked in the page sandbox like a crawled page, then the audit lands completed in
     * one transaction under `auditId`. Landing the same id again changes nothing. Answers where
     * each image is (page URL and position), for the caller to map images to its own items.
     */
    async recordWholeAudit(
      userId: string,
      audit: {
        auditId: string;
        url: string;
        notices: string[];
        pages: { url: string; html: string }[];
        /**
         * Words Altwise itself wrote to the site earlier (ADR 069), found again by the import: the
         * image keeps that origin (never "written by a person") and fails when the words may not go
         * live, so no score counts our own ungrounded text as done.
         */
        writtenByUs?: (pageUrl: string, src: string, alt: string) => WrittenByUs | undefined;
      },
    ): Promise<{ id: string; pageUrl: string; position: number; src: string }[]> {
      if (await findAuditOf(db, userId, audit.auditId)) return listImagePlaces(db, audit.auditId);
      const notices = [...audit.notices];
      const pages: Parameters<typeof insertWholeAudit>[2] = [];
      for (const page of audit.pages) {
        let reading: Awaited<ReturnType<PageSandbox['run']>>;
        try {
          reading = await deps.pages.run('auditPage', { html: page.html, pageUrl: page.url });
        } catch (error) {
          if (!(error instanceof SandboxLimitError) || error.limit === 'closed') throw error;
          notices.push(unreadablePageNote(page.url, error, deps.pages.limits));
          continue;
        }
        for (const limit of reading.limits) notices.push(pageLimitNote(page.url, limit));
        pages.push({
          url: page.url,
          images: reading.images.map((facts, position) => {
            const stored = toStoredImage(facts, position, reading.verdicts[position]);
            const ours = stored.alt ? audit.writtenByUs?.(page.url, stored.src, stored.alt) : undefined;
            return ours ? judgeOurWords(stored, ours) : stored;
          }),
        });
      }
      await db.transaction(async (tx) => {
        await insertWholeAudit(
          tx,
          { id: audit.auditId, userId, url: audit.url, notices: notices.slice(0, MAX_NOTICES) },
          pages,
        );
        const { counts, problems } = await summarizeImages(tx, audit.auditId);
        await finishAudit(tx, audit.auditId, {
          status: 'completed',
          score: scoreOf(counts),
          counts,
          problems,
        });
        await deps.onAuditCompleted?.(tx, audit.auditId);
      });
      return listImagePlaces(db, audit.auditId);
    },

    /**
     * The accepted or edited images of one of the caller's audits (all, or these), with their words,
     * their origin and the engine's evidence (for the publishable rule, ADR 067).
     */
    async approvedImages(userId: string, auditId: string, imageIds?: string[]): Promise<ApprovedImageRow[]> {
      if (!(await findAuditOf(db, userId, auditId))) throw auditNotFound();
      return listApprovedImages(db, auditId, imageIds);
    },

    /**
     * The address and stored preview (ADR 051) of the caller's audit images among `imageIds`, by
     * image id: the preview is a copy served by this app, shown where the site's own address may not
     * load (an http site); null when none was made.
     */
    async imagePreviews(
      userId: string,
      imageIds: string[],
    ): Promise<Map<string, { src: string; thumbnailUrl: string | null }>> {
      const rows = await listImagePreviews(db, userId, [...new Set(imageIds)]);
      return new Map(rows.map((row) => [row.id, { src: row.src, thumbnailUrl: row.thumbnailUrl }]));
    },

    /** Puts these approved images of the caller's audit back to pending (an Undo, ADR 069). */
    async unapproveImages(userId: string, auditId: string, imageIds: string[]): Promise<number> {
      if (!(await findAuditOf(db, userId, auditId))) throw auditNotFound();
      return unapproveImages(db, auditId, imageIds);
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
