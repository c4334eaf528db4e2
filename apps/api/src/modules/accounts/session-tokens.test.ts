import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createSessionTokens, resolveJwtSecret } from './session-tokens.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('session tokens', () => {
  it('round-trips the user and session version, and refuses other secrets and expired tokens', async () => {
    const tokens = createSessionTokens('s'.repeat(32), '7d');
    const token = await tokens.issue({ userId: 'u-1', sessionVersion: 3 });
    expect(await tokens.verify(token)).toEqual({ userId: 'u-1', sessionVersion: 3 });
    expect(await createSessionTokens('t'.repeat(32), '7d').verify(token)).toBeNull();
    expect(await tokens.verify(`${token}x`)).toBeNull();
    expect(await tokens.verify('')).toBeNull();
    const shortLived = createSessionTokens('s'.repeat(32), '1s');
    const soonExpired = await shortLived.issue({ userId: 'u-1', sessionVersion: 1 });
    const neverVerified = await shortLived.issue({ userId: 'u-2', sessionVersion: 1 });
    // Verified once, so remembered: the remembered answer ends at `exp` too.
    expect(await shortLived.verify(soonExpired)).toEqual({ userId: 'u-1', sessionVersion: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await shortLived.verify(soonExpired)).toBeNull();
    expect(await shortLived.verify(soonExpired)).toBeNull();
    expect(await shortLived.verify(neverVerified)).toBeNull();
  });

  it('remembers only tokens that passed: a refused one stays refused, a near copy is checked in full', async () => {
    const tokens = createSessionTokens('s'.repeat(32), '7d');
    const token = await tokens.issue({ userId: 'u-1', sessionVersion: 3 });
    const forged = await createSessionTokens('t'.repeat(32), '7d').issue({
      userId: 'u-1',
      sessionVersion: 4,
    });
    expect(await tokens.verify(forged)).toBeNull();
    expect(await tokens.verify(forged)).toBeNull();
    expect(await tokens.verify(token)).toEqual({ userId: 'u-1', sessionVersion: 3 });
    const [header, payload, signature = ''] = token.split('.');
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toBeNull();
    expect(await tokens.verify(` ${token}`)).toBeNull();
    expect(await tokens.verify(token)).toEqual({ userId: 'u-1', sessionVersion: 3 });
  });

  it('uses JWT_SECRET when set, otherwise makes one secret per DATA_DIR and keeps it (mode 600)', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-secret-'));
    dirs.push(dataDir);
    const configured = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'c'.repeat(40) });
    expect(await resolveJwtSecret(configured)).toBe('c'.repeat(40));

    const generated = loadConfig({ DATA_DIR: dataDir });
    const first = await resolveJwtSecret(generated);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(await resolveJwtSecret(generated)).toBe(first);
    expect((await readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).trim()).toBe(first);
    expect((await stat(path.join(dataDir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
  });
});
