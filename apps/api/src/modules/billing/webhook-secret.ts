import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

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
  const file = path.join(dataDir, 'payment-webhook-secret');
  const existing = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (existing.length >= 24) return existing;
  await mkdir(dataDir, { recursive: true });
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  try {
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: existing ? 'w' : 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(file, 'utf8')).trim();
    throw error;
  }
}
