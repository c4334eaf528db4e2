import { randomUUID } from 'node:crypto';
import { errorCodes } from '@altwise/contracts/errors';
import {
  type ConnectWordPressRequest,
  type HeldBackImage,
  type Integration,
  type IntegrationChange,
  type IntegrationSummary,
  MAX_INTEGRATIONS,
  type PublishPreviewItem,
  type PublishPreviewResponse,
} from '@altwise/contracts/integrations';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client.ts';
import type {
  IntegrationChangeRow,
  IntegrationMediaRow,
  IntegrationPlacementRow,
  IntegrationPostRow,
  IntegrationRow,
  PublishProgress,
} from '../../db/tables/integrations.ts';
import { AppError, badRequest, conflict, notFound } from '../../errors.ts';
import { jobNames } from '../../jobs/names.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { createFairSlots, SlotsClosedError } from '../../lib/fair-slots.ts';
import { fileNameOfAddress } from '../../lib/file-names.ts';
import { SandboxLimitError } from '../../lib/sandbox.ts';
import { createProviderLimiters, type Settled, settleEach } from '../../lib/throttle.ts';
import { assertPublicAddress, parseFetchableUrl, SafeFetchError } from '../../net/safe-fetch.ts';
import { judgePublishable } from '../../rules/publishable.ts';
import type { AuditService, WrittenByUs } from '../audit/service.ts';
import type { CredentialBox } from './credentials.ts';
import {
  bareUrl,
  findOccurrence,
  listContentImages,
  setImageAlt,
  withoutUnmarkedEmptyAlts,
} from './post-images.ts';
import {
  countIntegrationsOf,
  countMedia,
  deleteChange,
  deleteIntegrationOf,
  findIntegration,
  findIntegrationOf,
  findLeaseUntil,
  findLiveChange,
  findPlacement,
  findPost,
  finishLeasedRun,
  insertIntegration,
  insertPendingChange,
  listChanges,
  listIntegrationsOf,
  listMedia,
  listPendingChanges,
  listPlacementsFor,
  listPosts,
  listUnfinishedRuns,
  lockIntegration,
  markChangePublished,
  markChangeUndone,
  releaseLease,
  renewLease,
  replacePlacements,
  resetImport,
  setChangeProvenance,
  setChangeWriting,
  setPostModified,
  takeLease,
  updateIntegration,
  upsertMedia,
  upsertPosts,
} from './repository.ts';
import {
  checkWordPress,
  createWordPressClient,
  MAX_BATCH_REQUESTS,
  type WordPressClient,
  WordPressError,
  type WordPressErrorReason,
} from './wordpress-client.ts';

/** Most pages of media, of posts and of pages an import reads (500 pages of 100; ADR 070). */
const MAX_PAGES_PER_STAGE = 500;
/**
 * Most images an import keeps (ADR 070): a library's first 5,000 by id. The audit's library page
 * checks at most 1,000 of them (MAX_AUDIT_IMAGES_PER_PAGE); the rest are found through the posts.
 */
const MAX_MEDIA_PER_IMPORT = 5_000;
/** Imports that run at once in one process, shared fairly between users (ADR 070). */
const IMPORT_SLOTS = 2;
/** How long an import job of a user who already has one waiting for a slot waits before it asks again. */
const IMPORT_RETRY_MS = 10_000;
/** Most audit pages an import makes (the library page and the posts that use its images). */
const MAX_AUDIT_PAGES = 500;

/** Attachments read per call while publishing or undoing (WordPress answers at most 100 a page). */
const MEDIA_PER_READ = 100;

/** Most held-back images a refused publish names in its `errors`. */
const MAX_PUBLISH_ERRORS = 100;

/** Most failed places a publish or undo keeps (GET /integrations/{id} → failures). */
const MAX_FAILURES = 1000;

/** An import or publish that has not moved for this long, and holds no lease, is taken as stopped. */
const STALE_RUN_MS = 30 * 60_000;

/** A run's lease on its site was taken over (it expired) or could not be renewed: it stops writing. */
class LeaseLostError extends Error {}

type FinishRun = (values: Parameters<typeof updateIntegration>[2]) => Promise<void>;

/** The hold a run has on its site (ADR 056 amendment): checked before every call, renewed before writes. */
type Lease = {
  /** Throws LeaseLostError once the heartbeat found the lease gone. */
  check: () => void;
  /** Renews the lease in the database now; throws LeaseLostError when another run holds it. */
  hold: () => Promise<void>;
};

/** Failures after which nothing else of the same run can work: the run stops and says why. */
/** Answers that say WordPress refused a call: nothing it was asked to write landed (ADR 056). */
const refusals: ReadonlySet<WordPressErrorReason> = new Set([
  'refused-address',
  'unauthorized',
  'forbidden',
  'not-found',
  'rate-limited',
  'rest-disabled',
  'rejected',
]);
const fatalReasons: WordPressErrorReason[] = [
  'unauthorized',
  'refused-address',
  'unreachable',
  'timeout',
  'rate-limited',
  'not-json',
  'rest-disabled',
];

type RestMedia = {
  id: number;
  source_url?: string;
  alt_text?: string;
  title?: { raw?: string; rendered?: string };
  caption?: { raw?: string; rendered?: string };
  description?: { raw?: string; rendered?: string };
  media_details?: { sizes?: Record<string, { source_url?: string }> };
};

type RestPost = {
  id: number;
  link?: string;
  modified_gmt?: string;
  title?: { raw?: string; rendered?: string };
  content?: { raw?: string; rendered?: string };
};

/** The address when it is an http(s) one: a post's `link` becomes an audit page's URL. */
function webLink(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** A field a site answered, when it is text (a hostile site may answer anything in its place). */
function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The file's name at the end of its address (`harbour.png`), as a person knows the image. */
function fileNameOfUrl(address: string): string {
  // A hostile site's name never carries a path, control or bidi character into our pages.
  return fileNameOfAddress(address) ?? address;
}

/** `en_US` (WordPress's locale) as a BCP 47 tag (`en-US`); undefined when it is not one. */
function languageTagOf(locale: unknown): string | undefined {
  if (typeof locale !== 'string') return undefined;
  const tag = locale.trim().replace(/_/g, '-');
  return /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i.test(tag) ? tag : undefined;
}

/** Text without tags, for captions and descriptions WordPress stores as HTML. */
function plainText(value: unknown): string {
  return (textOf(value) ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;

/**
 * Connected WordPress sites (ADR 056): connect with an application password (checked at
 * once, kept encrypted), import the media library and its placements as a normal audit, publish
 * approved alt text into the attachment and the posts, and undo any change.
 */
export function createIntegrationsService(deps: {
  db: Database;
  queue: JobQueue;
  audits: Pick<AuditService, 'recordWholeAudit' | 'approvedImages' | 'unapproveImages' | 'imagePreviews'>;
  box: CredentialBox;
  fetch: { allowPrivate: boolean };
  settings: {
    requestsPerMinute: number;
    timeoutMs: number;
    pageSize: number;
    leaseMs: number;
    maxAnswerBytes: number;
    /** Attachment writes in flight to one site at once (WORDPRESS_CONCURRENCY, ADR 076). */
    concurrency: number;
  };
  logger: FastifyBaseLogger;
}) {
  const { db, queue, logger } = deps;
  const limiterOf = createProviderLimiters(deps.settings.requestsPerMinute);
  const importSlots = createFairSlots(IMPORT_SLOTS);
  const { leaseMs } = deps.settings;
  const clientOptions = (integrationId: string, lease?: Lease) => ({
    allowPrivate: deps.fetch.allowPrivate,
    timeoutMs: deps.settings.timeoutMs,
    maxAnswerBytes: deps.settings.maxAnswerBytes,
    beforeCall: async (method: 'GET' | 'POST') => {
      await limiterOf(integrationId).take();
      // A run that lost its site reads nothing more and writes nothing more.
      if (method === 'POST') await lease?.hold();
      else lease?.check();
    },
  });
  const integrationNotFound = () => notFound('There is no such integration.');

  function clientFor(row: IntegrationRow, lease: Lease): WordPressClient {
    return createWordPressClient(
      {
        siteUrl: row.siteUrl,
        restStyle: row.restStyle,
        username: row.username,
        applicationPassword: deps.box.open(row.secret, row.id),
      },
      clientOptions(row.id, lease),
    );
  }

  /**
   * Runs `work` holding the site's lease: one run per site at a time across every process. The
   * lease is renewed every quarter of WORDPRESS_LEASE_MS while the run works. When another run holds
   * a live lease, or this one loses its own, the job is sent again to start when that lease ends: it
   * then finds the run finished (nothing to do) or takes over a run whose process died.
   */
  async function withLease(
    integrationId: string,
    again: (startAfter: Date) => Promise<unknown>,
    work: (row: IntegrationRow, lease: Lease, finish: FinishRun) => Promise<void>,
  ): Promise<void> {
    const token = randomUUID();
    const deferred = async () => {
      const until = await findLeaseUntil(db, integrationId);
      const row = await findIntegration(db, integrationId);
      if (row?.status !== 'importing' && row?.status !== 'publishing') return;
      await again(new Date((until?.getTime() ?? Date.now()) + 1000));
      logger.info({ integration: integrationId, until }, 'integration run waits for the live one');
    };
    const row = await takeLease(db, integrationId, token, leaseMs);
    if (!row) {
      await deferred();
      return;
    }
    let lost = false;
    const renew = async () => {
      const kept = await renewLease(db, integrationId, token, leaseMs).catch(() => false);
      if (!kept) lost = true;
      return kept;
    };
    const heartbeat = setInterval(() => void renew(), Math.max(250, Math.floor(leaseMs / 4)));
    heartbeat.unref();
    const lease: Lease = {
      check() {
        if (lost) throw new LeaseLostError();
      },
      async hold() {
        if (lost || !(await renew())) throw new LeaseLostError();
      },
    };
    const finish: FinishRun = async (values) => {
      if (!(await finishLeasedRun(db, integrationId, token, values))) throw new LeaseLostError();
    };
    try {
      if (row.status !== 'importing' && row.status !== 'publishing') {
        await releaseLease(db, integrationId, token);
        return;
      }
      await work(row, lease, finish);
    } catch (error) {
      if (error instanceof LeaseLostError) {
        logger.warn({ integration: integrationId }, 'integration run lost its lease and stopped writing');
        await deferred();
        return;
      }
      // The job's retry (or the next run) may take the site at once.
      await releaseLease(db, integrationId, token).catch(() => undefined);
      throw error;
    } finally {
      clearInterval(heartbeat);
    }
  }

  function toSummary(row: IntegrationRow): IntegrationSummary {
    return {
      id: row.id,
      kind: row.kind,
      siteUrl: row.siteUrl,
      username: row.username,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
    };
  }

  /**
   * The tally as the API shows it, with the time a run under way should still take at its pace so
   * far (ADR 076): none before its first place is done, or once it has ended.
   */
  function progressAnswer(status: IntegrationRow['status'], progress: PublishProgress) {
    const done = progress.written + progress.failed;
    const started = progress.startedAt ? Date.parse(progress.startedAt) : Number.NaN;
    const elapsed = Date.now() - started;
    const etaSeconds =
      status === 'publishing' && done > 0 && Number.isFinite(elapsed) && elapsed > 0
        ? Math.ceil(((elapsed / done) * Math.max(0, progress.total - done)) / 1000)
        : null;
    return {
      written: progress.written,
      failed: progress.failed,
      total: progress.total,
      startedAt: progress.startedAt ?? null,
      etaSeconds,
    };
  }

  function toIntegration(row: IntegrationRow): Integration {
    return {
      ...toSummary(row),
      mediaCount: row.mediaCount,
      imported: row.imported,
      placements: row.placements,
      auditId: row.auditId,
      lastImportAt: row.lastImportAt?.toISOString() ?? null,
      error: row.error,
      notice: row.notice,
      failures: (row.failures ?? []).map((failure) => ({ ...failure })),
      progress: row.progress ? progressAnswer(row.status, row.progress) : null,
    };
  }

  async function owned(userId: string, id: string): Promise<IntegrationRow> {
    const row = await findIntegrationOf(db, userId, id);
    if (!row) throw integrationNotFound();
    return row;
  }

  /** Marks the run started under the row lock: one import or publish at a time per site. */
  async function startRun(
    userId: string,
    id: string,
    begin: (tx: Transaction, row: IntegrationRow) => Promise<void>,
  ): Promise<IntegrationRow> {
    return db.transaction(async (tx) => {
      const row = await lockIntegration(tx, id);
      if (!row || row.userId !== userId) throw integrationNotFound();
      // A run whose process died and whose job gave up moves no more and holds no live lease: after
      // a while it may start again.
      const stale = !(await findLeaseUntil(tx, id)) && Date.now() - row.updatedAt.getTime() > STALE_RUN_MS;
      if (row.status === 'importing' && !stale)
        throw conflict('This site is being imported. Please wait until the import is done.');
      if (row.status === 'publishing' && !stale)
        throw conflict('Altwise is publishing to this site. Please wait until it is done.');
      await begin(tx, row);
      const started = await lockIntegration(tx, id);
      return started ?? row;
    });
  }

  function mediaUrlMap(media: IntegrationMediaRow[]): Map<string, number> {
    const map = new Map<string, number>();
    for (const item of media) for (const url of item.urls) map.set(bareUrl(url), item.mediaId);
    return map;
  }

  function totalPagesOf(headers: Record<string, unknown>): number {
    const pages = Number(headers['x-wp-totalpages']);
    return Number.isFinite(pages) && pages > 0 ? pages : 1;
  }

  // ── import ──────────────────────────────────────────────────────────────────────────────

  async function importMediaPage(
    row: IntegrationRow,
    client: WordPressClient,
    page: number,
  ): Promise<boolean> {
    const answer = await client.get<RestMedia[]>(
      `/wp/v2/media?media_type=image&context=edit&per_page=${deps.settings.pageSize}&page=${page}&orderby=id&order=asc`,
      'reading the media library',
    );
    if (!Array.isArray(answer.body))
      throw new WordPressError('not-json', 'The media library did not answer with a list.');
    const items = (answer.body as unknown[]).filter(
      (item): item is RestMedia =>
        isObject(item) && Number.isSafeInteger(item.id) && typeof item.source_url === 'string',
    );
    const room = Math.max(0, MAX_MEDIA_PER_IMPORT - (await countMedia(db, row.id)));
    const rows: IntegrationMediaRow[] = items.slice(0, room).map((item) => ({
      integrationId: row.id,
      mediaId: item.id,
      sourceUrl: item.source_url ?? '',
      urls: [
        item.source_url ?? '',
        ...Object.values(isObject(item.media_details?.sizes) ? item.media_details.sizes : {}).flatMap(
          (size) => (isObject(size) && typeof size.source_url === 'string' ? [size.source_url] : []),
        ),
      ],
      altText: textOf(item.alt_text) ?? '',
      title: textOf(item.title?.raw) ?? plainText(item.title?.rendered),
      caption: plainText(textOf(item.caption?.raw) ?? item.caption?.rendered),
      description: plainText(item.description?.raw),
    }));
    await upsertMedia(db, rows);
    const total = Number(answer.headers['x-wp-total']);
    const imported = await countMedia(db, row.id);
    const more = page < totalPagesOf(answer.headers) && answer.body.length > 0;
    // A library larger than an import keeps (or a site that never says its last page) stops here.
    const capped =
      items.length > room || (more && (imported >= MAX_MEDIA_PER_IMPORT || page >= MAX_PAGES_PER_STAGE));
    await updateIntegration(db, row.id, {
      imported,
      ...(Number.isSafeInteger(total) && total >= 0 ? { mediaCount: total } : {}),
      ...(capped
        ? {
            notice: `Only the first ${imported.toLocaleString('en')} images were imported. An import keeps at most ${MAX_MEDIA_PER_IMPORT.toLocaleString('en')} images of a site’s media library.`,
          }
        : {}),
    });
    return more && !capped;
  }

  async function importPostPage(
    row: IntegrationRow,
    client: WordPressClient,
    type: 'posts' | 'pages',
    page: number,
    mediaByUrl: Map<string, number>,
  ): Promise<boolean> {
    let answer: Awaited<ReturnType<WordPressClient['get']>>;
    try {
      answer = await client.get<RestPost[]>(
        `/wp/v2/${type}?context=edit&per_page=${deps.settings.pageSize}&page=${page}&orderby=id&order=asc`,
        `reading the ${type}`,
      );
    } catch (error) {
      // Past the last page WordPress answers 400 (rest_post_invalid_page_number).
      if (error instanceof WordPressError && error.status === 400 && page > 1) return false;
      throw error;
    }
    const posts = Array.isArray(answer.body) ? (answer.body as unknown[]) : [];
    const rows: IntegrationPostRow[] = [];
    for (const post of posts.filter(
      (item): item is RestPost => isObject(item) && Number.isSafeInteger(item.id),
    )) {
      const raw = textOf(post.content?.raw) ?? '';
      const images = listContentImages(raw, mediaByUrl)
        .filter((image) => image.mediaId !== null)
        .map((image) => ({ mediaId: image.mediaId as number, alt: image.alt, decorative: image.decorative }));
      if (images.length === 0) continue;
      rows.push({
        integrationId: row.id,
        postId: post.id,
        postType: type,
        title: textOf(post.title?.raw) ?? plainText(post.title?.rendered),
        link: webLink(post.link) ?? `${row.siteUrl.replace(/\/+$/, '')}/?p=${post.id}`,
        modified: textOf(post.modified_gmt) ?? '',
        rendered: textOf(post.content?.rendered) ?? '',
        images,
      });
    }
    await upsertPosts(db, rows);
    return page < Math.min(totalPagesOf(answer.headers), MAX_PAGES_PER_STAGE) && posts.length > 0;
  }

  /**
   * The import's audit: the library page (each attachment's own alt) and each post that uses them.
   * The library page has no title and no heading (ADR 069): nothing of ours can pass into an alt;
   * an attachment is described from the posts that use it (the fix picks the use that says most).
   * Every page carries the site's language as `<html lang>`.
   */
  async function landAudit(row: IntegrationRow, auditId: string, language?: string): Promise<number> {
    const media = await listMedia(db, row.id);
    const posts = await listPosts(db, row.id);
    const mediaByUrl = mediaUrlMap(media);
    const site = row.siteUrl.replace(/\/+$/, '');
    const libraryUrl = `${site}/wp-admin/upload.php`;
    const lang = language ? ` lang="${escapeHtml(language)}"` : '';
    // WordPress's empty alt_text means "not set", so the library page leaves the alt out (a missing
    // alt fails the checks); in a post, an alt="" nobody marked decorative is left out the same way.
    const figures = media.map(
      (item) =>
        `<figure><img src="${escapeHtml(item.sourceUrl)}"${item.altText ? ` alt="${escapeHtml(item.altText)}"` : ''}>${item.caption ? `<figcaption>${escapeHtml(item.caption)}</figcaption>` : ''}</figure>${item.description ? `<p>${escapeHtml(item.description)}</p>` : ''}`,
    );
    const pages = [
      {
        url: libraryUrl,
        html: `<!doctype html><html${lang}><head></head><body>${figures.join('\n')}</body></html>`,
      },
    ];
    const notices: string[] = [];
    const postByUrl = new Map<string, IntegrationPostRow>();
    const urlOfPost = new Map<number, string>();
    for (const post of posts) {
      if (pages.length >= MAX_AUDIT_PAGES) {
        notices.push(
          `Only the first ${MAX_AUDIT_PAGES - 1} posts and pages that use the library’s images were imported.`,
        );
        break;
      }
      let url = post.link;
      if (url === libraryUrl || postByUrl.has(url)) url = `${site}/?p=${post.postId}`;
      postByUrl.set(url, post);
      urlOfPost.set(post.postId, url);
      const content = withoutUnmarkedEmptyAlts(
        post.rendered,
        mediaByUrl,
        (image, occurrence) =>
          post.images.filter((used) => used.mediaId === image.mediaId)[occurrence]?.decorative === true,
      );
      pages.push({
        url,
        html: `<!doctype html><html${lang}><head><title>${escapeHtml(post.title)}</title></head><body><h1>${escapeHtml(post.title)}</h1>${content}</body></html>`,
      });
    }
    // What Altwise wrote and is still live (ADR 069): found again, it keeps its origin.
    const fileNameOf = new Map(media.map((item) => [item.mediaId, fileNameOfUrl(item.sourceUrl)]));
    const written = new Map<string, WrittenByUs>();
    for (const change of await listChanges(db, row.id)) {
      if (change.status !== 'published' || !change.origin) continue;
      const pageUrl = change.postId === null ? libraryUrl : urlOfPost.get(change.postId);
      if (!pageUrl) continue;
      const fileName = fileNameOf.get(change.mediaId);
      written.set(`${pageUrl}\u0000${change.mediaId}\u0000${change.after}`, {
        origin: change.origin,
        reasons: change.reasons ?? [],
        ...(fileName ? { fileName } : {}),
      });
    }
    const writtenByUs = (pageUrl: string, src: string, alt: string) => {
      const mediaId = mediaByUrl.get(bareUrl(src));
      return mediaId === undefined ? undefined : written.get(`${pageUrl}\u0000${mediaId}\u0000${alt}`);
    };
    const images = await deps.audits.recordWholeAudit(row.userId, {
      auditId,
      url: site,
      notices,
      pages,
      writtenByUs,
    });
    const placements: Omit<IntegrationPlacementRow, 'id'>[] = [];
    const byPage = new Map<string, typeof images>();
    for (const image of images) byPage.set(image.pageUrl, [...(byPage.get(image.pageUrl) ?? []), image]);
    for (const [pageUrl, pageImages] of byPage) {
      pageImages.sort((a, b) => a.position - b.position);
      if (pageUrl === libraryUrl) {
        for (const image of pageImages) {
          const mediaId = mediaByUrl.get(bareUrl(image.src));
          if (mediaId !== undefined)
            placements.push({
              integrationId: row.id,
              auditImageId: image.id,
              mediaId,
              postId: null,
              occurrence: 0,
            });
        }
        continue;
      }
      const post = postByUrl.get(pageUrl);
      if (!post) continue;
      // The rendered images are the raw content's, in order, when their numbers agree; else by URL.
      const byIndex = pageImages.length === post.images.length;
      const seen = new Map<number, number>();
      pageImages.forEach((image, index) => {
        const mediaId = byIndex ? post.images[index]?.mediaId : mediaByUrl.get(bareUrl(image.src));
        if (mediaId === undefined) return;
        const occurrence = seen.get(mediaId) ?? 0;
        seen.set(mediaId, occurrence + 1);
        placements.push({
          integrationId: row.id,
          auditImageId: image.id,
          mediaId,
          postId: post.postId,
          occurrence,
        });
      });
    }
    await replacePlacements(db, row.id, placements);
    return placements.filter((placement) => placement.postId !== null).length;
  }

  /**
   * The site's language from its settings (ADR 069), for the audit pages' `<html lang>`; undefined
   * when the user may not read the settings (an editor) or the site does not say.
   */
  async function readSiteLanguage(client: WordPressClient): Promise<string | undefined> {
    try {
      const answer = await client.get<{ language?: unknown }>(
        '/wp/v2/settings',
        'reading the site’s language',
      );
      return languageTagOf(answer.body?.language);
    } catch (error) {
      if (error instanceof WordPressError && !fatalReasons.includes(error.reason)) return undefined;
      throw error;
    }
  }

  /**
   * An import job: it waits for one of the process's import slots, shared fairly between users
   * (ADR 070), then imports under the site's lease, giving its slot up between two pages when another
   * user waits with none. A job of a user who already has one waiting comes back later instead of
   * holding a worker too, so other users' jobs are still taken from the queue.
   */
  async function runImport(integrationId: string): Promise<void> {
    const again = (startAfter: Date) =>
      queue.send(jobNames.importIntegration, { integrationId }, { startAfter });
    const owner = (await findIntegration(db, integrationId))?.userId;
    if (!owner) return;
    if (importSlots.isWaiting(owner)) {
      await again(new Date(Date.now() + IMPORT_RETRY_MS));
      return;
    }
    await importSlots.acquire(owner);
    try {
      await withLease(integrationId, again, (row, lease, finish) =>
        importLeased(row, lease, finish, () => importSlots.yieldTurn(owner)),
      );
    } finally {
      importSlots.release(owner);
    }
  }

  async function importLeased(
    leased: IntegrationRow,
    lease: Lease,
    finish: FinishRun,
    nextTurn: () => Promise<void>,
  ): Promise<void> {
    let row = leased;
    const integrationId = row.id;
    if (row.status !== 'importing' || !row.importCursor) return finish({});
    const client = clientFor(row, lease);
    let cursor = row.importCursor;
    const save = async (next: typeof cursor) => {
      lease.check();
      cursor = next;
      await updateIntegration(db, integrationId, { importCursor: next });
    };
    try {
      while (cursor.stage === 'media') {
        const more = await importMediaPage(row, client, cursor.page);
        await save(more ? { ...cursor, page: cursor.page + 1 } : { ...cursor, stage: 'posts', page: 1 });
        await nextTurn();
      }
      const mediaByUrl = mediaUrlMap(await listMedia(db, integrationId));
      while (cursor.stage === 'posts' || cursor.stage === 'pages') {
        const type = cursor.stage;
        const more = await importPostPage(row, client, type, cursor.page, mediaByUrl);
        const next = type === 'posts' ? ('pages' as const) : ('audit' as const);
        await save(more ? { ...cursor, page: cursor.page + 1 } : { ...cursor, stage: next, page: 1 });
        await nextTurn();
      }
      row = (await findIntegration(db, integrationId)) ?? row;
      const language = await readSiteLanguage(client);
      await lease.hold();
      const placements = await landAudit(row, cursor.auditId, language);
      await finish({
        status: 'imported',
        importCursor: { ...cursor, stage: 'done' },
        auditId: cursor.auditId,
        placements,
        lastImportAt: new Date(),
        error: null,
      });
    } catch (error) {
      // Lost its site or its slot (the process stops): another run or the job's retry goes on.
      if (
        error instanceof LeaseLostError ||
        error instanceof SlotsClosedError ||
        (error instanceof SandboxLimitError && error.limit === 'closed')
      )
        throw error;
      // Anything else ends the import in words (ADR 070), not in an import that never ends: a site's
      // answer the database refused, say. The cursor stays, so importing again starts afresh.
      if (!(error instanceof WordPressError))
        logger.error({ err: error, integration: integrationId }, 'wordpress import failed');
      await finish({
        status: 'failed',
        error:
          error instanceof WordPressError
            ? error.message
            : `The import of ${new URL(row.siteUrl).host} stopped: Altwise could not store what the site answered. Import again to try once more.`,
      });
    }
  }

  // ── publish and undo ────────────────────────────────────────────────────────────────────

  /** A place a publish or undo could not write: the attachment (no post) or its use in a post. */
  type Place = { mediaId: number; postId: number | null };
  type PublishTally = {
    written: number;
    same: number;
    /** Said once each, for the integration's `error`. */
    problems: string[];
    /** Each place not written, with why (GET /integrations/{id} → failures). */
    failed: (Place & { message: string })[];
    /** Places the run will try (its progress's `total`). */
    total: number;
    /** Approved images whose words may not go live (ADR 069): left out, named in the notice. */
    heldBack: number;
    /** When the run began writing: the progress's pace, and so its estimate of the time left. */
    startedAt: Date;
  };
  const newTally = (): PublishTally => ({
    written: 0,
    same: 0,
    problems: [],
    failed: [],
    total: 0,
    heldBack: 0,
    startedAt: new Date(),
  });
  /** Where written words came from, kept in the change log (ADR 069). */
  type Provenance = {
    origin: NonNullable<IntegrationChangeRow['origin']>;
    reasons: NonNullable<IntegrationChangeRow['reasons']>;
  };
  /** Notes a problem once, and each place it kept from being written. */
  function fail(tally: PublishTally, message: string, places: Place[]) {
    tally.problems.push(message);
    tally.failed.push(...places.map((place) => ({ ...place, message })));
  }

  function postRoute(post: IntegrationPostRow): string {
    return `/wp/v2/${post.postType}/${post.postId}`;
  }

  /**
   * What a stopped process left under way: a new change is kept when WordPress shows it written, else
   * forgotten; a live change being rewritten or undone takes the new value (or is undone) when
   * WordPress has it, else stays as it was. A post we wrote gets its new `modified` recorded.
   */
  /**
   * A change WordPress has undone: its audit image goes back to a pending suggestion first (ADR 069),
   * then the change is marked undone. A process that stops between the two leaves the change under
   * way, and the next run settles it here again, so an undone alt never stays approved.
   */
  async function markUndone(row: IntegrationRow, change: IntegrationChangeRow) {
    const placement = await findPlacement(db, change.placementId);
    if (placement && row.auditId)
      await deps.audits.unapproveImages(row.userId, row.auditId, [placement.auditImageId]);
    await markChangeUndone(db, change.id);
  }

  async function settlePending(
    row: IntegrationRow,
    client: WordPressClient,
    mediaByUrl: Map<string, number>,
  ) {
    for (const change of await listPendingChanges(db, row.id)) {
      const target = change.status === 'pending' ? change.after : (change.writing?.value ?? change.after);
      let current: string | null = null;
      if (change.field === 'alt_text') {
        const media = await client.get<RestMedia>(
          `/wp/v2/media/${change.mediaId}?context=edit`,
          `reading image ${change.mediaId}`,
        );
        current = media.body.alt_text ?? '';
      } else if (change.postId !== null) {
        const post = await findPost(db, row.id, change.postId);
        const [placement] = await listPlacementsByIdOf(change);
        if (post && placement) {
          const answer = await client.get<RestPost>(
            `${postRoute(post)}?context=edit`,
            `reading “${post.title}”`,
          );
          const image = findOccurrence(
            answer.body.content?.raw ?? '',
            mediaByUrl,
            change.mediaId,
            placement.occurrence,
          );
          current = image ? (image.alt ?? '') : null;
          if (current === target && answer.body.modified_gmt)
            await setPostModified(db, row.id, post.postId, answer.body.modified_gmt);
        }
      }
      if (change.status === 'pending') {
        if (current === target) await markChangePublished(db, change.id);
        else await deleteChange(db, change.id);
      } else if (current !== target) await setChangeWriting(db, [change.id], null);
      else if (change.writing?.undo) await markUndone(row, change);
      else await markChangePublished(db, change.id, target);
    }
  }

  async function listPlacementsByIdOf(change: IntegrationChangeRow): Promise<IntegrationPlacementRow[]> {
    const placement = await findPlacement(db, change.placementId);
    return placement ? [placement] : [];
  }

  // ── reading and writing many places at once (ADR 076) ──────────────────────────────────

  /**
   * The items as WordPress has them now, `chunk` ids per list call (`include=`). One a list leaves
   * out, or every one of a list WordPress would not answer, is read alone, so a deleted item gets
   * WordPress's own answer in words. Only a failure no other call can get past is thrown.
   */
  async function readNow<T extends { id: number }>(
    client: WordPressClient,
    route: string,
    ids: number[],
    chunk: number,
    what: string,
    whatOne: (id: number) => string,
  ): Promise<Map<number, T | WordPressError>> {
    const found = new Map<number, T | WordPressError>();
    const unique = [...new Set(ids)];
    for (let at = 0; at < unique.length; at += chunk) {
      const wanted = new Set(unique.slice(at, at + chunk));
      try {
        const answer = await client.get<unknown>(
          `${route}?include=${[...wanted].join(',')}&per_page=${wanted.size}&context=edit&orderby=include`,
          what,
        );
        if (Array.isArray(answer.body))
          for (const item of answer.body)
            if (isObject(item) && typeof item.id === 'number' && wanted.has(item.id))
              found.set(item.id, item as T);
      } catch (error) {
        if (!(error instanceof WordPressError) || fatalReasons.includes(error.reason)) throw error;
      }
    }
    for (const id of unique.filter((id) => !found.has(id))) {
      try {
        found.set(id, (await client.get<T>(`${route}/${id}?context=edit`, whatOne(id))).body);
      } catch (error) {
        if (!(error instanceof WordPressError) || fatalReasons.includes(error.reason)) throw error;
        found.set(id, error);
      }
    }
    return found;
  }

  const readMediaNow = (client: WordPressClient, ids: number[], back: boolean) =>
    readNow<RestMedia>(
      client,
      '/wp/v2/media',
      ids,
      MEDIA_PER_READ,
      back ? 'reading the written images back' : 'reading the images to write',
      (id) => `reading image ${id}${back ? ' back' : ''}`,
    );

  async function readPostsNow(client: WordPressClient, posts: IntegrationPostRow[], back: boolean) {
    const found = new Map<number, RestPost | WordPressError>();
    for (const type of ['posts', 'pages'] as const) {
      const ids = posts.filter((post) => post.postType === type).map((post) => post.postId);
      if (ids.length === 0) continue;
      const titles = new Map(posts.map((post) => [post.postId, post.title]));
      const read = await readNow<RestPost>(
        client,
        `/wp/v2/${type}`,
        ids,
        MAX_BATCH_REQUESTS,
        back ? `reading the written ${type} back` : `reading the ${type} to write`,
        (id) => `reading “${titles.get(id) ?? id}”${back ? ' back' : ''}`,
      );
      for (const [id, post] of read) found.set(id, post);
    }
    return found;
  }

  /**
   * Posts' and pages' new content through `/batch/v1`, 25 a call (ADR 076); one by one,
   * WORDPRESS_CONCURRENCY at once, on a site without the endpoint. Each write's outcome in order.
   */
  async function writePostContents(
    client: WordPressClient,
    writes: { post: IntegrationPostRow; content: string; what: string }[],
    site: { batches: boolean },
  ): Promise<Settled<unknown>[]> {
    const outcomes: Settled<unknown>[] = [];
    for (let at = 0; at < writes.length; at += MAX_BATCH_REQUESTS) {
      const chunk = writes.slice(at, at + MAX_BATCH_REQUESTS);
      if (site.batches) {
        try {
          const answers = await client.batch<RestPost>(
            chunk.map((write) => ({
              path: postRoute(write.post),
              body: { content: write.content },
              what: write.what,
            })),
            `writing ${chunk.length} post${chunk.length === 1 ? '' : 's'} and pages`,
          );
          outcomes.push(
            ...answers.map(
              (answer): Settled<unknown> =>
                answer.ok ? { ok: true, value: answer.body } : { ok: false, error: answer.error },
            ),
          );
          continue;
        } catch (error) {
          // Without the endpoint WordPress wrote nothing: the writes go one by one instead.
          if (!(error instanceof WordPressError && error.reason === 'not-found')) {
            outcomes.push(...chunk.map((): Settled<unknown> => ({ ok: false, error })));
            continue;
          }
          site.batches = false;
        }
      }
      outcomes.push(
        ...(await settleEach(chunk, deps.settings.concurrency, (write) =>
          client.post<RestPost>(postRoute(write.post), { content: write.content }, write.what),
        )),
      );
    }
    return outcomes;
  }

  /** One place a publish or undo writes, and what becomes of its note once WordPress's answer is known. */
  type Attempt = {
    place: Place;
    /** The alt text WordPress should have there once written. */
    value: string;
    /** Which use of its image in the post (content writes only). */
    occurrence: number;
    /** Said when WordPress answered the write but did not keep the words. */
    notKept: string;
    /** WordPress has the words: the change is published (or undone). */
    land: () => Promise<void>;
    /** WordPress does not have them: the note is forgotten. */
    forget: () => Promise<void>;
  };
  type PostAttempt = {
    post: IntegrationPostRow;
    content: string;
    /** The content as read before writing, put back when a publish's words were only partly kept. */
    original: string;
    /** A publish writes all of a post's places or none; an undo keeps each one WordPress kept. */
    allOrNothing: boolean;
    attempts: Attempt[];
  };

  /**
   * A lost lease stops the run at once (the next run settles its notes). Else the first failure no
   * other call can get past, thrown once every write's note is settled.
   */
  function stopperOf(outcomes: Settled<unknown>[]): unknown {
    let stopper: unknown;
    for (const outcome of outcomes) {
      if (outcome.ok) continue;
      if (outcome.error instanceof LeaseLostError) throw outcome.error;
      if (!(outcome.error instanceof WordPressError) || fatalReasons.includes(outcome.error.reason))
        stopper ??= outcome.error;
    }
    return stopper;
  }

  function isRefusal(error: unknown): error is WordPressError {
    return error instanceof WordPressError && refusals.has(error.reason);
  }

  /**
   * After the writes (ADR 056, 076). A write WordPress refused (401, 403, 404, 429, a 4xx of its own
   * in a batch) landed nowhere: its note is forgotten and only its places fail, in WordPress's words.
   * Every other write, answered or not (a time-out, a broken connection, a server error), is read
   * back: what WordPress now has decides each note, so words it kept stay in the change log, where
   * Undo reaches them. When WordPress cannot be read either, the notes stay for the next run.
   */
  async function settleWrites<T>(
    tally: PublishTally,
    writes: T[],
    outcomes: Settled<unknown>[],
    attemptsOf: (write: T) => Attempt[],
    readBack: (writes: T[]) => Promise<(write: T) => WordPressError | ((attempt: Attempt) => boolean)>,
    onRead: (write: T, kept: Attempt[], error: unknown) => Promise<boolean> = async () => false,
  ) {
    const stopper = stopperOf(outcomes);
    const unsure: { write: T; error: unknown }[] = [];
    for (const [at, write] of writes.entries()) {
      const outcome = outcomes[at];
      if (outcome && !outcome.ok && isRefusal(outcome.error)) {
        for (const attempt of attemptsOf(write)) await attempt.forget();
        fail(
          tally,
          outcome.error.message,
          attemptsOf(write).map((attempt) => attempt.place),
        );
      } else unsure.push({ write, error: outcome?.ok ? undefined : outcome?.error });
    }
    if (unsure.length > 0) {
      let keptOf: Awaited<ReturnType<typeof readBack>>;
      try {
        keptOf = await readBack(unsure.map(({ write }) => write));
      } catch (error) {
        // Left as noted: the next publish or undo settles them first.
        if (stopper || !(error instanceof WordPressError) || fatalReasons.includes(error.reason))
          throw stopper ?? error;
        for (const { write } of unsure)
          fail(
            tally,
            error.message,
            attemptsOf(write).map((a) => a.place),
          );
        return;
      }
      for (const { write, error } of unsure) {
        const attempts = attemptsOf(write);
        const read = keptOf(write);
        if (read instanceof WordPressError) {
          fail(
            tally,
            error instanceof WordPressError ? error.message : read.message,
            attempts.map((attempt) => attempt.place),
          );
          continue;
        }
        const kept = attempts.filter(read);
        if (await onRead(write, kept, error)) continue;
        for (const attempt of attempts) {
          if (kept.includes(attempt)) {
            await attempt.land();
            tally.written++;
          } else {
            await attempt.forget();
            fail(tally, error instanceof WordPressError ? error.message : attempt.notKept, [attempt.place]);
          }
        }
      }
    }
    if (stopper) throw stopper;
  }

  /** Attachments' alt text, WORDPRESS_CONCURRENCY writes at once, then read back 100 a call. */
  async function writeLibraryAlts(
    client: WordPressClient,
    tally: PublishTally,
    attempts: Attempt[],
    undo: boolean,
  ) {
    const outcomes = await settleEach(attempts, deps.settings.concurrency, (attempt) =>
      client.post<RestMedia>(
        `/wp/v2/media/${attempt.place.mediaId}`,
        { alt_text: attempt.value },
        `${undo ? 'restoring' : 'writing'} the alt text of image ${attempt.place.mediaId}`,
      ),
    );
    await settleWrites(
      tally,
      attempts,
      outcomes,
      (attempt) => [attempt],
      async (unsure) => {
        const now = await readMediaNow(
          client,
          unsure.map((attempt) => attempt.place.mediaId),
          true,
        );
        return (attempt) => {
          const media = now.get(attempt.place.mediaId);
          if (media instanceof WordPressError) return media;
          return (one) => (textOf(media?.alt_text) ?? '') === one.value;
        };
      },
    );
  }

  /** Posts' and pages' content through batches, then read back 25 a call. */
  async function writePosts(
    row: IntegrationRow,
    client: WordPressClient,
    tally: PublishTally,
    writes: PostAttempt[],
    mediaByUrl: Map<string, number>,
    site: { batches: boolean },
    undo: boolean,
  ) {
    if (writes.length === 0) return;
    const outcomes = await writePostContents(
      client,
      writes.map((write) => ({
        post: write.post,
        content: write.content,
        what: `${undo ? 'restoring' : 'writing'} “${write.post.title}”`,
      })),
      site,
    );
    const modified = new Map<number, string>();
    await settleWrites(
      tally,
      writes,
      outcomes,
      (write) => write.attempts,
      async (unsure) => {
        const now = await readPostsNow(
          client,
          unsure.map((write) => write.post),
          true,
        );
        return (write) => {
          const post = now.get(write.post.postId);
          if (post instanceof WordPressError) return post;
          const kept = textOf(post?.content?.raw) ?? '';
          modified.set(write.post.postId, textOf(post?.modified_gmt) ?? '');
          return (attempt) =>
            (findOccurrence(kept, mediaByUrl, attempt.place.mediaId, attempt.occurrence)?.alt ?? '') ===
            attempt.value;
        };
      },
      async (write, kept, error) => {
        if (kept.length > 0)
          await setPostModified(db, row.id, write.post.postId, modified.get(write.post.postId) ?? '');
        if (!write.allOrNothing || error !== undefined || kept.length === write.attempts.length) return false;
        // Put the content back as it was: nothing partial stays on the site.
        const places = write.attempts.map((attempt) => attempt.place);
        try {
          const restored = await client.post<RestPost>(
            postRoute(write.post),
            { content: write.original },
            `restoring “${write.post.title}”`,
          );
          await setPostModified(db, row.id, write.post.postId, textOf(restored.body?.modified_gmt) ?? '');
        } catch (failure) {
          // Left as noted: the next publish or undo settles what WordPress has.
          if (!(failure instanceof WordPressError) || fatalReasons.includes(failure.reason)) throw failure;
          fail(tally, failure.message, places);
          return true;
        }
        for (const attempt of write.attempts) await attempt.forget();
        fail(
          tally,
          `WordPress did not keep the alt text written into “${write.post.title}”, so it was put back as it was.`,
          places,
        );
        return true;
      },
    );
  }

  // ── publish ─────────────────────────────────────────────────────────────────────────────

  /**
   * Notes a write before it is made, so a stopped run can settle it: a new change as pending, or a
   * live change (words a stopped run wrote) as being rewritten, with the new words' provenance.
   * Answers the change; undefined when a pending one for the place was already there.
   */
  async function noteChange(
    row: IntegrationRow,
    write: PlannedWrite,
    live: IntegrationChangeRow | undefined,
    where: { postId: number | null; field: 'alt_text' | 'content'; before: string },
  ) {
    const { placement, after } = write;
    const provenance = provenanceOf(write);
    if (!live)
      return insertPendingChange(db, {
        integrationId: row.id,
        placementId: placement.id,
        mediaId: placement.mediaId,
        ...where,
        after,
        ...provenance,
      });
    await setChangeWriting(db, [live.id], [{ value: after }]);
    await setChangeProvenance(db, live.id, provenance);
    return live;
  }

  function provenanceOf(write: PlannedWrite): Provenance {
    return { origin: write.image.origin ?? 'ai', reasons: write.image.reasons };
  }

  /** Up to 100 attachments' own alt text: read at once, written WORDPRESS_CONCURRENCY at a time. */
  async function publishLibraryChunk(
    row: IntegrationRow,
    client: WordPressClient,
    planned: PlannedWrite[],
    tally: PublishTally,
  ) {
    const todo: { write: PlannedWrite; live: IntegrationChangeRow | undefined }[] = [];
    for (const write of planned) {
      const live = await findLiveChange(db, write.placement.id);
      if (live && live.after === write.after) tally.same++;
      else todo.push({ write, live });
    }
    if (todo.length === 0) return;
    const now = await readMediaNow(
      client,
      todo.map(({ write }) => write.placement.mediaId),
      false,
    );
    const attempts: Attempt[] = [];
    for (const { write, live } of todo) {
      const { placement, after } = write;
      const place: Place = { mediaId: placement.mediaId, postId: null };
      const media = now.get(placement.mediaId);
      if (!media || media instanceof WordPressError) {
        fail(tally, media?.message ?? `WordPress did not answer for image ${placement.mediaId}.`, [place]);
        continue;
      }
      const current = textOf(media.alt_text) ?? '';
      if (current === after) {
        // A live change whose new words a stopped run wrote but did not record: record them, write nothing.
        if (live) await markChangePublished(db, live.id, after);
        tally.same++;
        continue;
      }
      const change = await noteChange(row, write, live, { postId: null, field: 'alt_text', before: current });
      if (!change) {
        tally.same++;
        continue;
      }
      attempts.push({
        place,
        value: after,
        occurrence: 0,
        notKept: `WordPress did not keep the alt text of image ${placement.mediaId} as written.`,
        land: () => markChangePublished(db, change.id, after),
        forget: () => (live ? setChangeWriting(db, [live.id], null) : deleteChange(db, change.id)),
      });
    }
    await writeLibraryAlts(client, tally, attempts, false);
  }

  /** Up to 25 posts: read at once, checked for edits elsewhere, written in one batch, read back. */
  async function publishPostChunk(
    row: IntegrationRow,
    client: WordPressClient,
    group: { post: IntegrationPostRow; items: PlannedWrite[] }[],
    mediaByUrl: Map<string, number>,
    tally: PublishTally,
    site: { batches: boolean },
  ) {
    const now = await readPostsNow(
      client,
      group.map(({ post }) => post),
      false,
    );
    const writes: PostAttempt[] = [];
    for (const { post, items } of group) {
      const places = items.map(
        ({ placement }): Place => ({ mediaId: placement.mediaId, postId: post.postId }),
      );
      const answer = now.get(post.postId);
      if (!answer || answer instanceof WordPressError) {
        fail(tally, answer?.message ?? `WordPress did not answer for “${post.title}”.`, places);
        continue;
      }
      if ((textOf(answer.modified_gmt) ?? '') !== post.modified) {
        fail(
          tally,
          `“${post.title}” was changed on WordPress after the import, while we publish, so nothing was written to it. Import the site again, then publish.`,
          places,
        );
        continue;
      }
      const original = textOf(answer.content?.raw) ?? '';
      let raw = original;
      const planned: {
        write: PlannedWrite;
        live: IntegrationChangeRow | undefined;
        before: string;
      }[] = [];
      for (const write of [...items].sort((a, b) => a.placement.occurrence - b.placement.occurrence)) {
        const { placement, after } = write;
        const live = await findLiveChange(db, placement.id);
        if (live && live.after === after) {
          tally.same++;
          continue;
        }
        const image = findOccurrence(raw, mediaByUrl, placement.mediaId, placement.occurrence);
        if (!image) {
          fail(tally, `An image of “${post.title}” is no longer in its content; import the site again.`, [
            { mediaId: placement.mediaId, postId: post.postId },
          ]);
          continue;
        }
        const before = image.alt ?? '';
        if (before === after) {
          if (live) await markChangePublished(db, live.id, after);
          tally.same++;
          continue;
        }
        raw = setImageAlt(raw, image, after);
        planned.push({ write, live, before: live ? live.before : before });
      }
      if (planned.length === 0) continue;
      const attempts: Attempt[] = [];
      for (const { write, live, before } of planned) {
        const { placement, after } = write;
        const change = await noteChange(row, write, live, { postId: post.postId, field: 'content', before });
        attempts.push({
          place: { mediaId: placement.mediaId, postId: post.postId },
          value: after,
          occurrence: placement.occurrence,
          notKept: `WordPress did not keep the alt text written into “${post.title}”.`,
          land: async () => {
            if (change) await markChangePublished(db, change.id, after);
          },
          forget: async () => {
            if (live) await setChangeWriting(db, [live.id], null);
            else if (change) await deleteChange(db, change.id);
          },
        });
      }
      writes.push({ post, content: raw, original, allOrNothing: true, attempts });
    }
    await writePosts(row, client, tally, writes, mediaByUrl, site, false);
  }
  /** One approved alt and where it goes: the attachment's alt_text (no post) or a use in a post. */
  type PlannedWrite = {
    placement: IntegrationPlacementRow;
    image: ApprovedImage;
    after: string;
    fileName: string;
    src: string;
    post: IntegrationPostRow | undefined;
    /** The alt as the import read it. */
    before: string;
  };
  type ApprovedImage = Awaited<ReturnType<typeof deps.audits.approvedImages>>[number];
  type PublishPlan = {
    writes: PlannedWrite[];
    heldBack: HeldBackImage[];
    /** The named images that are no approved image of this import. */
    unknown: number;
  };

  /**
   * What a publish of these images (all approved when none are named) would write, and which
   * approved words it holds back (ADR 069): each is judged by the publishable rule (ADR 067) before
   * anything is written. An empty alt goes live only when a person saved it (marked decorative).
   */
  async function planPublish(row: IntegrationRow, imageIds: string[] | undefined): Promise<PublishPlan> {
    if (!row.auditId) return { writes: [], heldBack: [], unknown: imageIds?.length ?? 0 };
    const approved = await deps.audits.approvedImages(row.userId, row.auditId, imageIds);
    const byId = new Map(approved.map((image) => [image.id, image]));
    const placements = await listPlacementsFor(db, row.id, [...byId.keys()]);
    const media = new Map((await listMedia(db, row.id)).map((item) => [item.mediaId, item]));
    const posts = new Map((await listPosts(db, row.id)).map((post) => [post.postId, post]));
    const plan: PublishPlan = { writes: [], heldBack: [], unknown: 0 };
    const placed = new Set<string>();
    for (const placement of placements) {
      const image = byId.get(placement.auditImageId);
      if (!image) continue;
      placed.add(image.id);
      const item = media.get(placement.mediaId);
      const src = item?.sourceUrl ?? image.src;
      const fileName = fileNameOfUrl(src);
      const post = placement.postId === null ? undefined : posts.get(placement.postId);
      if (placement.postId !== null && !post) continue;
      const verdict = judgePublishable({
        altText: image.altText,
        decorative: image.altText.trim() === '' && image.reviewState === 'edited',
        origin: image.origin ?? 'ai',
        reasons: image.reasons,
        context: {
          fileName,
          ...(image.heading ? { heading: image.heading } : {}),
          ...(post ? { pageTitle: post.title } : {}),
        },
      });
      if (!verdict.publishable) {
        plan.heldBack.push({
          imageId: image.id,
          mediaId: placement.mediaId,
          fileName,
          postId: placement.postId,
          postTitle: post?.title ?? null,
          altText: image.altText,
          code: verdict.code,
          message: verdict.message,
        });
        continue;
      }
      const before = post
        ? (post.images.filter((used) => used.mediaId === placement.mediaId)[placement.occurrence]?.alt ?? '')
        : (item?.altText ?? '');
      plan.writes.push({ placement, image, after: image.altText, fileName, src, post, before });
    }
    plan.unknown = imageIds ? imageIds.length - placed.size : 0;
    return plan;
  }

  async function runPublish(
    row: IntegrationRow,
    lease: Lease,
    imageIds: string[] | undefined,
  ): Promise<PublishTally> {
    const tally = newTally();
    if (!row.auditId) return tally;
    const client = clientFor(row, lease);
    const mediaByUrl = mediaUrlMap(await listMedia(db, row.id));
    await settlePending(row, client, mediaByUrl);
    const plan = await planPublish(row, imageIds);
    tally.heldBack = plan.heldBack.length;
    tally.total = plan.writes.length;
    await reportProgress(row.id, tally);
    const library = plan.writes.filter((write) => write.placement.postId === null);
    for (let at = 0; at < library.length; at += MEDIA_PER_READ) {
      await publishLibraryChunk(row, client, library.slice(at, at + MEDIA_PER_READ), tally);
      await reportProgress(row.id, tally);
    }
    const byPost = new Map<number, PlannedWrite[]>();
    for (const write of plan.writes)
      if (write.placement.postId !== null)
        byPost.set(write.placement.postId, [...(byPost.get(write.placement.postId) ?? []), write]);
    const group: { post: IntegrationPostRow; items: PlannedWrite[] }[] = [];
    for (const [postId, items] of byPost) {
      const post = await findPost(db, row.id, postId);
      if (post) group.push({ post, items });
    }
    const site = { batches: true };
    for (let at = 0; at < group.length; at += MAX_BATCH_REQUESTS) {
      await publishPostChunk(row, client, group.slice(at, at + MAX_BATCH_REQUESTS), mediaByUrl, tally, site);
      await reportProgress(row.id, tally);
    }
    return tally;
  }

  /** GET /integrations/{id} → progress, as the run goes (ADR 069). */
  async function reportProgress(integrationId: string, tally: PublishTally) {
    await updateIntegration(db, integrationId, { progress: progressOf(tally) });
  }

  function progressOf(tally: PublishTally): PublishProgress {
    return {
      written: tally.written + tally.same,
      failed: tally.failed.length,
      total: Math.max(tally.total, tally.written + tally.same + tally.failed.length),
      startedAt: tally.startedAt.toISOString(),
    };
  }

  // ── undo ────────────────────────────────────────────────────────────────────────────────

  async function runUndo(row: IntegrationRow, lease: Lease, changeIds: string[]): Promise<PublishTally> {
    const tally = newTally();
    const client = clientFor(row, lease);
    const mediaByUrl = mediaUrlMap(await listMedia(db, row.id));
    // An undo a stopped process wrote is recorded first, so it is not written twice.
    await settlePending(row, client, mediaByUrl);
    const changes = (await listChanges(db, row.id, changeIds)).filter(
      (change) => change.status === 'published',
    );
    tally.total = changes.length;
    await reportProgress(row.id, tally);
    // The audit images whose published words were undone go back to pending (ADR 069), one by one.
    const undoneChange = (change: IntegrationChangeRow) => markUndone(row, change);
    const library = changes.filter((change) => change.field === 'alt_text');
    for (let at = 0; at < library.length; at += MEDIA_PER_READ) {
      const chunk = library.slice(at, at + MEDIA_PER_READ);
      const now = await readMediaNow(
        client,
        chunk.map((change) => change.mediaId),
        false,
      );
      const attempts: Attempt[] = [];
      for (const change of chunk) {
        const place: Place = { mediaId: change.mediaId, postId: null };
        const media = now.get(change.mediaId);
        if (!media || media instanceof WordPressError) {
          fail(tally, media?.message ?? `WordPress did not answer for image ${change.mediaId}.`, [place]);
          continue;
        }
        if ((textOf(media.alt_text) ?? '') !== change.after) {
          fail(
            tally,
            `The alt text of image ${change.mediaId} was changed on WordPress after Altwise published it, so it was not undone.`,
            [place],
          );
          continue;
        }
        await setChangeWriting(db, [change.id], [{ value: change.before, undo: true }]);
        attempts.push({
          place,
          value: change.before,
          occurrence: 0,
          notKept: `WordPress did not keep the restored alt text of image ${change.mediaId}.`,
          land: () => undoneChange(change),
          forget: () => setChangeWriting(db, [change.id], null),
        });
      }
      await writeLibraryAlts(client, tally, attempts, true);
      await reportProgress(row.id, tally);
    }
    const byPost = new Map<number, typeof changes>();
    for (const change of changes)
      if (change.field === 'content' && change.postId !== null)
        byPost.set(change.postId, [...(byPost.get(change.postId) ?? []), change]);
    const group: { post: IntegrationPostRow; changes: IntegrationChangeRow[] }[] = [];
    for (const [postId, postChanges] of byPost) {
      const post = await findPost(db, row.id, postId);
      if (post) group.push({ post, changes: postChanges });
      else
        fail(
          tally,
          `Post ${postId} is no longer part of the import; import the site again to undo there.`,
          postChanges.map((change) => ({ mediaId: change.mediaId, postId })),
        );
    }
    const site = { batches: true };
    for (let at = 0; at < group.length; at += MAX_BATCH_REQUESTS) {
      const chunk = group.slice(at, at + MAX_BATCH_REQUESTS);
      const now = await readPostsNow(
        client,
        chunk.map(({ post }) => post),
        false,
      );
      const writes: PostAttempt[] = [];
      for (const { post, changes: postChanges } of chunk) {
        const places = postChanges.map((change): Place => ({ mediaId: change.mediaId, postId: post.postId }));
        const answer = now.get(post.postId);
        if (!answer || answer instanceof WordPressError) {
          fail(tally, answer?.message ?? `WordPress did not answer for “${post.title}”.`, places);
          continue;
        }
        if ((textOf(answer.modified_gmt) ?? '') !== post.modified) {
          fail(
            tally,
            `“${post.title}” was changed on WordPress after Altwise published to it, so nothing was undone there.`,
            places,
          );
          continue;
        }
        const original = textOf(answer.content?.raw) ?? '';
        let raw = original;
        const attempts: Attempt[] = [];
        const undoing: IntegrationChangeRow[] = [];
        for (const change of postChanges) {
          const [placement] = await listPlacementsByIdOf(change);
          const image = placement
            ? findOccurrence(raw, mediaByUrl, change.mediaId, placement.occurrence)
            : undefined;
          if (!placement || !image || image.alt !== change.after) {
            fail(
              tally,
              `An image of “${post.title}” changed after Altwise published it, so it was not undone.`,
              [{ mediaId: change.mediaId, postId: post.postId }],
            );
            continue;
          }
          raw = setImageAlt(raw, image, change.before);
          undoing.push(change);
          attempts.push({
            place: { mediaId: change.mediaId, postId: post.postId },
            value: change.before,
            occurrence: placement.occurrence,
            notKept: `WordPress did not keep the restored alt text in “${post.title}”.`,
            land: () => undoneChange(change),
            forget: () => setChangeWriting(db, [change.id], null),
          });
        }
        if (attempts.length === 0) continue;
        await setChangeWriting(
          db,
          undoing.map((change) => change.id),
          undoing.map((change) => ({ value: change.before, undo: true })),
        );
        writes.push({ post, content: raw, original, allOrNothing: false, attempts });
      }
      await writePosts(row, client, tally, writes, mediaByUrl, site, true);
      await reportProgress(row.id, tally);
    }
    return tally;
  }
  function summaryOf(tally: PublishTally, undo: boolean, host: string): string {
    const n = tally.written;
    const done = undo
      ? `Undid ${n} change${n === 1 ? '' : 's'} on ${host}.`
      : `Published ${n} alt text${n === 1 ? '' : 's'} to ${host}.`;
    const same = tally.same > 0 ? ` ${tally.same} ${tally.same === 1 ? 'was' : 'were'} already there.` : '';
    const held =
      tally.heldBack > 0
        ? ` ${tally.heldBack} image${tally.heldBack === 1 ? ' needs' : 's need'} your words: ${tally.heldBack === 1 ? 'its' : 'their'} alt text may not go live as it is.`
        : '';
    return `${done}${same}${held}`;
  }

  async function runPublishJob(integrationId: string, job: { imageIds?: string[]; undo?: string[] }) {
    await withLease(
      integrationId,
      (startAfter) => queue.send(jobNames.publishIntegration, { integrationId, ...job }, { startAfter }),
      (row, lease, finish) => publishLeased(row, lease, finish, job),
    );
  }

  async function publishLeased(
    row: IntegrationRow,
    lease: Lease,
    finish: FinishRun,
    job: { imageIds?: string[]; undo?: string[] },
  ) {
    if (row.status !== 'publishing') return finish({});
    // What the run under way was asked (kept on the row): a job sent twice does the same work.
    const request = row.publishRequest ?? job;
    const host = new URL(row.siteUrl).host;
    try {
      const tally = request.undo
        ? await runUndo(row, lease, request.undo)
        : await runPublish(row, lease, request.imageIds);
      await finish({
        status: 'imported',
        publishRequest: null,
        notice: summaryOf(tally, Boolean(job.undo), host),
        error: tally.problems.length > 0 ? tally.problems.slice(0, 10).join(' ') : null,
        failures: tally.failed.slice(0, MAX_FAILURES),
        progress: progressOf(tally),
      });
    } catch (error) {
      if (!(error instanceof WordPressError)) throw error;
      await finish({
        status: 'failed',
        publishRequest: null,
        failures: [],
        error: `${error.message} Nothing more was written; you can try again.`,
      });
    }
  }

  /**
   * The publish plan of the caller's site, refused in words when it cannot start: 409 before an
   * import, or when a named image is no approved image of the import, or nothing is approved; 422
   * with the list when every approved image's words may not go live (ADR 069).
   */
  async function checkedPlan(
    userId: string,
    id: string,
    imageIds: string[] | undefined,
    options: { refuseWhenHeldBack: boolean },
  ): Promise<PublishPlan> {
    const current = await owned(userId, id);
    if (!current.auditId) throw conflict('Import the site first, then fix and approve its images.');
    const plan = await planPublish(current, imageIds ? [...new Set(imageIds)] : undefined);
    if (plan.unknown > 0)
      throw conflict(
        `${plan.unknown} of the selected images ${plan.unknown === 1 ? 'is' : 'are'} not an approved image of this site’s import. Approve ${plan.unknown === 1 ? 'it' : 'them'} in the audit first; nothing was published.`,
      );
    if (plan.writes.length === 0 && plan.heldBack.length === 0)
      throw conflict(
        'Nothing is approved yet: fix the import’s failing images and approve the alt text first.',
      );
    if (options.refuseWhenHeldBack && plan.writes.length === 0) {
      const n = plan.heldBack.length;
      throw new AppError(
        errorCodes.unprocessable,
        `${n === 1 ? 'This image needs' : `These ${n} images need`} your words: ${n === 1 ? 'its' : 'their'} alt text may not go live as it is, so nothing was published. Write or mark ${n === 1 ? 'it' : 'them'} in the review first.`,
        {
          errors: plan.heldBack.slice(0, MAX_PUBLISH_ERRORS).map((held) => ({
            path: `images.${held.imageId}`,
            message: `${held.fileName}${held.postTitle ? ` in “${held.postTitle}”` : ''}: ${held.message}`,
          })),
        },
      );
    }
    return plan;
  }

  return {
    /** POST /integrations/wordpress: checked against the site at once, then stored encrypted. */
    async connectWordPress(userId: string, request: ConnectWordPressRequest): Promise<IntegrationSummary> {
      let siteUrl: string;
      try {
        const url = parseFetchableUrl(request.siteUrl);
        await assertPublicAddress(url, { allowPrivate: deps.fetch.allowPrivate });
        siteUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
      } catch (error) {
        if (error instanceof SafeFetchError) throw badRequest(error.message);
        throw error;
      }
      if ((await countIntegrationsOf(db, userId)) >= MAX_INTEGRATIONS)
        throw conflict(`You have connected ${MAX_INTEGRATIONS} sites, the most allowed. Delete one first.`);
      const id = randomUUID();
      let restStyle: IntegrationRow['restStyle'];
      try {
        restStyle = (
          await checkWordPress(
            { siteUrl, username: request.username, applicationPassword: request.applicationPassword },
            clientOptions(id),
          )
        ).restStyle;
      } catch (error) {
        if (error instanceof WordPressError) throw badRequest(error.message);
        throw error;
      }
      const row = await insertIntegration(db, {
        id,
        userId,
        kind: 'wordpress',
        siteUrl,
        restStyle,
        username: request.username,
        secret: deps.box.seal(request.applicationPassword, id),
      });
      logger.info({ integration: id }, 'wordpress site connected');
      return toSummary(row);
    },

    async list(userId: string): Promise<IntegrationSummary[]> {
      return (await listIntegrationsOf(db, userId)).map(toSummary);
    },

    async get(userId: string, id: string): Promise<Integration> {
      return toIntegration(await owned(userId, id));
    },

    /** DELETE: the stored password, the import's records and the change log go; the audit stays. */
    async remove(userId: string, id: string): Promise<void> {
      if (!(await deleteIntegrationOf(db, userId, id))) throw integrationNotFound();
    },

    async startImport(userId: string, id: string): Promise<Integration> {
      const row = await startRun(userId, id, async (tx, locked) => {
        await resetImport(tx, locked.id, { stage: 'media', page: 1, auditId: randomUUID() });
        await queue.send(jobNames.importIntegration, { integrationId: locked.id }, { tx });
      });
      return toIntegration(row);
    },

    /**
     * POST /integrations/{id}/publish/preview (ADR 069): what a publish with the same body would
     * write and where (post titles, file names, before → after), and the approved words it holds back.
     */
    async previewPublish(userId: string, id: string, imageIds?: string[]): Promise<PublishPreviewResponse> {
      const plan = await checkedPlan(userId, id, imageIds, { refuseWhenHeldBack: false });
      const items: PublishPreviewItem[] = [];
      let unchanged = 0;
      for (const write of plan.writes) {
        const live = await findLiveChange(db, write.placement.id);
        if ((live ? live.after : write.before) === write.after) {
          unchanged++;
          continue;
        }
        items.push({
          imageId: write.image.id,
          mediaId: write.placement.mediaId,
          fileName: write.fileName,
          src: write.src,
          postId: write.placement.postId,
          postTitle: write.post?.title ?? null,
          field: write.post ? 'content' : 'alt_text',
          before: live ? live.after : write.before,
          after: write.after,
        });
      }
      return { items, heldBack: plan.heldBack, unchanged };
    },

    async startPublish(userId: string, id: string, imageIds?: string[]): Promise<Integration> {
      const ids = imageIds ? [...new Set(imageIds)] : undefined;
      const plan = await checkedPlan(userId, id, ids, { refuseWhenHeldBack: true });
      const row = await startRun(userId, id, async (tx, locked) => {
        const request = ids ? { imageIds: ids } : {};
        await updateIntegration(tx, locked.id, {
          status: 'publishing',
          error: null,
          notice: null,
          failures: [],
          publishRequest: request,
          progress: { written: 0, failed: 0, total: plan.writes.length },
        });
        await queue.send(jobNames.publishIntegration, { integrationId: locked.id, ...request }, { tx });
      });
      return toIntegration(row);
    },

    async startUndo(userId: string, id: string, changeIds: string[]): Promise<Integration> {
      await owned(userId, id);
      const ids = [...new Set(changeIds)];
      const changes = await listChanges(db, id, ids);
      if (changes.length < ids.length) throw notFound('There is no such change on this site.');
      const undone = changes.filter((change) => change.status === 'undone').length;
      if (undone > 0)
        throw conflict(
          `${undone} of the selected changes ${undone === 1 ? 'was' : 'were'} undone already; nothing was changed.`,
        );
      const row = await startRun(userId, id, async (tx, locked) => {
        await updateIntegration(tx, locked.id, {
          status: 'publishing',
          error: null,
          notice: null,
          failures: [],
          publishRequest: { undo: ids },
          progress: { written: 0, failed: 0, total: ids.length },
        });
        await queue.send(jobNames.publishIntegration, { integrationId: locked.id, undo: ids }, { tx });
      });
      return toIntegration(row);
    },

    async changes(userId: string, id: string): Promise<IntegrationChange[]> {
      await owned(userId, id);
      const changes = await listChanges(db, id);
      // Our stored copy of each picture (ADR 051): an http site's own address may not load here.
      const previews = await deps.audits.imagePreviews(
        userId,
        changes.flatMap((change) => (change.auditImageId ? [change.auditImageId] : [])),
      );
      return changes.map((change) => {
        const image = change.auditImageId ? previews.get(change.auditImageId) : undefined;
        // A later import that no longer finds the attachment still has the audit's image.
        const src = change.sourceUrl ?? image?.src ?? null;
        return {
          id: change.id,
          mediaId: change.mediaId,
          ...(change.postId !== null ? { postId: change.postId } : {}),
          ...(change.postTitle !== null ? { postTitle: change.postTitle } : {}),
          ...(src !== null ? { fileName: fileNameOfUrl(src), src } : {}),
          thumbnailUrl: image?.thumbnailUrl ?? null,
          field: change.field,
          before: change.before,
          after: change.after,
          publishedAt: (change.publishedAt ?? change.createdAt).toISOString(),
          ...(change.undoneAt ? { undoneAt: change.undoneAt.toISOString() } : {}),
        };
      });
    },

    /** Job handlers. */
    runImport,
    /** Import jobs waiting for a slot give up (their jobs retry); the process is stopping. */
    close: () => importSlots.close(),
    runPublish: runPublishJob,

    /**
     * On worker start: imports and publishes a stopped process left under way are queued again. A
     * run whose lease has expired is queued at once; one whose lease is live (another worker is on
     * it, or a process that just died held it) only when that lease ends, and it then takes over
     * only if nobody renewed it.
     */
    async resumeUnfinished(): Promise<void> {
      for (const run of await listUnfinishedRuns(db)) {
        const options =
          run.leaseLive && run.leaseUntil ? { startAfter: new Date(run.leaseUntil.getTime() + 1000) } : {};
        if (run.status === 'importing')
          await queue.send(jobNames.importIntegration, { integrationId: run.id }, options);
        // A publish resumes with what it was asked; its pending changes are settled first (no double write).
        else
          await queue.send(
            jobNames.publishIntegration,
            { integrationId: run.id, ...(run.publishRequest ?? {}) },
            options,
          );
      }
    },
  };
}
