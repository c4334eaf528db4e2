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

/** How many images the local test page shows (the library journey scrapes it). */
export const TEST_PAGE_IMAGE_COUNT = 30;

/**
 * A small web page on 127.0.0.1 with 30 distinct PNG images (made with sharp, each its own colour;
 * every third has an alt text), for the scrape → generate → library journey. The product reaches it
 * only because the e2e server runs with FETCH_ALLOW_PRIVATE=true.
 */
export async function startImagePage() {
  const { default: sharp } = await import('sharp');
  const images = new Map<string, Buffer>();
  for (let index = 1; index <= TEST_PAGE_IMAGE_COUNT; index += 1) {
    // Two colours and a shape, so the engine sees a picture rather than a flat (decorative) swatch.
    const hue = (index * 37) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120">
      <rect width="160" height="120" fill="hsl(${hue},65%,55%)"/>
      <rect y="70" width="160" height="50" fill="hsl(${(hue + 150) % 360},55%,35%)"/>
      <circle cx="${40 + ((index * 13) % 80)}" cy="50" r="${14 + (index % 10)}" fill="hsl(${(hue + 60) % 360},80%,85%)"/>
    </svg>`;
    images.set(`/img/photo-${index}.png`, await sharp(Buffer.from(svg)).png().toBuffer());
  }
  const tags = [...images.keys()].map((path, index) => {
    const alt = index % 3 === 0 ? ` alt="Colour swatch ${index + 1}"` : '';
    return `<figure><img src="${path}"${alt} width="160" height="120"><figcaption>Swatch ${index + 1}</figcaption></figure>`;
  });
  const html = `<!doctype html><html lang="en"><head><title>Altwise test gallery</title></head><body><h1>Colour swatches</h1>${tags.join('')}</body></html>`;
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const image = images.get(path);
    if (image) {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length });
      response.end(image);
    } else if (path === '/' || path === '/gallery.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/gallery.html`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
