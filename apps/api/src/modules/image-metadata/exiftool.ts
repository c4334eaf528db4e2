import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AltOrigin } from '@altwise/contracts/provenance';

/**
 * Writes an image's alt text into a copy of the file with ExifTool (ADR 064): IPTC "Alt Text
 * (Accessibility)" (XMP `Iptc4xmpCore:AltTextAccessibility`), for a long description "Extended
 * Description (Accessibility)" (`Iptc4xmpCore:ExtDescrAccessibility`), and beside them in the
 * `altwise` XMP namespace where the alt text came from (ADR 057). ExifTool runs as a child process
 * with an argument array (never a shell), a time limit and small output buffers; the original bytes
 * are never touched: a copy is written to a scratch folder and ExifTool rewrites that copy.
 */

/** The formats ExifTool writes XMP into, by their real type (magic numbers, not names). */
export const writableTypes = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
} as const;
export type WritableType = keyof typeof writableTypes;

export const isWritableType = (type: string | null): type is WritableType =>
  type !== null && Object.hasOwn(writableTypes, type);

/** What goes into the file. */
export type AltMetadata = {
  altText: string;
  longDescription?: string | null;
  origin: AltOrigin;
  /** The engine and model that wrote it, for an `ai…` origin. */
  engine?: string | null;
  model?: string | null;
};

/** A file ExifTool could not write, in words for the manifest; never a server error. */
export class MetadataWriteError extends Error {}

/** The ExifTool configuration that declares the `altwise` namespace (shipped beside this file). */
export const exiftoolConfigPath = path.join(import.meta.dirname, 'altwise.exiftool-config');

/** One ExifTool call on a file: at most this long, then it is killed. */
const EXIFTOOL_TIMEOUT_MS = 20_000;
/** ExifTool prints little (-q): more than this on stdout or stderr is cut off. */
const EXIFTOOL_MAX_OUTPUT = 256 * 1024;

/** Control characters other than tab and newline do not belong in metadata text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const cleanText = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/gu, '').trim();

/** `ai` with its engine and model ("offline/altwise-offline-1"); empty for a person's or the file's text. */
function engineOf(metadata: AltMetadata): string {
  if (!metadata.origin.startsWith('ai') || !metadata.engine || metadata.engine === 'manual') return '';
  return metadata.model ? `${metadata.engine}/${metadata.model}` : metadata.engine;
}

/** ExifTool's arguments that write `metadata` (each one argument: no shell ever parses them). */
export function metadataArguments(metadata: AltMetadata): string[] {
  const longDescription = cleanText(metadata.longDescription ?? '');
  const engine = engineOf(metadata);
  return [
    `-XMP-iptcCore:AltTextAccessibility=${cleanText(metadata.altText)}`,
    // Empty removes a description the file carried that no longer goes with this alt text.
    `-XMP-iptcCore:ExtDescrAccessibility=${longDescription}`,
    `-XMP-altwise:AltTextOrigin=${metadata.origin}`,
    `-XMP-altwise:AltTextEngine=${engine}`,
  ];
}

function run(exiftool: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      exiftool,
      args,
      {
        timeout: EXIFTOOL_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: EXIFTOOL_MAX_OUTPUT,
        encoding: 'utf8',
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error) reject(Object.assign(error, { stdout, stderr }));
        else resolve({ stdout, stderr });
      },
    );
  });
}

/** Whether `exiftool` runs here (answers its version), checked once per path. */
const availability = new Map<string, Promise<boolean>>();
export function exiftoolAvailable(exiftool: string): Promise<boolean> {
  let known = availability.get(exiftool);
  if (!known) {
    known = run(exiftool, ['-ver']).then(
      ({ stdout }) => /^\d+\.\d+/.test(stdout.trim()),
      () => false,
    );
    availability.set(exiftool, known);
  }
  return known;
}

/** ExifTool's first error line, without the scratch path it names. */
function reasonOf(error: unknown): string {
  const stderr = (error as { stderr?: string }).stderr ?? '';
  if ((error as { killed?: boolean }).killed) return 'ExifTool took too long on this file.';
  const line = stderr
    .split('\n')
    .map((text) => text.replace(/ - \/\S+$/u, '').trim())
    .find((text) => text.length > 0);
  return line
    ? `ExifTool could not write this file: ${line.slice(0, 200)}`
    : 'ExifTool could not write this file.';
}

/**
 * A copy of `bytes` (of the real type `type`) with `metadata` written in; throws MetadataWriteError,
 * in words, when ExifTool cannot write it (a damaged file, a time-out).
 */
export async function writeAltMetadata(
  options: { exiftool: string; tempDir: string },
  bytes: Uint8Array,
  type: WritableType,
  metadata: AltMetadata,
): Promise<Buffer> {
  await mkdir(options.tempDir, { recursive: true });
  const dir = await mkdtemp(path.join(options.tempDir, 'exif-'));
  try {
    // The copy is written in place: ExifTool 12.57 refuses `-o` for WebP ("Can't write RIFF files")
    // but rewrites a WebP file itself; either way the caller's bytes stay as they were.
    const file = path.join(dir, `image.${writableTypes[type]}`);
    await writeFile(file, bytes);
    try {
      await run(options.exiftool, [
        '-config',
        exiftoolConfigPath,
        '-q',
        '-charset',
        'utf8',
        '-overwrite_original',
        ...metadataArguments(metadata),
        file,
      ]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new MetadataWriteError('ExifTool is not installed on this server.');
      throw new MetadataWriteError(reasonOf(error));
    }
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
