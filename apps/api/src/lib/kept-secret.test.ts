import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keptSecret } from './kept-secret.ts';

let dir = '';
let made = 0;
const options = { minLength: 32, make: () => `secret-${++made}-${'x'.repeat(32)}` };

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'altwise-kept-secret-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a secret kept in DATA_DIR', () => {
  it('is made once, written owner-only, and read back on the next start', async () => {
    const first = await keptSecret(path.join(dir, 'data'), 'some-secret', options);
    const file = path.join(dir, 'data', 'some-secret');
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await keptSecret(path.join(dir, 'data'), 'some-secret', options)).toBe(first);
  });

  it('replaces a file too short to be a secret (an empty or truncated file)', async () => {
    await writeFile(path.join(dir, 'short'), 'abc\n');
    const secret = await keptSecret(dir, 'short', options);
    expect(secret).not.toBe('abc');
    expect((await readFile(path.join(dir, 'short'), 'utf8')).trim()).toBe(secret);
  });

  it('gives two processes starting at once the same secret (the first write wins)', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => keptSecret(dir, 'raced', options)));
    expect(new Set([a, b, c]).size).toBe(1);
    expect((await readFile(path.join(dir, 'raced'), 'utf8')).trim()).toBe(a);
  });
});
