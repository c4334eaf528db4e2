import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AltTextResult } from '../src/engines/types.ts';
import { detectImageType } from '../src/modules/generation/image-type.ts';
import {
  isWritableType,
  MetadataWriteError,
  writeAltMetadata,
} from '../src/modules/image-metadata/exiftool.ts';

/**
 * `altwise describe … --write-metadata <out-dir>` (issue 21, point 2; ADR 064): a copy of each
 * described image in `outDir`, named after the original, with its alt text, long description and
 * origin written into the file's XMP by ExifTool (the same writer as the API's downloads). The input
 * file is never changed: a copy that would land on it is refused.
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
    if (result.decorative || result.altText.trim() === '')
      return { error: 'decorative (alt=""): no alt text to write' };
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
      const written = await writeAltMetadata({ exiftool, tempDir: scratch }, bytes, type, {
        altText: result.altText,
        longDescription: result.longDescription,
        origin: result.origin ?? 'ai',
        engine: result.engine,
        model: result.model,
      });
      await writeFile(target, written);
      return { file: target };
    } catch (error) {
      if (error instanceof MetadataWriteError) return { error: error.message };
      return { error: (error as Error).message };
    }
  };
}
