import { contactRequestSchema, contactResponseSchema } from '@altwise/contracts/contact';
import { errorCodes } from '@altwise/contracts/errors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import type { ContactService } from './service.ts';

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/** POST /email/send (the product spec §7): the public contact form, under /api/v1. */
export async function contactRoutes(
  app: FastifyInstance,
  options: { contact: ContactService; rateLimit: { perIp: number; windowSeconds: number } },
) {
  const { contact } = options;
  await app.register(rateLimit, { global: false });
  // Counted per client IP in this process's memory; a fixed window like the account limits.
  const checkIp = app.createRateLimit({
    max: options.rateLimit.perIp,
    timeWindow: options.rateLimit.windowSeconds * 1000,
    keyGenerator: (request) => `contact:ip:${request.ip}`,
  });
  const limitPerIp = async (request: FastifyRequest, reply: FastifyReply) => {
    const limit = await checkIp(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    const retryAfter = Math.max(1, limit.ttlInSeconds);
    request.log.info({ action: 'contact' }, 'rate limit reached');
    reply.header('retry-after', String(retryAfter));
    throw new AppError(
      errorCodes.rateLimited,
      `Too many messages from your network. Please wait ${waitText(retryAfter)} and try again, or email us directly.`,
    );
  };

  app.withTypeProvider<ZodTypeProvider>().post(
    '/email/send',
    {
      config: { public: true },
      preHandler: limitPerIp,
      schema: {
        tags: ['contact'],
        summary: 'Send a message to support (the contact form)',
        description:
          'Public. The message is stored first, then emailed to the support address (reply-to: the sender) by a queued job that retries while the mail server is down. 400 names each bad field (message at most 5,000 characters); 429 with Retry-After when one IP sends too many.',
        body: contactRequestSchema,
        response: { 200: contactResponseSchema },
      },
    },
    async (request) => contact.sendContactMessage(request.body),
  );
}
