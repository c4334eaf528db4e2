import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** What a journey reads from a delivered mail (written as JSON by the SMTP server below). */
export type DeliveredMail = { to: string[]; subject: string; text: string; receivedAt: number };

/**
 * A real SMTP server on 127.0.0.1 for the product's SMTP_URL. The global setup and the test files run
 * in different processes, so every delivered message is written as one JSON file into `dir`, which the
 * journeys read (see mailbox.ts).
 */
export async function startMailbox(dir: string) {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) =>
            a.value.map((v) => (v.address ?? '').toLowerCase()),
          );
          const delivered: DeliveredMail = {
            to,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            receivedAt: Date.now(),
          };
          count += 1;
          const name = `${String(count).padStart(5, '0')}.json`;
          // Written whole, then renamed, so a reader never sees half a message.
          writeFileSync(join(dir, `${name}.tmp`), JSON.stringify(delivered));
          renameSync(join(dir, `${name}.tmp`), join(dir, name));
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Google as far as our server can tell: an RS256 key pair made here, its public half served as a JWKS
 * (the product's GOOGLE_JWKS_URL); the journeys sign ID tokens with the private half.
 */
export async function startFakeGoogleKeys() {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'e2e-google-key';
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] });
  const server: Server = createServer((request, response) => {
    if (request.url === '/oauth2/v3/certs') {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' });
      response.end(jwks);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    clientId: 'altwise-e2e.apps.googleusercontent.com',
    kid,
    privateJwk: JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: 'RS256' }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
