/**
 * `npm run serve` (and the second half of `npm start`): the built product in production mode on one
 * machine. A deployment sets JWT_SECRET, and the server refuses to start in production without one;
 * for this quick start, a random secret is made once and kept in `${DATA_DIR}/jwt-secret` (mode 600,
 * the same file development mode uses), so sessions survive restarts and nobody has to configure
 * anything. Then the server itself starts in this process.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

process.env.NODE_ENV ||= 'production';
if (!process.env.JWT_SECRET) {
  const dataDir = resolve(process.env.DATA_DIR || './data');
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600 });
  }
  process.env.JWT_SECRET = readFileSync(file, 'utf8').trim();
  console.log(`Using the session secret kept in ${file}; set JWT_SECRET for a real deployment.`);
}
await import('../apps/api/src/server.ts');
