import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { keptSecret } from '../../lib/kept-secret.ts';

/**
 * Application passwords at rest (ADR 056): AES-256-GCM with a key from INTEGRATIONS_SECRET (or a
 * random one kept in `${DATA_DIR}/integrations-secret`), a fresh 12-byte nonce per value, and the
 * integration's id as associated data, so a ciphertext copied to another row does not open.
 * Stored as `v1.<nonce>.<tag>.<ciphertext>` in base64url.
 */
export type CredentialBox = {
  seal: (plain: string, integrationId: string) => string;
  open: (sealed: string, integrationId: string) => string;
};

export function createCredentialBox(secret: string): CredentialBox {
  // Any long secret becomes a 32-byte key; the secret itself is never stored next to the data.
  const key = createHash('sha256').update(`altwise-integrations:${secret}`).digest();
  return {
    seal(plain, integrationId) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(integrationId));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', nonce, cipher.getAuthTag(), body]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, integrationId) {
      const [version, nonce, tag, body] = sealed.split('.');
      if (version !== 'v1' || !nonce || !tag || body === undefined)
        throw new Error('Unknown credential format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAAD(Buffer.from(integrationId));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/**
 * INTEGRATIONS_SECRET when set; otherwise a random secret made once and kept in
 * `${dataDir}/integrations-secret` (like the session secret), so a restart can still open what
 * was stored. Losing it means reconnecting each site.
 */
export async function resolveIntegrationsSecret(
  configured: string | undefined,
  dataDir: string,
): Promise<string> {
  if (configured) return configured;
  return keptSecret(dataDir, 'integrations-secret', {
    minLength: 32,
    make: () => randomBytes(48).toString('base64url'),
  });
}
