import {
  creditsRemainingResponseSchema,
  deductCreditsRequestSchema,
  deductCreditsResponseSchema,
  refundCreditsRequestSchema,
  refundCreditsResponseSchema,
} from '@altwise/contracts/billing';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CreditsService } from './service.ts';

const noStore = { 'cache-control': 'no-store' };

/** GET /credits/remaining, POST /credits/deduct, POST /credits/refund (the product spec §7), for the signed-in user. */
export async function creditsRoutes(app: FastifyInstance, options: { credits: CreditsService }) {
  const { credits } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/credits/remaining',
    {
      schema: {
        tags: ['credits'],
        summary: "The signed-in user's credit balance",
        response: { 200: creditsRemainingResponseSchema },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return credits.remaining(request.user.id);
    },
  );

  typed.post(
    '/credits/deduct',
    {
      schema: {
        tags: ['credits'],
        summary: 'Spend credits; the answer names the reservation a refund must cite',
        description:
          "402 INSUFFICIENT_CREDITS ('Insufficient credits') when the balance is short; nothing changes then. Any userId in the body is ignored.",
        body: deductCreditsRequestSchema,
        response: { 200: deductCreditsResponseSchema },
      },
    },
    async (request) => credits.deduct(request.user.id, request.body.usedCredits),
  );

  typed.post(
    '/credits/refund',
    {
      schema: {
        tags: ['credits'],
        summary: 'Give back credits of one of your reservations',
        description:
          'Returns at most what the reservation took and has not got back (more is clamped; an exhausted reservation refunds 0). 404 NOT_FOUND for a reservation that is unknown or not yours; nothing changes then.',
        body: refundCreditsRequestSchema,
        response: { 200: refundCreditsResponseSchema },
      },
    },
    async (request) =>
      credits.refund(request.user.id, request.body.reservationId, request.body.refundCredits),
  );
}
