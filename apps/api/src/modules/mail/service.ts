import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client.ts';
import type { MailMessage } from '../../db/tables/mail-messages.ts';
import { jobNames } from '../../jobs/names.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { MailTransport } from '../../mail/mail-transport.ts';
import {
  findMailMessage,
  insertMailMessage,
  listRecentMail,
  markMailFailed,
  markMailSent,
} from './repository.ts';

export type MailDraft = {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where replies go instead of MAIL_FROM (the sender of a contact message). */
  replyTo?: string;
};

export type MailService = ReturnType<typeof createMailService>;

/**
 * Mail is stored first, then sent by the `mail.send` job (retried by the queue when the SMTP server
 * is down). Queued inside the caller's transaction: a rolled-back registration sends nothing.
 */
export function createMailService(deps: {
  db: Database;
  queue: JobQueue;
  transport: MailTransport;
  logger: FastifyBaseLogger;
}) {
  const { db, queue, transport, logger } = deps;

  return {
    transportDriver: transport.driver,

    async queueMail(tx: Transaction, draft: MailDraft): Promise<string> {
      const row = await insertMailMessage(tx, draft);
      await queue.send(jobNames.sendMail, { mailId: row.id }, { tx });
      return row.id;
    },

    /** Called by the job; sending an already sent message again does nothing. */
    async deliverMail(mailId: string): Promise<void> {
      const mail = await findMailMessage(db, mailId);
      if (!mail) {
        logger.warn({ mailId }, 'mail to send no longer exists');
        return;
      }
      if (mail.status === 'sent') return;
      try {
        await transport.deliver(mail);
      } catch (error) {
        await markMailFailed(db, mail.id, transport.driver, (error as Error).message.slice(0, 1000));
        throw error;
      }
      await markMailSent(db, mail.id, transport.driver);
    },

    listRecentMail(limit = 50): Promise<MailMessage[]> {
      return listRecentMail(db, limit);
    },

    close: () => transport.close(),
  };
}
