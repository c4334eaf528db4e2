import { existsSync } from 'node:fs';
import { installDebianPackages } from './system-packages.ts';

/** Returns the path of Debian's Chromium, installing it first when missing. */
export async function ensureChromium(): Promise<string> {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) {
    await installDebianPackages(['chromium'], `Chromium (${path}) for the browser tests`);
  }
  if (!existsSync(path)) throw new Error(`Chromium is still missing at ${path} after installing it.`);
  return path;
}
