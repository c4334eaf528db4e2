import type { AuditCompletedMonitor } from '@altwise/contracts/monitors';
import {
  type CreatedWebhook,
  type CreateWebhookRequest,
  type RotatedWebhookSecret,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '@altwise/contracts/webhooks';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { Database, Transaction } from '../../db/client.ts';
import type { WebhookDeliveryRow, WebhookEndpoint } from '../../db/tables/webhook-endpoints.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { jobNames } from '../../jobs/names.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { assertPublicAddress, parseFetchableUrl, SafeFetchError } from '../../net/safe-fetch.ts';
import { findAuditRow } from '../audit/queries.ts';
import { createWebhookSecret, signWebhook } from '../billing/standard-webhooks.ts';
import { findBatchRow, listBatchItems } from '../generation/queries.ts';
import { findAltTextsOf } from '../library/queries.ts';
import { judgeLibraryImage } from '../library/service.ts';
import { postWebhook } from './post-webhook.ts';
import {
  countEndpoints,
  deleteEndpoint,
  findDelivery,
  findDeliveryToSend,
  findEndpoint,
  findSubscribedEndpoints,
  insertDeliveries,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  recordAttempt,
  reopenDelivery,
  rotateEndpointSecret,
} from './repository.ts';

/** How deliveries are sent and retried (config.ts `webhooks`; tests shorten them). */
export type WebhookDeliveryConfig = {
  /** A 2xx within this time is a success. */
  timeoutMs: number;
  /** The first retry waits this long; each next one twice as long, up to `retryMaxDelayMs`. */
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** Retries stop this long after the first attempt (or the redelivery), and the delivery is `failed`. */
  retryWindowMs: number;
};

/** Deliveries listed per endpoint. */
const RECENT_DELIVERIES = 50;
/** Images carried by one batch event; a bigger batch says `imagesTruncated`. */
const MAX_EVENT_IMAGES = 1_000;

const toWebhook = (row: WebhookEndpoint): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events as WebhookEvent[],
  createdAt: row.createdAt.toISOString(),
});

const toDelivery = (row: WebhookDeliveryRow): WebhookDelivery => ({
  id: row.id,
  event: row.event as WebhookEvent,
  status: row.status,
  attempts: row.attempts,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  createdAt: row.createdAt.toISOString(),
  deliveredAt: row.deliveredAt?.toISOString() ?? null,
});

export function createWebhooksService(deps: {
  db: Database;
  queue: JobQueue;
  fetch: Pick<AppConfig['fetch'], 'allowPrivate'>;
  delivery: WebhookDeliveryConfig;
  logger: FastifyBaseLogger;
}) {
  const { db, queue, delivery: timing, logger } = deps;

  /** The same SSRF rules as scraping: refused at creation, checked again on every delivery. */
  async function checkTarget(address: string): Promise<string> {
    try {
      const url = parseFetchableUrl(address);
      await assertPublicAddress(url, { allowPrivate: deps.fetch.allowPrivate });
      return url.toString();
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      const message =
        error.code === 'REFUSED_ADDRESS'
          ? `${error.message} Webhooks can only be sent to public addresses.`
          : error.message;
      throw badRequest(message, [{ path: 'url', message }]);
    }
  }

  async function ownEndpoint(userId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await findEndpoint(db, userId, id);
    if (!endpoint) throw notFound('Webhook not found.');
    return endpoint;
  }

  /**
   * Stores one delivery per subscribed endpoint of the user and queues its first attempt, in `tx`:
   * the deliveries exist only if the event's own change commits. Emitting the same event about the
   * same subject again adds nothing.
   */
  async function emit(
    tx: Transaction,
    userId: string,
    event: WebhookEvent,
    subject: string,
    data: () => Promise<Record<string, unknown>>,
  ): Promise<number> {
    const endpoints = await findSubscribedEndpoints(tx, userId, event);
    if (endpoints.length === 0) return 0;
    const payload = { type: event, timestamp: new Date().toISOString(), data: await data() };
    const ids = await insertDeliveries(
      tx,
      endpoints.map((endpoint) => ({ endpointId: endpoint.id, event, subject, payload })),
    );
    const since = new Date().toISOString();
    for (const deliveryId of ids)
      await queue.send(jobNames.deliverWebhook, { deliveryId, attempt: 0, since }, { tx });
    return ids.length;
  }

  return {
    async createWebhook(userId: string, input: CreateWebhookRequest): Promise<CreatedWebhook> {
      const url = await checkTarget(input.url);
      if ((await countEndpoints(db, userId)) >= WEBHOOK_ENDPOINTS_MAX)
        throw conflict(`You can have at most ${WEBHOOK_ENDPOINTS_MAX} webhooks. Delete one to add another.`);
      const secret = createWebhookSecret();
      const row = await insertEndpoint(db, { userId, url, events: input.events, secret });
      logger.info({ webhook: row.id, events: row.events }, 'webhook created');
      return { ...toWebhook(row), secret };
    },

    async listWebhooks(userId: string): Promise<Webhook[]> {
      return (await listEndpoints(db, userId)).map(toWebhook);
    },

    async deleteWebhook(userId: string, id: string): Promise<void> {
      if (!(await deleteEndpoint(db, userId, id))) throw notFound('Webhook not found.');
      logger.info({ webhook: id }, 'webhook deleted');
    },

    /**
     * A new signing secret, shown once. The one it replaces keeps signing too (a second `v1,`
     * signature) for WEBHOOK_SECRET_OVERLAP_HOURS, so a receiver can switch without missing an
     * event; an earlier previous secret is retired at once. Deliveries are kept.
     */
    async rotateSecret(userId: string, id: string): Promise<RotatedWebhookSecret> {
      const secret = createWebhookSecret();
      const row = await rotateEndpointSecret(
        db,
        userId,
        id,
        secret,
        WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000,
      );
      if (!row?.previousSecretExpiresAt) throw notFound('Webhook not found.');
      logger.info({ webhook: row.id }, 'webhook secret rotated');
      return {
        ...toWebhook(row),
        secret,
        previousSecretExpiresAt: row.previousSecretExpiresAt.toISOString(),
      };
    },

    async listDeliveries(userId: string, id: string): Promise<WebhookDelivery[]> {
      const endpoint = await ownEndpoint(userId, id);
      return (await listDeliveries(db, endpoint.id, RECENT_DELIVERIES)).map(toDelivery);
    },

    /** Sends a delivered or failed delivery again, with a fresh retry window. */
    async redeliver(userId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
      const endpoint = await ownEndpoint(userId, id);
      const found = await findDelivery(db, endpoint.id, deliveryId);
      if (!found) throw notFound('Delivery not found.');
      const reopened = await db.transaction(async (tx) => {
        const attempt = await reopenDelivery(tx, found.id);
        if (attempt === null) return null;
        await queue.send(
          jobNames.deliverWebhook,
          { deliveryId: found.id, attempt, since: new Date().toISOString() },
          { tx },
        );
        return attempt;
      });
      if (reopened === null)
        throw conflict('This delivery is still being sent. Wait until it is delivered or has failed.');
      return toDelivery({ ...found, status: 'pending' });
    },

    emit,

    /**
     * An audit just completed (in `tx`, the transaction that completed it): audit.completed with its
     * summary, and for a monitor's run the `monitor` field with what changed since its previous run.
     */
    async emitAuditCompleted(
      tx: Transaction,
      auditId: string,
      monitor: AuditCompletedMonitor | null = null,
    ): Promise<number> {
      const audit = await findAuditRow(tx, auditId);
      if (audit?.status !== 'completed') return 0;
      return emit(tx, audit.userId, 'audit.completed', audit.id, async () => ({
        auditId: audit.id,
        url: audit.url,
        scope: audit.scope,
        status: audit.status,
        pagesScanned: audit.pagesScanned,
        imagesFound: audit.imagesFound,
        score: audit.score,
        counts: audit.counts,
        problems: audit.problems,
        createdAt: audit.createdAt.toISOString(),
        finishedAt: audit.finishedAt?.toISOString() ?? null,
        ...(monitor ? { monitor } : {}),
      }));
    },

    /** A generation batch just finished (in `tx`, the transaction that closed it): batch.completed or batch.failed. */
    async emitBatchFinished(tx: Transaction, batchId: string): Promise<number> {
      const batch = await findBatchRow(tx, batchId);
      if (!batch || (batch.status !== 'completed' && batch.status !== 'failed')) return 0;
      const event = batch.status === 'completed' ? 'batch.completed' : 'batch.failed';
      return emit(tx, batch.userId, event, batch.id, async () => {
        const items = await listBatchItems(tx, batchId, { afterPosition: -1, limit: MAX_EVENT_IMAGES });
        const alts = await findAltTextsOf(
          tx,
          items.flatMap((item) => (item.libraryImageId ? [item.libraryImageId] : [])),
        );
        const images = items.map((item) => {
          const alt = item.libraryImageId ? alts.get(item.libraryImageId) : undefined;
          return {
            ...item,
            altText: alt?.altText ?? null,
            origin: alt?.origin ?? null,
            reasons: alt?.reasons ?? null,
            context: alt?.context ?? null,
          };
        });
        return {
          batchId: batch.id,
          status: batch.status,
          source: batch.source,
          pageUrl: batch.pageUrl,
          total: batch.total,
          completed: batch.completed,
          failed: batch.failed,
          createdAt: batch.createdAt.toISOString(),
          finishedAt: batch.finishedAt?.toISOString() ?? null,
          images: images.map((image) => {
            // Only alt text we can stand behind leaves in a payload (ADR 067): the others go as
            // null with `needsWords`, for a person to write in the library (ADR 068).
            const publishable =
              image.altText !== null &&
              image.origin !== null &&
              judgeLibraryImage({
                altText: image.altText,
                origin: image.origin,
                reasons: image.reasons,
                context: image.context,
                src: image.src,
              }).publishable;
            return {
              src: image.src,
              status: image.status,
              altText: publishable ? image.altText : null,
              needsWords: image.altText !== null && !publishable,
              // Where the alt text came from (ADR 057); null while there is none (a failed image).
              origin: image.origin ?? null,
              libraryImageId: image.libraryImageId,
              error: image.error,
            };
          }),
          imagesTruncated: batch.total > images.length,
        };
      });
    },

    /**
     * One attempt of the `webhooks.deliver` job. A 2xx is `delivered`; anything else is recorded and,
     * while the retry window lasts, the next attempt is queued with a doubled delay; after it, `failed`.
     */
    async deliver(job: { deliveryId: string; attempt: number; since: string }): Promise<void> {
      const found = await findDeliveryToSend(db, job.deliveryId);
      if (found?.delivery.status !== 'pending' || found.delivery.attempts !== job.attempt) return;
      const body = JSON.stringify(found.delivery.payload);
      const secrets = found.previousSecret ? [found.secret, found.previousSecret] : [found.secret];
      const headers = signWebhook(secrets, found.delivery.id, body);
      const outcome = await postWebhook(found.url, body, headers, {
        allowPrivate: deps.fetch.allowPrivate,
        timeoutMs: timing.timeoutMs,
      });
      const log = { delivery: job.deliveryId, attempt: job.attempt + 1, statusCode: outcome.statusCode };
      if (outcome.ok) {
        await recordAttempt(db, job.deliveryId, job.attempt, {
          status: 'delivered',
          statusCode: outcome.statusCode,
          error: null,
        });
        logger.info(log, 'webhook delivered');
        return;
      }
      const delayMs = Math.min(timing.retryBaseMs * 2 ** job.attempt, timing.retryMaxDelayMs);
      const gaveUp = Date.now() + delayMs > new Date(job.since).getTime() + timing.retryWindowMs;
      await db.transaction(async (tx) => {
        const recorded = await recordAttempt(tx, job.deliveryId, job.attempt, {
          status: gaveUp ? 'failed' : 'pending',
          statusCode: outcome.statusCode,
          error: outcome.error,
        });
        if (recorded && !gaveUp)
          await queue.send(
            jobNames.deliverWebhook,
            { deliveryId: job.deliveryId, attempt: job.attempt + 1, since: job.since },
            { tx, startAfter: new Date(Date.now() + delayMs) },
          );
      });
      logger.info(
        { ...log, error: outcome.error, retryInMs: gaveUp ? null : delayMs },
        'webhook attempt failed',
      );
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
