import { z } from 'zod';

/** Outgoing webhooks (ADR 029): endpoints a user registers and the deliveries sent to them. */

/** The events an endpoint may subscribe to. `audit.completed` is accepted before audits emit it. */
export const webhookEventTypes = ['batch.completed', 'batch.failed', 'audit.completed'] as const;
export type WebhookEvent = (typeof webhookEventTypes)[number];

/** Endpoints one user may register. */
export const WEBHOOK_ENDPOINTS_MAX = 10;
export const WEBHOOK_URL_MAX = 2_000;

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** POST /webhooks */
export const createWebhookRequestSchema = z.strictObject({
  url: z
    .string({ error: 'A URL is required' })
    .trim()
    .min(1, 'A URL is required')
    .max(WEBHOOK_URL_MAX, `The URL must be at most ${WEBHOOK_URL_MAX.toLocaleString('en-US')} characters`)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
      } catch {
        return false;
      }
    }, 'Enter a valid http or https URL without a user name or password'),
  events: z
    .array(z.enum(webhookEventTypes, { error: `Events must be among: ${webhookEventTypes.join(', ')}` }), {
      error: 'Choose at least one event',
    })
    .min(1, 'Choose at least one event')
    .max(webhookEventTypes.length, 'Each event at most once')
    .refine((events) => new Set(events).size === events.length, 'Each event at most once'),
});
export type CreateWebhookRequest = z.infer<typeof createWebhookRequestSchema>;

export const webhookSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.enum(webhookEventTypes)),
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer to POST /webhooks: the signing secret (`whsec_` + base64) appears only here. */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const listWebhooksResponseSchema = z.array(webhookSchema);

/**
 * After POST /webhooks/{id}/rotate-secret, deliveries carry two `v1,` signatures, one per secret,
 * for this long; then only the new secret signs (ADR 049).
 */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;

/** The answer to POST /webhooks/{id}/rotate-secret: the new secret, shown in this answer only. */
export const rotatedWebhookSecretSchema = createdWebhookSchema.extend({
  /** Until then the previous secret signs too; a second rotation before then retires it at once. */
  previousSecretExpiresAt: z.string(),
});
export type RotatedWebhookSecret = z.infer<typeof rotatedWebhookSecretSchema>;

export const webhookParamsSchema = z.object({ id: z.uuid({ error: 'Unknown webhook' }) });
export const webhookDeliveryParamsSchema = z.object({
  id: z.uuid({ error: 'Unknown webhook' }),
  deliveryId: z.uuid({ error: 'Unknown delivery' }),
});

export const webhookDeliverySchema = z.object({
  id: z.uuid(),
  event: z.enum(webhookEventTypes),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const listWebhookDeliveriesResponseSchema = z.array(webhookDeliverySchema);
