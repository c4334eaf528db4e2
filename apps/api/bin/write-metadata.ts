import { lstat, mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AltTextResult } from '../src/engines/types.ts';
import { detectImageType } from '../src/modules/generation/image-type.ts';
import {
  isWritableType,
  MetadataWriteError,
  writeAltMetadata,
} from '../src/modules/image-metadata/exiftool.ts';
import { judgePublishable, unpublishableMessages } from '../src/rules/publishable.ts';

/**
 * `altwise describe … --write-metadata <out-dir>` (ADR 064): a copy of each
 * described image in `outDir`, named after the original, with its alt text, long description and
 * origin written into the file's XMP by ExifTool (the same writer as the API's downloads). The input
 * file is never changed: a copy that would land on it is refused. Nothing is written through a link:
 * a name in `outDir` that is a symbolic link is refused, and each copy is created exclusively under a
 * temporary name, then renamed into place (ADR 071).
 */
export function createMetadataWriter(outDir: string, exiftool: string) {
  const used = new Set<string>();
  const scratch = path.join(tmpdir(), 'altwise-cli-metadata');
  let ready: Promise<string> | undefined;

  /** A file name in `outDir` not used yet in this run: `name.ext`, then `name-2.ext`, … */
  function claimName(image: string, extension: string): string {
    const base = path.basename(image.split(/[?#]/u)[0] ?? image).replace(/\.[a-z0-9]{2,5}$/iu, '');
    const stem = base.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[-.]+|[-.]+$/gu, '') || 'image';
    for (let n = 1; ; n++) {
      const name = `${stem}${n === 1 ? '' : `-${n}`}.${extension}`;
      if (!used.has(name)) {
        used.add(name);
        return name;
      }
    }
  }

  /** Writes the copy; answers what happened in words (a path, or why not), never throws. */
  return async function write(
    image: string,
    sourcePath: string | null,
    bytes: Uint8Array,
    result: AltTextResult,
  ): Promise<{ file?: string; error?: string }> {
    if (result.decorative) return { error: 'decorative (alt=""): no alt text to write' };
    const type = detectImageType(bytes);
    if (!isWritableType(type))
      return { error: `ExifTool writes JPEG, PNG, WebP and GIF here, not ${type ?? 'this file'}` };
    try {
      ready ??= mkdir(outDir, { recursive: true }).then(() => realpath(outDir));
      const dir = await ready;
      const name = claimName(image, type === 'image/jpeg' ? 'jpg' : type.slice('image/'.length));
      const target = path.join(dir, name);
      if (sourcePath && (await realpath(sourcePath).catch(() => sourcePath)) === target)
        return { error: `the copy would overwrite the original ${sourcePath}; choose another folder` };
      // Only a publishable alt goes into a file (rules/publishable.ts, ADR 067): never filler.
      const verdict = result.needsWords
        ? {
            publishable: false as const,
            message: result.needsWordsReason ?? unpublishableMessages['needs-words'],
          }
        : judgePublishable({
            altText: result.altText,
            decorative: false,
            origin: result.origin ?? 'ai',
            reasons: result.reasons,
            context: { fileName: path.basename(sourcePath ?? image) },
          });
      if (!verdict.publishable) return { error: `needs your words: ${verdict.message}` };
      const written = await writeAltMetadata({ exiftool, tempDir: scratch }, bytes, type, {
        altText: result.altText,
        longDescription: result.longDescription,
        origin: result.origin ?? 'ai',
        engine: result.engine,
        model: result.model,
      });
      const existing = await lstat(target).catch(() => undefined);
      if (existing?.isSymbolicLink())
        return { error: `${target} is a symbolic link; altwise does not write through links` };
      if (existing && !existing.isFile())
        return { error: `${target} exists and is not a file; choose another folder` };
      const temporary = path.join(dir, `.${name}.altwise-${process.pid}.tmp`);
      try {
        await writeFile(temporary, written, { flag: 'wx' });
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => undefined);
        throw error;
      }
      return { file: target };
    } catch (error) {
      if (error instanceof MetadataWriteError) return { error: error.message };
      return { error: (error as Error).message };
    }
  };
}
