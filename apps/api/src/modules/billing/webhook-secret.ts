import { randomBytes } from 'node:crypto';
import { keptSecret } from '../../lib/kept-secret.ts';

/**
 * The sandbox's webhook signing secret: PAYMENT_WEBHOOK_SECRET when set, otherwise a random one made
 * once and kept in `${DATA_DIR}/payment-webhook-secret` (like the session secret). The sandbox both
 * signs and verifies in this process, so nothing outside ever needs to know it.
 */
export async function resolveSandboxWebhookSecret(
  configured: string | undefined,
  dataDir: string,
): Promise<string> {
  if (configured) return configured;
  return keptSecret(dataDir, 'payment-webhook-secret', {
    minLength: 24,
    make: () => `whsec_${randomBytes(32).toString('base64')}`,
  });
}
