import type { FilesService } from '../modules/files/service.ts';
import type { MailService } from '../modules/mail/service.ts';
import { purgeExpiredFilesHandler } from './handlers/purge-expired-files.ts';
import { sendMailHandler } from './handlers/send-mail.ts';
import { jobNames, jobSchedules } from './names.ts';
import type { JobQueue, WorkOptions } from './queue.ts';

/** Starts every job handler and recurring schedule; called only where the role includes workers. */
export async function startWorkers(
  queue: JobQueue,
  deps: { files: FilesService; mail: MailService },
  options: WorkOptions = {},
): Promise<void> {
  await queue.work(jobNames.purgeExpiredFiles, purgeExpiredFilesHandler(deps.files), options);
  await queue.work(jobNames.sendMail, sendMailHandler(deps.mail), options);
  for (const schedule of jobSchedules) {
    await queue.schedule(schedule.name, schedule.cron, schedule.data);
  }
}
