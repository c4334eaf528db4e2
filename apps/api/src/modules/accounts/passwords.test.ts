import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('argon2id passwords', () => {
  it('stores a PHC string with parameters and a random salt, and verifies only the right password', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery staple', first)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', first)).toBe(false);
    expect(await verifyPassword('', first)).toBe(false);
  });

  it('verifies hashes made with other parameters and refuses malformed ones', async () => {
    const light = await hashPassword('pässwörd ✓', { memory: 8192, passes: 1, parallelism: 1 });
    expect(light).toContain('$m=8192,t=1,p=1$');
    expect(await verifyPassword('pässwörd ✓', light)).toBe(true);
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', '$2b$12$abcdefghijklmnopqrstuv')).toBe(false);
  });
});
