/** One email ready to leave. */
export type OutgoingMail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string | null;
};

/**
 * Where mail goes (docs/contributing.md, habit 7): the embedded outbox by default, SMTP when SMTP_URL is set.
 * Every message is already stored in `mail_messages` before a transport sees it.
 */
export interface MailTransport {
  readonly driver: 'smtp' | 'outbox';
  deliver(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}
