import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitFor } from './helper.ts';

export type TestSmtpServer = {
  /** SMTP_URL for the app under test. */
  url: string;
  /** Every message received, parsed, in arrival order. */
  messages: ParsedMail[];
  /** Resolves with the `nth` (1-based) message to `to` whose subject matches, once it has arrived. */
  waitForMail(to: string, subject?: RegExp, nth?: number): Promise<ParsedMail>;
  close(): Promise<void>;
};

export const recipientsOf = (mail: ParsedMail): string[] =>
  (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) =>
    a.value.map((v) => (v.address ?? '').toLowerCase()),
  );

/** A real SMTP server on 127.0.0.1 (smtp-server), keeping what it receives (parsed by mailparser). */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail(to, subject, nth = 1) {
      return waitFor(async () => {
        const matching = messages.filter(
          (m) => recipientsOf(m).includes(to.toLowerCase()) && (!subject || subject.test(m.subject ?? '')),
        );
        return matching[nth - 1];
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}\\S+`).exec(mail.text ?? '');
  if (!match) throw new Error(`No link starting with ${prefix} in:\n${mail.text}`);
  return match[0];
}
