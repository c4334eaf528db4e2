import {
  auditImagesQuerySchema,
  auditImagesResponseSchema,
  auditParamsSchema,
  auditSchema,
  DEFAULT_AUDIT_MAX_PAGES,
  listAuditsResponseSchema,
  MAX_ACTIVE_AUDITS,
  MAX_AUDIT_PAGES,
  MAX_AUDITS_PER_DAY,
  startAuditRequestSchema,
  startAuditResponseSchema,
} from '@altwise/contracts/audit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { streamProgress } from '../../lib/event-stream.ts';
import { AuditLimitError, type AuditService } from './service.ts';

const bearerAuth = [{ bearerAuth: [] }];
/** How often the event stream looks at the database. */
const STREAM_POLL_MS = 500;

/** Alt-text audits (issue 13), under /api/v1. */
export async function auditRoutes(
  app: FastifyInstance,
  options: { audits: AuditService; streamPollMs?: number },
) {
  const { audits } = options;
  const pollMs = options.streamPollMs ?? STREAM_POLL_MS;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  let closing = false;
  app.addHook('onClose', async () => {
    closing = true;
  });

  typed.post(
    '/audits',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['audits'],
        summary: 'Audit the alt text of a page, a site or a sitemap in the background (free)',
        description:
          `\`scope\`: \`page\` (this page), \`site\` (this page and the same-origin pages it links to, breadth first) or \`sitemap\` (the pages of the site's sitemap.xml, or of the sitemap the URL names; sitemap indexes are followed). ` +
          `At most \`maxPages\` pages (default ${DEFAULT_AUDIT_MAX_PAGES}, at most ${MAX_AUDIT_PAGES}). Pages are fetched through the SSRF-safe fetcher, 2 at a time per host, never leaving the URL's origin (a redirect elsewhere is reported, not followed), as robots.txt allows, and never run. ` +
          `400 for an invalid URL or one whose host is private, local or does not resolve: nothing is queued then. 429 with Retry-After when the caller has ${MAX_ACTIVE_AUDITS} audits queued or running or has started ${MAX_AUDITS_PER_DAY} in 24 hours. Otherwise 202 with the audit's id; follow it with GET /audits/{id} or its event stream.`,
        security: bearerAuth,
        body: startAuditRequestSchema,
        response: { 202: startAuditResponseSchema },
      },
    },
    async (request, reply) => {
      try {
        const started = await audits.start(request.user.id, request.body);
        return reply.code(202).send(started);
      } catch (error) {
        if (error instanceof AuditLimitError) reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    },
  );

  typed.get(
    '/audits',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['audits'],
        summary: 'The caller’s audits, newest first (at most 100)',
        security: bearerAuth,
        response: { 200: listAuditsResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return audits.list(request.user.id);
    },
  );

  typed.get(
    '/audits/:id',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['audits'],
        summary: 'One of the caller’s audits: status, progress, score, verdict and problem counts',
        description:
          '`score` is the share of non-decorative images that pass (null when there is none); `notices` says in words what the audit could not do (a page that is not HTML, a redirect to another site, a page robots.txt disallows); `error` why a failed audit failed. 404 when the audit is not the caller’s.',
        security: bearerAuth,
        params: auditParamsSchema,
        response: { 200: auditSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return audits.get(request.user.id, request.params.id);
    },
  );

  typed.get(
    '/audits/:id/events',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['audits'],
        summary: 'Server-sent events with an audit’s progress until it ends',
        description:
          '`text/event-stream`: an event `progress` (data: the same JSON as GET /audits/{id}) at once and whenever it changes; the stream closes after the event with status `completed` or `failed`. Authenticated by the Bearer header (read it with fetch streaming). 404 when the audit is not the caller’s.',
        security: bearerAuth,
        params: auditParamsSchema,
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      const userId = request.user.id;
      const auditId = request.params.id;
      // Answered in the usual shape (404...) before the stream starts.
      const first = await audits.get(userId, auditId);
      await streamProgress(request, reply, {
        first,
        read: () => audits.get(userId, auditId),
        done: (audit) => audit.status === 'completed' || audit.status === 'failed',
        pollMs,
        closing: () => closing,
      });
    },
  );

  typed.get(
    '/audits/:id/images',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['audits'],
        summary: 'The images of one of the caller’s audits, with their verdicts and problems',
        description:
          'In page order, then document order. Filters: `verdict` (pass, fail, warning, decorative), `problem` (a problem code), `review` (pending, accepted, rejected, edited, or none for images without a suggestion). `alt` is null when the image has no alt attribute. 404 when the audit is not the caller’s.',
        security: bearerAuth,
        params: auditParamsSchema,
        querystring: auditImagesQuerySchema,
        response: { 200: auditImagesResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return audits.images(request.user.id, request.params.id, request.query);
    },
  );
}
