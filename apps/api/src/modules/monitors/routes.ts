import {
  DEFAULT_AUDIT_MAX_PAGES,
  MAX_ACTIVE_AUDITS,
  MAX_AUDIT_PAGES,
  MAX_AUDITS_PER_DAY,
} from '@altwise/contracts/audit';
import {
  createMonitorRequestSchema,
  listMonitorsResponseSchema,
  MAX_MONITORS,
  MONITOR_DIFFERENCE_IMAGES,
  MONITOR_RUNS_LISTED,
  monitorDetailSchema,
  monitorParamsSchema,
  monitorSchema,
} from '@altwise/contracts/monitors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuditLimitError } from '../audit/service.ts';
import type { MonitorsService } from './service.ts';

const tags = ['monitors'];

/** Sites watched over time (ADR 062), under /api/v1. */
export async function monitorRoutes(app: FastifyInstance, options: { monitors: MonitorsService }) {
  const { monitors } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/monitors',
    {
      schema: {
        tags,
        summary: 'Watch a site: audit it now, then again every day or week (free)',
        description:
          `The fields of POST /audits (\`url\`, \`scope\`, \`maxPages\`: default ${DEFAULT_AUDIT_MAX_PAGES}, at most ${MAX_AUDIT_PAGES}; \`render\`: \`auto\`, \`always\` or \`never\`, default \`auto\`, stored and used for every run) and \`every\`: \`day\` or \`week\`. The first run is an audit started at once (its id in \`lastRun.auditId\`); each later run starts at the first scheduler tick (every 5 minutes) after \`nextRunAt\`, and not before the run before it has finished. ` +
          `Each run is an ordinary audit and counts against the same limits: 400 for an invalid URL or one whose host is private, local or does not resolve; 429 with Retry-After when the caller has ${MAX_ACTIVE_AUDITS} audits queued or running or has started ${MAX_AUDITS_PER_DAY} in 24 hours (nothing is stored then; a later run refused by these limits is recorded as \`skipped\` with the reason, and the owner is emailed). ` +
          `409 when the caller already monitors this URL, or has ${MAX_MONITORS} monitors. ` +
          'When a run completes, it is compared with the previous completed run (GET /monitors/{id}); the owner gets an email when something changed, and the `audit.completed` webhook event of a monitored run carries `monitor: {id, newFailures, fixed, scoreChange}` (nulls on the first run).',
        body: createMonitorRequestSchema,
        response: { 201: monitorSchema },
      },
    },
    async (request, reply) => {
      try {
        return reply.code(201).send(await monitors.create(request.user.id, request.body));
      } catch (error) {
        if (error instanceof AuditLimitError) reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    },
  );

  typed.get(
    '/monitors',
    {
      schema: {
        tags,
        summary:
          'The caller’s monitors, oldest first, each with its score history, newest run and last difference',
        response: { 200: listMonitorsResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return monitors.list(request.user.id);
    },
  );

  typed.get(
    '/monitors/:id',
    {
      schema: {
        tags,
        summary: 'One of the caller’s monitors: its runs and the last difference',
        description:
          `\`runs\`: the newest ${MONITOR_RUNS_LISTED}, newest first, each with its audit id, status, score and dates (a \`skipped\` run has no audit and says why in \`reason\`). ` +
          `\`lastDifference\`: what the newest compared run found changed since the completed run before it: \`newFailures\` (images failing now that did not fail then, new images included), \`fixed\` (images on both runs that failed then and do not now; an image that is gone is not fixed), \`scoreChange\` (now minus then, from 0 to 1 scores), and up to ${MONITOR_DIFFERENCE_IMAGES} of each named. Images are matched by their page and their resolved address. 404 when the monitor is not the caller’s.`,
        params: monitorParamsSchema,
        response: { 200: monitorDetailSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return monitors.get(request.user.id, request.params.id);
    },
  );

  typed.post(
    '/monitors/:id/run',
    {
      schema: {
        tags,
        summary: 'Run a monitor now (free)',
        description:
          `Starts a run at once, as the schedule would: an ordinary audit of the monitor's URL with its scope, pages and render mode. The next scheduled run moves to one interval from now. ` +
          `409 while the monitor's previous run is still going; 429 with Retry-After at the audit limits (${MAX_ACTIVE_AUDITS} queued or running, ${MAX_AUDITS_PER_DAY} a day); 400 when the address is no longer public or does not resolve; 404 when the monitor is not the caller’s. Answers the monitor with the new run in \`lastRun\`.`,
        params: monitorParamsSchema,
        response: { 202: monitorSchema },
      },
    },
    async (request, reply) => {
      try {
        return reply.code(202).send(await monitors.runNow(request.user.id, request.params.id));
      } catch (error) {
        if (error instanceof AuditLimitError) reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    },
  );

  typed.delete(
    '/monitors/:id',
    {
      schema: {
        tags,
        summary: 'Stop watching a site',
        description:
          'No further run starts; a run under way finishes as an ordinary audit. The audits of its runs stay (GET /audits). 404 when the monitor is not the caller’s.',
        params: monitorParamsSchema,
        response: { 204: z.null().describe('Deleted') },
      },
    },
    async (request, reply) => {
      await monitors.remove(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
