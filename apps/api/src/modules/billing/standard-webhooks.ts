import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks (standardwebhooks.com), the scheme Dodo Payments signs with: headers
 * `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature` ("v1,<base64 HMAC-SHA256
 * of `${id}.${timestamp}.${body}`>", several space-separated allowed). A secret may carry the
 * `whsec_` prefix; the rest is base64 key bytes. Any other string is used as raw UTF-8 key bytes.
 * Payments verify incoming webhooks with it; outgoing webhooks (modules/webhooks) sign with it.
 */

/** Timestamps further than this from now are refused (replay window). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export function createWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function keyBytes(secret: string): Buffer {
  return secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret);
}

function sign(secret: string, id: string, timestamp: string, body: string): string {
  return createHmac('sha256', keyBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/**
 * The three headers for `body`, as a provider sends them: one `v1,` signature per secret, space
 * separated (during a secret rotation's overlap, the new secret's and the old one's).
 */
export function signWebhook(
  secret: string | readonly string[],
  id: string,
  body: string,
  now: Date = new Date(),
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((key) => `v1,${sign(key, id, timestamp, body)}`).join(' '),
  };
}

const header = (headers: WebhookHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Checks the signature and the timestamp; returns the event id. Throws WebhookVerificationError. */
export function verifyWebhook(
  secret: string,
  body: string,
  headers: WebhookHeaders,
  now: Date = new Date(),
): string {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('Missing webhook signature headers');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('Invalid webhook timestamp');
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS)
    throw new WebhookVerificationError('Webhook timestamp outside the tolerance window');
  const expected = Buffer.from(sign(secret, id, timestamp, body));
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return id;
  }
  throw new WebhookVerificationError('Invalid webhook signature');
}
