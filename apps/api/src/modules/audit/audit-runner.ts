import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditVerdict } from '@altwise/contracts/audit-problems';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client.ts';
import type { Audit, AuditCounts } from '../../db/tables/audits.ts';
import { SandboxLimitError } from '../../lib/sandbox.ts';
import { pageKey } from '../../pages/extract-page.ts';
import {
  hiddenImagesNote,
  type PageSandbox,
  pageLimitNote,
  unreadablePageNote,
} from '../../pages/page-sandbox.ts';
import type { PageHandlers } from '../../pages/page-worker.ts';
import { type AuditImageFacts, auditScore, type ImageVerdict } from '../../rules/checks.ts';
import { type Crawler, PAGES_AT_ONCE_PER_HOST } from './crawler.ts';
import type { createPixelChecker } from './pixel-check.ts';
import { cropShots, type ScreenshotKeeper } from './render/screenshots.ts';
import {
  addAuditNotice,
  addPages,
  type ClaimedPage,
  claimNextPage,
  countOpenPages,
  endUnreadPage,
  findAudit,
  finishAudit,
  landScannedPage,
  listPageNotes,
  markAuditRunning,
  markSeeded,
  summarizeImages,
} from './repository.ts';
import type { RobotsRules } from './robots.ts';

type PageAudit = ReturnType<PageHandlers['auditPage']>;

/** A page claimed by a process that stopped is taken over after this long (a fetch takes ≤ 15 s). */
const PAGE_LEASE_SECONDS = 60;
/** Most sitemap files one sitemap audit reads (an index and its sitemaps). */
const MAX_SITEMAP_FILES = 50;
/** How often a worker with nothing to claim looks again while other pages are under way. */
const IDLE_POLL_MS = 100;

/** The process is stopping: the audit is left for a job retry or the next start to finish. */
export class AuditInterrupted extends Error {
  constructor() {
    super('The worker stopped before the audit finished; it resumes on retry or at the next start.');
    this.name = 'AuditInterrupted';
  }
}

/**
 * A page's image as a row stores it: where it is, its verdict, and its facts without what the row
 * has in columns or what only the pixel check adds (`facts.pixels`, later). The accessible name is
 * kept only where it is not already the ARIA label or the alt (namingOf reads it back).
 */
export function toStoredImage(facts: AuditImageFacts, position: number, verdict: ImageVerdict | undefined) {
  const {
    pageUrl,
    src,
    alt,
    role,
    informative: _informative,
    imageText: _imageText,
    imageTextConfidence: _confidence,
    ...rest
  } = facts;
  if (rest.nameSource !== 'title' && rest.nameSource !== 'svg-title') delete rest.name;
  return {
    position,
    pageUrl,
    src,
    alt,
    role,
    facts: rest,
    verdict: verdict?.verdict ?? 'pass',
    problems: verdict?.problems ?? [],
  };
}

/** Score from verdict counts: the share of non-decorative images that pass. */
export function scoreOf(counts: AuditCounts): number | null {
  const verdicts: AuditVerdict[] = [];
  for (const verdict of ['pass', 'fail', 'warning', 'decorative'] as const)
    for (let i = 0; i < counts[verdict]; i++) verdicts.push(verdict);
  return auditScore(verdicts);
}

/**
 * Runs one audit to its end. Every step can be repeated: the pages to visit are stored before
 * they are fetched (unique per audit and URL), a page is claimed before it is fetched, and its
 * images land with it in one transaction only while the claim holds. So a run that resumes after
 * a restart fetches only the pages not yet scanned and stores no image twice.
 */
export function createAuditRunner(deps: {
  db: Database;
  crawler: Crawler;
  /** Reads and checks pages in worker threads: a hostile page never blocks the API. */
  pages: PageSandbox;
  logger: FastifyBaseLogger;
  /** Looks at images' pixels once every page is scanned (ADR 037); absent = HTML only. */
  pixels?: ReturnType<typeof createPixelChecker>;
  /** Called in the transaction that completes an audit: outgoing webhooks queue audit.completed (ADR 029). */
  onAuditCompleted?: (tx: Transaction, auditId: string) => Promise<unknown>;
  /** Where screenshots of rendered pages' images are kept (ADR 061); absent = none kept. */
  screenshots?: ScreenshotKeeper;
}) {
  const { db, crawler, logger } = deps;

  async function fail(audit: Audit, error: string) {
    const { counts, problems } = await summarizeImages(db, audit.id);
    await finishAudit(db, audit.id, { status: 'failed', error, score: scoreOf(counts), counts, problems });
  }

  /**
   * The sitemap's pages, index files followed, each file read as it arrives and left as soon as
   * maxPages pages are known; null when the audit cannot go on (it has failed).
   */
  async function sitemapPages(audit: Audit, origin: string): Promise<string[] | null> {
    const start = new URL(audit.url);
    const first = /\.xml(\.gz)?$/i.test(start.pathname) ? pageKey(start) : `${origin}/sitemap.xml`;
    const files = [first];
    const seen = new Set(files);
    const pages = new Set<string>();
    let offOrigin = 0;
    for (let read = 0; read < files.length && read < MAX_SITEMAP_FILES; read++) {
      if (pages.size >= audit.maxPages) break;
      const file = files[read] as string;
      // A file's pages count only once it has been read to its end (or to maxPages) without fault.
      const found = new Set<string>();
      const listed: string[] = [];
      let away = 0;
      const answer = await crawler.fetchSitemap(file, origin, (kind, location) => {
        let url: URL;
        try {
          url = new URL(location, file);
        } catch {
          return 'more';
        }
        if (url.origin !== origin) {
          away++;
          return 'more';
        }
        const key = pageKey(url);
        if (kind === 'index') {
          if (!seen.has(key)) {
            seen.add(key);
            listed.push(key);
          }
          // One more than can be read is enough to say that only the first ones were.
          return files.length + listed.length > MAX_SITEMAP_FILES ? 'enough' : 'more';
        }
        if (!pages.has(key)) found.add(key);
        return pages.size + found.size >= audit.maxPages ? 'enough' : 'more';
      });
      let problem: string | null = null;
      if (!answer.ok) problem = `The sitemap could not be read: ${answer.note}`;
      else if (answer.kind === 'not-xml')
        problem = `${file} is not an XML sitemap (it answered with ${answer.contentType.split(';')[0] || 'no content type'}).`;
      if (problem) {
        if (read === 0) {
          await fail(audit, problem);
          return null;
        }
        await addAuditNotice(db, audit.id, problem);
        continue;
      }
      offOrigin += away;
      files.push(...listed);
      for (const page of found) pages.add(page);
    }
    if (offOrigin > 0)
      await addAuditNotice(
        db,
        audit.id,
        `The sitemap lists ${offOrigin} address${offOrigin === 1 ? '' : 'es'} on other sites; the audit stays on ${origin} and left ${offOrigin === 1 ? 'it' : 'them'} out.`,
      );
    if (files.length > MAX_SITEMAP_FILES)
      await addAuditNotice(db, audit.id, `Only the first ${MAX_SITEMAP_FILES} sitemap files were read.`);
    if (pages.size === 0) {
      await fail(audit, `The sitemap ${first} lists no pages of ${origin}.`);
      return null;
    }
    return [...pages];
  }

  /** Stores the pages to start from; false when the audit has failed instead. */
  async function seed(audit: Audit, origin: string): Promise<boolean> {
    if (audit.seededAt) return true;
    const urls =
      audit.scope === 'sitemap' ? await sitemapPages(audit, origin) : [pageKey(new URL(audit.url))];
    if (!urls) return false;
    await db.transaction((tx) =>
      addPages(
        tx,
        audit.id,
        urls.map((url) => ({ url, depth: 0 })),
      ),
    );
    await markSeeded(db, audit.id);
    return true;
  }

  /** The page read in the page sandbox; a note in words instead when it hit a reading limit. */
  async function readHtml(
    auditId: string,
    html: string,
    pageUrl: URL,
    address: string,
    marker?: string,
  ): Promise<{ reading: PageAudit } | { note: string }> {
    try {
      return {
        reading: await deps.pages.run('auditPage', {
          html,
          pageUrl: pageUrl.href,
          ...(marker ? { marker } : {}),
        }),
      };
    } catch (error) {
      // A page too large or too complex to read is said in words; the audit goes on without it.
      if (!(error instanceof SandboxLimitError) || error.limit === 'closed') throw error;
      logger.info({ audit: auditId, page: address, limit: error.limit }, 'a page hit a reading limit');
      return { note: unreadablePageNote(address, error, deps.pages.limits) };
    }
  }

  /** Scripts that may build the page: `<script` anywhere in its HTML (a linear scan). */
  const runsScripts = (html: string) => /<script[\s>]/i.test(html);

  async function scanPage(
    audit: Audit,
    origin: string,
    robots: RobotsRules,
    page: ClaimedPage,
    claimId: string,
    once: { noBrowserNoted: boolean },
  ) {
    const claim = { id: page.id, claimId };
    const url = new URL(page.url);
    if (!robots.allows(`${url.pathname}${url.search}`)) {
      await endUnreadPage(db, claim, 'skipped', `robots.txt disallows ${page.url}, so it was not fetched.`);
      return;
    }
    const answer = await crawler.fetchPage(page.url, origin, robots);
    if (!answer.ok) {
      await endUnreadPage(db, claim, answer.skipped ? 'skipped' : 'failed', answer.note);
      return;
    }
    // `auto` reads the HTML as sent first: only a page with no images that runs scripts is rendered.
    let raw: Awaited<ReturnType<typeof readHtml>> | null = null;
    let render = audit.render === 'always';
    if (audit.render === 'auto') {
      raw = await readHtml(audit.id, answer.body, answer.url, page.url);
      render = 'reading' in raw && raw.reading.images.length === 0 && runsScripts(answer.body);
      if (render && !crawler.canRender) {
        render = false;
        if (!once.noBrowserNoted) {
          once.noBrowserNoted = true;
          await addAuditNotice(
            db,
            audit.id,
            `${page.url} has no images in its HTML but runs scripts that may add some. No browser is configured on this server to render it, so the audit read the HTML as sent.`,
          );
        }
      }
    }
    let outcome: Awaited<ReturnType<typeof readHtml>> | null = null;
    let rendered = false;
    let shots: (Buffer | null)[] = [];
    if (render) {
      const shown = await crawler.renderPage(page.url, origin, robots, {
        withShots: Boolean(deps.screenshots),
        // The audit's pages share one tab: one site, one owner (ADR 061).
        key: audit.id,
        // Rendering slots are shared fairly between users (ADR 072).
        owner: audit.userId,
      });
      if (shown.ok) {
        outcome = await readHtml(audit.id, shown.html, shown.url, page.url, shown.marker);
        for (const note of shown.notes) await addAuditNotice(db, audit.id, note);
        if ('reading' in outcome) {
          rendered = true;
          shots = await cropShots(shown.shots, outcome.reading.marks);
        }
      } else {
        await addAuditNotice(db, audit.id, `${shown.note} The audit read its HTML as sent instead.`);
      }
    }
    if (!outcome || !('reading' in outcome))
      outcome = raw ?? (await readHtml(audit.id, answer.body, answer.url, page.url));
    if ('note' in outcome) {
      await endUnreadPage(db, claim, 'failed', outcome.note);
      return;
    }
    const reading = outcome.reading;
    for (const limit of reading.limits) await addAuditNotice(db, audit.id, pageLimitNote(page.url, limit));
    if (reading.hiddenImages > 0)
      await addAuditNotice(db, audit.id, hiddenImagesNote(page.url, reading.hiddenImages));
    const verdicts = reading.verdicts;
    const keys: string[] = [];
    const images = [];
    for (const [position, facts] of reading.images.entries()) {
      const shot = shots[position];
      const screenshotKey = shot && deps.screenshots ? await deps.screenshots.save(audit.userId, shot) : null;
      if (screenshotKey) keys.push(screenshotKey);
      images.push({ ...toStoredImage(facts, position, verdicts[position]), screenshotKey });
    }
    const links =
      audit.scope === 'site' ? reading.links.map((link) => ({ url: link, depth: page.depth + 1 })) : [];
    let landed = false;
    try {
      landed = await landScannedPage(db, audit.id, claim, images, links, rendered, {
        hiddenImages: reading.hiddenImages,
        announcements: reading.announcements,
      });
    } finally {
      // Screenshots no row took (the claim was lost, or the landing failed) are not kept.
      if (!landed && keys.length > 0) await deps.screenshots?.discard(keys);
    }
  }

  return {
    async runAudit(auditId: string, stopping: () => boolean): Promise<void> {
      const audit = await findAudit(db, auditId);
      if (!audit || audit.finishedAt) return;
      await markAuditRunning(db, auditId);
      const origin = new URL(audit.url).origin;
      const { rules: robots, unreachable } = await crawler.fetchRobots(origin);
      if (unreachable) {
        await addAuditNotice(db, audit.id, unreachable);
        await fail(audit, `The robots.txt of ${origin} could not be read, so the audit fetched no page.`);
        return;
      }
      if (robots.disallowsAll) {
        await fail(
          audit,
          `The robots.txt of ${origin} disallows every page to crawlers, so the audit fetched none.`,
        );
        return;
      }
      if (!(await seed(audit, origin))) return;

      let inFlight = 0;
      const once = { noBrowserNoted: false };
      const work = async () => {
        for (;;) {
          if (stopping()) return;
          const claimId = randomUUID();
          const page = await claimNextPage(db, auditId, claimId, PAGE_LEASE_SECONDS);
          if (!page) {
            // Another worker's page may still add links; a stopped process's claim expires.
            if (inFlight === 0 && (await countOpenPages(db, auditId)) === 0) return;
            await sleep(inFlight > 0 ? IDLE_POLL_MS : 1000);
            continue;
          }
          inFlight++;
          try {
            await scanPage(audit, origin, robots, page, claimId, once);
          } catch (error) {
            logger.warn({ err: error, audit: auditId, page: page.url }, 'auditing a page failed');
            await endUnreadPage(db, { id: page.id, claimId }, 'failed', `${page.url} could not be audited.`);
          } finally {
            inFlight--;
          }
        }
      };
      await Promise.all(Array.from({ length: PAGES_AT_ONCE_PER_HOST }, work));
      if (stopping()) throw new AuditInterrupted();
      // Pixels last: which images are looked at depends on every page, not on which landed first.
      await deps.pixels?.checkAudit(auditId, stopping);
      if (stopping()) throw new AuditInterrupted();

      const finished = await findAudit(db, auditId);
      if (!finished || finished.finishedAt) return;
      const { counts, problems } = await summarizeImages(db, auditId);
      if (finished.pagesScanned === 0) {
        const [why] = await listPageNotes(db, auditId, 1);
        await finishAudit(db, auditId, {
          status: 'failed',
          error: why ?? 'No page of the audit could be read.',
          score: null,
          counts,
          problems,
        });
        return;
      }
      await db.transaction(async (tx) => {
        const ended = await finishAudit(tx, auditId, {
          status: 'completed',
          score: scoreOf(counts),
          counts,
          problems,
        });
        if (ended) await deps.onAuditCompleted?.(tx, auditId);
      });
    },
  };
}
