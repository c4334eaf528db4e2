import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.ts';
import type { MailTransport } from './mail-transport.ts';
import { createOutboxTransport } from './outbox.ts';
import { createSmtpTransport } from './smtp.ts';

export function createMailTransport(config: AppConfig, logger: FastifyBaseLogger): MailTransport {
  return config.mail.smtpUrl
    ? createSmtpTransport({ url: config.mail.smtpUrl, from: config.mail.from })
    : createOutboxTransport(logger);
}
