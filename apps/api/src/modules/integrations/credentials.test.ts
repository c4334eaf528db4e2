import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCredentialBox, resolveIntegrationsSecret } from './credentials.ts';

describe('sealed application passwords', () => {
  const box = createCredentialBox('a'.repeat(48));
  const id = '3f2b8c1e-5d4a-4e7b-9c21-7a1d9e0b6f42';

  it('opens what it sealed, and never stores the password in the clear', () => {
    const sealed = box.seal('abcd EFGH ijkl MNOP', id);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('abcd');
    expect(box.open(sealed, id)).toBe('abcd EFGH ijkl MNOP');
    // A fresh nonce each time.
    expect(box.seal('abcd EFGH ijkl MNOP', id)).not.toBe(sealed);
  });

  it('refuses a ciphertext copied to another integration, tampered with, or sealed under another key', () => {
    const sealed = box.seal('secret', id);
    expect(() => box.open(sealed, '00000000-0000-4000-8000-000000000000')).toThrow();
    const [version, nonce, tag, body] = sealed.split('.');
    const flipped = `${body?.[0] === 'A' ? 'B' : 'A'}${body?.slice(1)}`;
    expect(() => box.open([version, nonce, tag, flipped].join('.'), id)).toThrow();
    expect(() => createCredentialBox('b'.repeat(48)).open(sealed, id)).toThrow();
  });

  it('keeps a generated secret in DATA_DIR when none is configured, and reuses it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'altwise-secret-'));
    try {
      const first = await resolveIntegrationsSecret(undefined, dir);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(await resolveIntegrationsSecret(undefined, dir)).toBe(first);
      expect((await readFile(path.join(dir, 'integrations-secret'), 'utf8')).trim()).toBe(first);
      expect(await resolveIntegrationsSecret('c'.repeat(40), dir)).toBe('c'.repeat(40));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
