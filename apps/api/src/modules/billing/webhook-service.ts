import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { unauthorized } from '../../errors.ts';
import type { PaymentEvent, PaymentWebhookSource } from './payment-provider.ts';
import { type PaymentRecorder, subscriptionStatusByEvent } from './payment-recording.ts';
import { insertWebhookEvent } from './repository.ts';
import { type WebhookHeaders, WebhookVerificationError } from './standard-webhooks.ts';

/**
 * POST /webhooks/payments: every configured provider's events on one endpoint. The provider whose
 * signature headers the request carries verifies it (401 otherwise); an event id is applied once.
 */
export function createWebhookService({
  db,
  sources,
  recorder,
  logger,
}: {
  db: Database;
  /** The card provider first (its scheme wins when a request carries both), then the hosted one. */
  sources: PaymentWebhookSource[];
  recorder: PaymentRecorder;
  logger: FastifyBaseLogger;
}) {
  return {
    /** 401 for a bad signature; a replayed event id changes nothing. */
    async handleWebhook(rawBody: string, headers: WebhookHeaders) {
      const source = sources.find((candidate) => candidate.signsWebhook(headers));
      let event: PaymentEvent;
      try {
        if (!source)
          throw new WebhookVerificationError('No configured payment provider signs webhooks this way');
        event = source.parseWebhook(rawBody, headers);
      } catch (error) {
        if (error instanceof WebhookVerificationError) throw unauthorized(error.message);
        throw error;
      }
      const fresh = await db.transaction(async (tx) => {
        const inserted = await insertWebhookEvent(tx, {
          provider: source.name,
          eventId: event.eventId,
          type: event.type,
        });
        if (!inserted) return false;
        if (event.payment && !source.isOurPayment(event.payment)) {
          logger.warn(
            { provider: source.name, paymentId: event.payment.paymentId },
            'payment event for no checkout of ours; ignored',
          );
          return true;
        }
        if (event.payment && (event.type === 'payment.succeeded' || event.type === 'payment.failed'))
          await recorder.applyPayment(tx, source.name, event.type, event.payment);
        else if (event.subscription && event.type in subscriptionStatusByEvent)
          await recorder.applySubscription(tx, source.name, event.type, event.subscription);
        return true;
      });
      logger.info(
        { provider: source.name, eventId: event.eventId, type: event.type, duplicate: !fresh },
        'payment webhook',
      );
      return { received: true as const, duplicate: !fresh };
    },
  };
}
