import { existsSync } from 'node:fs';
import { installDebianPackages } from './system-packages.ts';

/**
 * Makes sure Debian's ExifTool (libimage-exiftool-perl) is there for the tests that write alt text
 * into image files and read it back (ADR 064), installing it first when missing.
 */
export async function ensureExiftool(): Promise<void> {
  const path = '/usr/bin/exiftool';
  if (!existsSync(path)) {
    await installDebianPackages(['libimage-exiftool-perl'], 'ExifTool for the image-metadata tests');
  }
  if (!existsSync(path)) throw new Error(`ExifTool is still missing at ${path} after installing it.`);
}
