import {
  createdWebhookSchema,
  createWebhookRequestSchema,
  listWebhookDeliveriesResponseSchema,
  listWebhooksResponseSchema,
  rotatedWebhookSecretSchema,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookEventTypes,
  webhookParamsSchema,
} from '@altwise/contracts/webhooks';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebhooksService } from './service.ts';

/** Managing webhooks needs the signed-in session, never an API key (ADR 028). */
const sessionOnly = { sessionOnly: true };
const tags = ['webhooks'];

/** Outgoing webhooks (ADR 029), under /api/v1. */
export async function webhooksRoutes(app: FastifyInstance, options: { webhooks: WebhooksService }) {
  const { webhooks } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/webhooks',
    {
      config: sessionOnly,
      schema: {
        tags,
        summary: 'Register a webhook endpoint (its signing secret is shown in this answer only)',
        description:
          `Events: ${webhookEventTypes.join(', ')}. Each delivery is a JSON POST \`{type, timestamp, data}\` signed with ` +
          'Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of ' +
          '"{id}.{timestamp}.{body}" keyed with the base64 part of the secret>`). A 2xx within 10 seconds is a success; ' +
          'anything else is retried with exponential backoff for up to 24 hours. Redirects are not followed. ' +
          '`batch.completed` and `batch.failed` data: batchId, status, source, pageUrl, total, completed, failed, createdAt, finishedAt, `images: [{src, status, altText, needsWords, origin, libraryImageId, error}]` (the first 1000, in order; `altText` is null and `needsWords` true for an image whose alt text may not go live (ADR 067): it needs a person’s words in the library; `imagesTruncated` says when there are more; `origin` is human, embedded, ai, ai-reviewed or ai-edited (ADR 057), null without an alt text). ' +
          '`audit.completed` data: the audit’s id, url, scope, status, pagesScanned, imagesFound, score, counts, problems, createdAt, finishedAt, and, when a monitor started the audit, `monitor: {id, newFailures, fixed, scoreChange}` (the difference from the monitor’s previous completed run; nulls on its first; see GET /monitors/{id}). ' +
          '400 for a URL that is not http(s), or that resolves to a private or local address. ' +
          `At most ${WEBHOOK_ENDPOINTS_MAX} webhooks per account (409 beyond). Needs a signed-in session.`,
        body: createWebhookRequestSchema,
        response: { 201: createdWebhookSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await webhooks.createWebhook(request.user.id, request.body));
    },
  );

  typed.get(
    '/webhooks',
    {
      config: sessionOnly,
      schema: {
        tags,
        summary: 'The caller’s webhook endpoints, oldest first (never their secrets)',
        description: 'Needs a signed-in session.',
        response: { 200: listWebhooksResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return webhooks.listWebhooks(request.user.id);
    },
  );

  typed.delete(
    '/webhooks/:id',
    {
      config: sessionOnly,
      schema: {
        tags,
        summary: 'Delete a webhook endpoint and its deliveries',
        description: 'Deliveries not yet sent are dropped. 404 when the webhook is not the caller’s.',
        params: webhookParamsSchema,
        response: { 204: z.null().describe('Deleted') },
      },
    },
    async (request, reply) => {
      await webhooks.deleteWebhook(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  typed.post(
    '/webhooks/:id/rotate-secret',
    {
      config: sessionOnly,
      schema: {
        tags,
        summary: 'Replace the webhook’s signing secret (the new one is shown in this answer only)',
        description:
          `For ${WEBHOOK_SECRET_OVERLAP_HOURS} hours (until \`previousSecretExpiresAt\`) every delivery carries two signatures in ` +
          '`webhook-signature`, `v1,<new> v1,<old>`, so a receiver verifying with either secret accepts it while it switches; ' +
          'then only the new secret signs. Rotating again within that time retires the older secret at once. ' +
          'Deliveries and their history are kept. 404 when the webhook is not the caller’s. Needs a signed-in session.',
        params: webhookParamsSchema,
        response: { 200: rotatedWebhookSecretSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return webhooks.rotateSecret(request.user.id, request.params.id);
    },
  );

  typed.get(
    '/webhooks/:id/deliveries',
    {
      config: sessionOnly,
      schema: {
        tags,
        summary: 'The webhook’s 50 most recent deliveries, newest first',
        description:
          '`status`: pending (being sent or waiting for a retry), delivered (a 2xx) or failed (retries ran out). ' +
          '`attempts` counts every try; `lastStatusCode` and `lastError` describe the latest. 404 when the webhook is not the caller’s.',
        params: webhookParamsSchema,
        response: { 200: listWebhookDeliveriesResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return webhooks.listDeliveries(request.user.id, request.params.id);
    },
  );

  typed.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config: sessionOnly,
      schema: {
        tags,
        summary: 'Send a delivered or failed delivery again',
        description:
          'Queues the same event (same `webhook-id`, a new timestamp and signature) with a fresh 24-hour retry window. ' +
          '202 with the delivery, now pending; 409 while it is still pending; 404 when the webhook or delivery is not the caller’s.',
        params: webhookDeliveryParamsSchema,
        response: { 202: webhookDeliverySchema },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await webhooks.redeliver(request.user.id, request.params.id, request.params.deliveryId)),
  );
}
