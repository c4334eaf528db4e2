import { existsSync } from 'node:fs';
import { capture, isRoot } from './run.ts';

let aptUpdated = false;

/**
 * Installs Debian packages when the machine lacks them. Only root can; anyone else gets the exact
 * command to run, so a missing dependency is never silently skipped.
 */
export async function installDebianPackages(packages: string[], why: string): Promise<void> {
  const command = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  if (!isRoot() || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`${why} is missing. Install it with:\n  sudo sh -c '${command}'`);
  }
  console.log(`[setup] ${why} is missing; installing Debian packages: ${packages.join(' ')}`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    await capture('apt-get', ['update'], { env });
    aptUpdated = true;
  }
  await capture('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env });
}
