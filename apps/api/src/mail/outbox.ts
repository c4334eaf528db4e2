import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport } from './mail-transport.ts';

/**
 * The embedded default: the message stays in the `mail_messages` table and its full text, links
 * included, goes to the server log at info level, so someone running `npm start` without a mail
 * server can still confirm an account. In development /dev/outbox lists the stored messages.
 */
export function createOutboxTransport(logger: FastifyBaseLogger): MailTransport {
  return {
    driver: 'outbox',
    async deliver(mail) {
      logger.info(
        { mail: { id: mail.id, to: mail.to, subject: mail.subject } },
        `Outbox (no SMTP_URL set), mail to ${mail.to}: ${mail.subject}\n\n${mail.text}\n`,
      );
    },
    async close() {},
  };
}
