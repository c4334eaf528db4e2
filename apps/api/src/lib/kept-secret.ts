import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A secret made once and kept in `${dataDir}/${fileName}` (mode 0600), for a setting that may be left
 * unset outside production: a restart reads the same secret back. A file shorter than `minLength` is
 * replaced; when two processes make it at once, the one that wrote first wins and both use its secret.
 */
export async function keptSecret(
  dataDir: string,
  fileName: string,
  options: { minLength: number; make: () => string },
): Promise<string> {
  const file = path.join(dataDir, fileName);
  const existing = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (existing.length >= options.minLength) return existing;
  await mkdir(dataDir, { recursive: true });
  const secret = options.make();
  try {
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: existing ? 'w' : 'wx' });
    return secret;
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(file, 'utf8')).trim();
    throw error;
  }
}
