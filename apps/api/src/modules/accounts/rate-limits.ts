import { createHash } from 'node:crypto';
import { errorCodes } from '@altwise/contracts/errors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';

export type AuthRateLimitOptions = { perIp: number; perEmail: number; windowSeconds: number };

export type RateLimitGuard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

const emailOf = (request: FastifyRequest): string | null => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email ? email.trim().toLowerCase() : null;
};

/**
 * Limits for the account endpoints that can be used to guess passwords or send mail: each action
 * counts attempts per client IP and per email address (from the validated body) in a fixed window,
 * in this process's memory. Over either limit the answer is 429 RATE_LIMITED with Retry-After.
 * Returns a factory of preHandlers, one per action, each with its own counters.
 */
export async function createAuthRateLimits(app: FastifyInstance, options: AuthRateLimitOptions) {
  await app.register(rateLimit, { global: false });
  const timeWindow = options.windowSeconds * 1000;

  return (action: string): RateLimitGuard => {
    const byIp = app.createRateLimit({
      max: options.perIp,
      timeWindow,
      keyGenerator: (request) => `${action}:ip:${request.ip}`,
    });
    const byEmail = app.createRateLimit({
      max: options.perEmail,
      timeWindow,
      keyGenerator: (request) =>
        `${action}:email:${createHash('sha256')
          .update(emailOf(request) ?? '')
          .digest('hex')}`,
    });
    return async (request, reply) => {
      const checks = emailOf(request) ? [byIp, byEmail] : [byIp];
      for (const check of checks) {
        const limit = await check(request);
        if (!limit.isAllowed && limit.isExceeded) {
          const retryAfter = Math.max(1, limit.ttlInSeconds);
          request.server.log.info({ action, key: limit.key.split(':')[1] }, 'rate limit reached');
          reply.header('retry-after', String(retryAfter));
          throw new AppError(
            errorCodes.rateLimited,
            `Too many attempts. Please wait ${waitText(retryAfter)} and try again.`,
          );
        }
      }
    };
  };
}
