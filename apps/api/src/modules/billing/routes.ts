import {
  billingHistoryQuerySchema,
  billingHistoryResponseSchema,
  cancelSubscriptionResponseSchema,
  createCheckoutSessionRequestSchema,
  createCheckoutSessionResponseSchema,
  freePlanResponseSchema,
  legacyCheckoutRequestSchema,
  legacyCheckoutResponseSchema,
  legacyErrorResponseSchema,
  sandboxConfirmRequestSchema,
  sandboxConfirmResponseSchema,
  subscriptionDetailsResponseSchema,
  verifyPaymentResponseSchema,
  webhookAckResponseSchema,
} from '@altwise/contracts/billing';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownershipGate } from '../../plugins/ownership.ts';
import type { BillingService } from './service.ts';

const noStore = { 'cache-control': 'no-store' };
/** The legacy card routes' 4xx also carry `error`, a copy of the message (the product spec's browser reads it). */
const legacyErrorExtras = (body: { message: string }) => ({ error: body.message });

/**
 * Checkout, subscription, billing history and the legacy card routes of the product spec §7, under /api/v1.
 * Every one is `sessionOnly`: payments need the signed-in session, never an API key (ADR 028).
 */
export async function billingRoutes(app: FastifyInstance, options: { billing: BillingService }) {
  const { billing } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // A userId in a request of this group (the checkout's, the product spec §7) must be the caller's (403 otherwise).
  await app.register(ownershipGate);

  typed.post(
    '/payments/create-checkout-session',
    {
      config: { sessionOnly: true },
      schema: {
        tags: ['billing'],
        summary: 'Start a hosted checkout for a plan or credit packs',
        description:
          "Records the pending checkout for the signed-in user and answers the provider's hosted checkout URL; the browser goes there. 403 when `userId` is not the caller's; 409 CONFLICT for a plan while another plan still renews.",
        body: createCheckoutSessionRequestSchema,
        response: { 200: createCheckoutSessionResponseSchema },
      },
    },
    async (request) => billing.createCheckoutSession(request.user.id, request.body),
  );

  typed.get(
    '/users/subscription-details',
    {
      config: { sessionOnly: true },
      schema: {
        tags: ['billing'],
        summary: "The signed-in user's current plan",
        response: { 200: subscriptionDetailsResponseSchema },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return billing.subscriptionDetails(request.user.id);
    },
  );

  typed.patch(
    '/users/cancel-subscription',
    {
      config: { sessionOnly: true },
      schema: {
        tags: ['billing'],
        summary: 'Cancel renewal: the plan runs to the end of the paid period; credits stay',
        description: '404 NOT_FOUND when no paid plan is renewing.',
        response: { 200: cancelSubscriptionResponseSchema },
      },
    },
    async (request) => billing.cancelSubscription(request.user.id),
  );

  typed.get(
    '/users/billing-history',
    {
      config: { sessionOnly: true },
      schema: {
        tags: ['billing'],
        summary: 'Payments, newest first, one page at a time',
        querystring: billingHistoryQuerySchema,
        response: { 200: billingHistoryResponseSchema },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return billing.billingHistory(request.user.id, request.query.page);
    },
  );

  typed.post(
    '/stripe/free-plan',
    {
      schema: {
        tags: ['billing'],
        summary: 'Choose the free plan (grants nothing: the 25 free credits come at email confirmation)',
        description:
          "Failures carry `error` besides `message` and `code` (the product spec's browser reads `error`).",
        response: { 200: freePlanResponseSchema, '4xx': legacyErrorResponseSchema },
      },
      config: { errorExtras: legacyErrorExtras, sessionOnly: true },
    },
    async (request) => billing.selectFreePlan(request.user.id),
  );

  typed.post(
    '/stripe/checkout',
    {
      schema: {
        tags: ['billing'],
        summary: 'Legacy card form: start a card payment, answered with its client secret',
        description:
          'With STRIPE_SECRET_KEY: a Stripe PaymentIntent for the catalogue price (the client secret is for Stripe.js confirmCardPayment). Otherwise the sandbox (pay with POST /payments/sandbox/confirm), or 404 when neither runs. 400 when the plan and amount match no price; 409 while another plan renews; 502 when Stripe cannot be reached. 4xx carry `error` besides `message` and `code`.',
        body: legacyCheckoutRequestSchema,
        response: { 200: legacyCheckoutResponseSchema, '4xx': legacyErrorResponseSchema },
      },
      config: { errorExtras: legacyErrorExtras, sessionOnly: true },
    },
    async (request) => billing.createCardCheckout(request.user.id, request.body),
  );

  typed.post(
    '/payments/sandbox/confirm',
    {
      config: { public: true },
      schema: {
        tags: ['billing'],
        summary:
          'Sandbox provider: pay a card checkout with a test card (what Stripe.js confirmCardPayment does)',
        description:
          "The client secret is the authority (no session). 4242 4242 4242 4242 pays; 4000 0000 0000 0002 answers 402 PAYMENT_DECLINED with the provider's message; a malformed card is 400. Nothing changes on a refusal. On success go to /success?payment_intent={paymentIntentId}.",
        body: sandboxConfirmRequestSchema,
        response: { 200: sandboxConfirmResponseSchema },
      },
    },
    async (request) => billing.confirmSandboxPayment(request.body),
  );

  typed.post(
    '/stripe/verify-payment/:paymentId',
    {
      config: { sessionOnly: true },
      schema: {
        tags: ['billing'],
        summary: 'The result of one of your payments (the /success page)',
        description:
          "With STRIPE_SECRET_KEY, a PaymentIntent id (pi_…) not yet settled here is asked of Stripe; when it succeeded it is credited now, once, as its webhook would. A payment not (yet) recorded for the caller — not arrived, unknown, or another account's — answers status 'pending' with empty details ('failed' for the caller's own declined or cancelled PaymentIntent).",
        params: z.object({ paymentId: z.string().min(1).max(200) }),
        response: { 200: verifyPaymentResponseSchema },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return billing.verifyPayment(request.user.id, request.params.paymentId);
    },
  );
}

/**
 * POST /webhooks/payments: the payment provider's events. Encapsulated so that its JSON parser
 * keeps the raw body, which the signature is computed over.
 */
export async function paymentWebhookRoutes(app: FastifyInstance, options: { billing: BillingService }) {
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.withTypeProvider<ZodTypeProvider>().post(
    '/webhooks/payments',
    {
      config: { public: true },
      schema: {
        tags: ['billing'],
        summary: 'Payment provider webhooks (Standard Webhooks signatures, or Stripe-Signature)',
        description:
          'Events of PAYMENT_PROVIDER signed with Standard Webhooks; with STRIPE_SECRET_KEY also Stripe events (payment_intent.succeeded / payment_failed), told apart by their Stripe-Signature header. 401 for a missing or wrong signature (nothing changes); 200 with duplicate=true for an event id already handled; 503 when the event cannot be applied yet (the provider retries).',
        response: { 200: webhookAckResponseSchema },
      },
    },
    async (request) =>
      options.billing.handleWebhook(typeof request.body === 'string' ? request.body : '', request.headers),
  );
}
