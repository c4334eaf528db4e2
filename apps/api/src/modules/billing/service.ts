import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { badRequest } from '../../errors.ts';
import { createCardService } from './card-service.ts';
import { createCheckoutService } from './checkout-service.ts';
import type { CardPaymentProvider, PaymentProvider, PaymentWebhookSource } from './payment-provider.ts';
import { createPaymentRecorder } from './payment-recording.ts';
import { createPlanService } from './plan-service.ts';
import { createSandboxPaymentService } from './sandbox-payment-service.ts';
import type { SandboxProvider } from './sandbox-provider.ts';
import { createWebhookService } from './webhook-service.ts';

export { findCurrentPlanLabel } from './plan-service.ts';

export type BillingServiceDeps = {
  db: Database;
  /** PAYMENT_PROVIDER: the hosted checkout, subscriptions and their webhooks. */
  provider: PaymentProvider;
  /** The embedded provider when it is the configured one: it also backs the legacy card form. */
  sandbox: SandboxProvider | null;
  /** Stripe when STRIPE_SECRET_KEY is set: then it, not the sandbox, backs the legacy card form. */
  card?: CardPaymentProvider | null;
  publicUrl: string;
  logger: FastifyBaseLogger;
};

/**
 * Billing, one service per path (ADR 020): the hosted checkout (checkout-service), the legacy card
 * form (card-service), the sandbox's test-card payments (sandbox-payment-service), provider
 * webhooks (webhook-service) and plans (plan-service). What the providers do differently is behind
 * PaymentProvider / CardPaymentProvider; this only wires them together for the routes.
 */
export function createBillingService({
  db,
  provider,
  sandbox,
  card = null,
  publicUrl,
  logger,
}: BillingServiceDeps) {
  const recorder = createPaymentRecorder({ logger });
  const cardProvider = card ?? sandbox;
  const sandboxPayments = sandbox ? createSandboxPaymentService({ db, sandbox }) : null;
  const webhooks = createWebhookService({
    db,
    // The card provider's scheme first: a request carrying both is the card provider's. The
    // sandbox can be both providers; it is asked once.
    sources: [...new Set<PaymentWebhookSource>(cardProvider ? [cardProvider, provider] : [provider])],
    recorder,
    logger,
  });
  return {
    ...createCheckoutService({ db, provider, publicUrl }),
    ...createCardService({ db, card: cardProvider, recorder, logger }),
    ...createPlanService({ db, provider }),
    handleWebhook: webhooks.handleWebhook,

    /** The sandbox's test-card payments (hosted page and card form); null with another provider. */
    sandboxPayments,

    /** POST /payments/sandbox/confirm: charges a test card for the checkout the client secret names. */
    async confirmSandboxPayment(request: {
      clientSecret: string;
      cardNumber: string;
      expiry: string;
      cvc: string;
    }) {
      if (!sandboxPayments) throw badRequest('This payment link is not valid.');
      return sandboxPayments.confirmCardPayment(request);
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
