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
  /** Refunds media-studio jobs a stopped process left running (modules/studio). */
  recoverStudioJobs: 'studio.recover-abandoned',
} as const;

export type JobName = (typeof jobNames)[keyof typeof jobNames];

export type JobPayloads = {
  'files.purge-expired': { limit?: number };
  'files.delete': { keys: string[] };
  'mail.send': { mailId: string };
  'generation.batch': { batchId: string };
  'studio.recover-abandoned': { limit?: number };
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
  'studio.recover-abandoned': { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 300 },
};

/** Recurring jobs, run by worker processes (cron syntax, UTC). */
export const jobSchedules: { name: JobName; cron: string; data: JobPayloads[JobName] }[] = [
  { name: jobNames.purgeExpiredFiles, cron: '*/15 * * * *', data: {} },
  { name: jobNames.recoverStudioJobs, cron: '*/5 * * * *', data: {} },
];
