import nodemailer from 'nodemailer';
import type { MailTransport } from './mail-transport.ts';

/** Real delivery through an SMTP server (nodemailer), e.g. smtp://user:pass@smtp.example:587. */
export function createSmtpTransport(options: { url: string; from: string }): MailTransport {
  const transporter = nodemailer.createTransport(options.url);
  return {
    driver: 'smtp',
    async deliver(mail) {
      await transporter.sendMail({
        from: options.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        headers: { 'X-Altwise-Mail-Id': mail.id },
      });
    },
    async close() {
      transporter.close();
    },
  };
}
