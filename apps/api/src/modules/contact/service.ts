import type { ContactRequest, ContactResponse } from '@altwise/contracts/contact';
import { messages } from '@altwise/contracts/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { MailService } from '../mail/service.ts';
import { contactMessageMail } from '../mail/templates.ts';
import { insertContactMessage, linkContactMail } from './repository.ts';

export type ContactService = ReturnType<typeof createContactService>;

/**
 * The contact form. The message is stored, and the mail to the support address queued, in one
 * transaction; the `mail.send` job delivers it after commit and retries while the mail server is
 * down, so an answer of success means the message is kept whatever happens to the mail.
 */
export function createContactService(deps: {
  db: Database;
  mail: MailService;
  supportEmail: string;
  logger: FastifyBaseLogger;
}) {
  const { db, mail, supportEmail, logger } = deps;

  return {
    async sendContactMessage(input: ContactRequest): Promise<ContactResponse> {
      const stored = await db.transaction(async (tx) => {
        const row = await insertContactMessage(tx, input);
        const mailId = await mail.queueMail(tx, contactMessageMail(input, supportEmail));
        await linkContactMail(tx, row.id, mailId);
        return row;
      });
      logger.info({ contactMessageId: stored.id }, 'contact message stored and mail queued');
      return { success: true, message: messages.contact.success };
    },
  };
}
