import type { AuditService } from '../modules/audit/service.ts';
import type { CreditsService } from '../modules/credits/service.ts';
import type { FilesService } from '../modules/files/service.ts';
import type { GenerationService } from '../modules/generation/service.ts';
import type { IntegrationsService } from '../modules/integrations/service.ts';
import type { MailService } from '../modules/mail/service.ts';
import type { MonitorsService } from '../modules/monitors/service.ts';
import type { WebhooksService } from '../modules/webhooks/service.ts';
import { generateBatchHandler } from './handlers/generate-batch.ts';
import { purgeExpiredFilesHandler } from './handlers/purge-expired-files.ts';
import { sendMailHandler } from './handlers/send-mail.ts';
import { jobNames, jobSchedules, retiredSchedules } from './names.ts';
import type { JobQueue, WorkOptions } from './queue.ts';

/** Starts every job handler and recurring schedule; called only where the role includes workers. */
export async function startWorkers(
  queue: JobQueue,
  deps: {
    files: FilesService;
    mail: MailService;
    credits: CreditsService;
    generation?: GenerationService;
    webhooks?: WebhooksService;
    audits?: AuditService;
    monitors?: MonitorsService;
    integrations?: IntegrationsService;
  },
  options: WorkOptions = {},
): Promise<void> {
  await queue.work(jobNames.purgeExpiredFiles, purgeExpiredFilesHandler(deps.files), options);
  await queue.work(
    jobNames.deleteFiles,
    async (job) => {
      await deps.files.deleteFiles(job.data.keys);
    },
    options,
  );
  await queue.work(jobNames.sendMail, sendMailHandler(deps.mail), options);
  await queue.work(
    jobNames.recoverAbandonedCredits,
    async (job) => {
      await deps.credits.recoverAbandoned({ limit: job.data.limit ?? 100 });
    },
    options,
  );
  if (deps.generation) {
    // Several batches at once; their images share the process-wide GENERATION_CONCURRENCY slots.
    await queue.work(jobNames.generateBatch, generateBatchHandler(deps.generation), {
      ...options,
      concurrency: Math.max(options.concurrency ?? 1, 4),
    });
    await deps.generation.resumeUnfinishedBatches();
    // A batch whose worker was killed while others live: adopted within two leases (ADR 036).
    deps.generation.startAdoptingOrphans();
  }
  const { audits } = deps;
  if (audits) {
    // Several audits at once; each fetches at most 2 pages at a time per host (modules/audit/crawler.ts).
    await queue.work(
      jobNames.runAudit,
      async (job) => {
        await audits.runAudit(job.data.auditId);
      },
      { ...options, concurrency: Math.max(options.concurrency ?? 1, 4) },
    );
    await audits.resumeUnfinishedAudits();
  }
  const { webhooks } = deps;
  if (webhooks) {
    // Receivers answer slowly (up to the 10 s limit): several deliveries at once.
    await queue.work(
      jobNames.deliverWebhook,
      async (job) => {
        await webhooks.deliver(job.data);
      },
      { ...options, concurrency: Math.max(options.concurrency ?? 1, 4) },
    );
  }
  const { monitors } = deps;
  if (monitors)
    await queue.work(
      jobNames.runDueMonitors,
      async () => {
        await monitors.runDueMonitors(new Date());
      },
      options,
    );
  const { integrations } = deps;
  if (integrations) {
    // Calls to each site are spaced by its own limiter. Up to 8 import jobs are taken, of which 2
    // import at once, shared fairly between users (ADR 070): the rest wait for a slot in the service.
    await queue.work(
      jobNames.importIntegration,
      async (job) => {
        await integrations.runImport(job.data.integrationId);
      },
      { ...options, concurrency: Math.max(options.concurrency ?? 1, 8) },
    );
    await queue.work(
      jobNames.publishIntegration,
      async (job) => {
        const { integrationId, ...work } = job.data;
        await integrations.runPublish(integrationId, work);
      },
      { ...options, concurrency: Math.max(options.concurrency ?? 1, 2) },
    );
    await integrations.resumeUnfinished();
  }
  for (const name of retiredSchedules) await queue.unschedule(name);
  for (const schedule of jobSchedules) {
    await queue.schedule(schedule.name, schedule.cron, schedule.data);
  }
}
