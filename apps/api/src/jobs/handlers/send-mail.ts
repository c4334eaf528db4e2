import type { MailService } from '../../modules/mail/service.ts';
import type { JobHandler } from '../queue.ts';

export function sendMailHandler(mail: MailService): JobHandler<'mail.send'> {
  return async (job) => {
    await mail.deliverMail(job.data.mailId);
  };
}
