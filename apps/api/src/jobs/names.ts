/** Every background job, by name, with the payload it carries. */
export const jobNames = {
  /** Deletes temporary files whose `expires_at` has passed (storage bytes and their record). */
  purgeExpiredFiles: 'files.purge-expired',
} as const;

export type JobName = (typeof jobNames)[keyof typeof jobNames];

export type JobPayloads = {
  'files.purge-expired': { limit?: number };
};

/** Recurring jobs, run by worker processes (cron syntax, UTC). */
export const jobSchedules: { name: JobName; cron: string; data: JobPayloads[JobName] }[] = [
  { name: jobNames.purgeExpiredFiles, cron: '*/15 * * * *', data: {} },
];
