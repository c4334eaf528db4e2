/** Every background job, by name, with the payload it carries. */
export const jobNames = {
  /** Deletes temporary files whose `expires_at` has passed (storage bytes and their record). */
  purgeExpiredFiles: 'files.purge-expired',
  /** Deletes these files' bytes and records (a deleted account's files, ADR 022). */
  deleteFiles: 'files.delete',
  /** Sends one stored email (mail_messages row) through the configured transport. */
  sendMail: 'mail.send',
  /** Describes every image of one generation batch (modules/generation); safe to run twice at once. */
  generateBatch: 'generation.batch',
  /** Audits the pages of one alt-text audit (modules/audit); a second run only finishes what is left. */
  runAudit: 'audit.run',
  /** One attempt of one outgoing webhook delivery (modules/webhooks); it queues its own retry. */
  deliverWebhook: 'webhooks.deliver',
  /** Imports a WordPress media library as an audit (modules/integrations); resumes at its cursor. */
  importIntegration: 'integrations.import',
  /** Publishes approved alt text to a WordPress site, or undoes changes; never writes a change twice. */
  publishIntegration: 'integrations.publish',
  /** Refunds paid work (open credit reservations) a stopped process left past its lease (ADR 024). */
  recoverAbandonedCredits: 'credits.recover-abandoned',
  /** Starts a run of every monitor that is due (modules/monitors, ADR 062): the schedule's tick. */
  runDueMonitors: 'monitors.run-due',
} as const;

export type JobName = (typeof jobNames)[keyof typeof jobNames];

export type JobPayloads = {
  'files.purge-expired': { limit?: number };
  'files.delete': { keys: string[] };
  'mail.send': { mailId: string };
  'generation.batch': { batchId: string };
  'audit.run': { auditId: string };
  'webhooks.deliver': { deliveryId: string; attempt: number; since: string };
  'credits.recover-abandoned': { limit?: number };
  'monitors.run-due': Record<string, never>;
  'integrations.import': { integrationId: string };
  'integrations.publish': { integrationId: string; imageIds?: string[]; undo?: string[] };
};

/** How each queue retries and how long a job may run before it counts as stuck. */
export const jobQueueOptions: Record<
  JobName,
  { retryLimit: number; retryDelay: number; retryBackoff: boolean; expireInSeconds: number }
> = {
  'files.purge-expired': { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 600 },
  // About a day of retries while the storage service is down; each run is idempotent.
  'files.delete': { retryLimit: 12, retryDelay: 30, retryBackoff: true, expireInSeconds: 600 },
  // About a day of retries while an SMTP server is down, then the row stays `failed`.
  'mail.send': { retryLimit: 10, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
  // Images retry on their own (GENERATION_MAX_ATTEMPTS); a job retry only resumes what a crash left.
  'generation.batch': { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 3 * 3600 },
  // Pages are stored and claimed one by one: a retry resumes at the first page not yet scanned.
  'audit.run': { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 3 * 3600 },
  // The delivery schedules its own retries (ADR 029); a job retry only covers a crash mid-attempt.
  'webhooks.deliver': { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
  'credits.recover-abandoned': { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 300 },
  // The next tick comes in 5 minutes: a failed one is not retried.
  'monitors.run-due': { retryLimit: 0, retryDelay: 60, retryBackoff: false, expireInSeconds: 300 },
  // The cursor is stored after each page of the library: a retry resumes there.
  'integrations.import': { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 3 * 3600 },
  // Each change is logged before it is written and checked after: a retry writes nothing twice.
  'integrations.publish': { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 3 * 3600 },
};

/** Schedules of jobs that no longer exist, removed at worker start (ADR 024 replaced the studio's). */
export const retiredSchedules = ['studio.recover-abandoned'];

/** Recurring jobs, run by worker processes (cron syntax, UTC). */
export const jobSchedules: { name: JobName; cron: string; data: JobPayloads[JobName] }[] = [
  { name: jobNames.purgeExpiredFiles, cron: '*/15 * * * *', data: {} },
  { name: jobNames.recoverAbandonedCredits, cron: '*/5 * * * *', data: {} },
  { name: jobNames.runDueMonitors, cron: '*/5 * * * *', data: {} },
];
