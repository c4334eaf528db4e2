import { readFile, stat } from 'node:fs/promises';
import { readEmbeddedText, withEmbeddedAlt, withEmbeddedEvidence } from '../src/engines/embedded-text.ts';
import { EngineInputError } from '../src/engines/errors.ts';
import type { AltTextEngine, AltTextResult, DescribeOptions, PageContext } from '../src/engines/types.ts';

/**
 * Describing one image's bytes as `altwise describe` does, for the CLI and the MCP server: the alt
 * text embedded in the file is the human's alt (ADR 055), and the language asked for wins over the
 * language of the image's place (ADR 071).
 */
export async function describeImageBytes(
  engine: AltTextEngine,
  bytes: Uint8Array,
  describe: DescribeOptions,
  pageContext: PageContext,
): Promise<{ result: AltTextResult; context: PageContext }> {
  const embedded = await readEmbeddedText(bytes);
  const context = withEmbeddedAlt(pageContext, embedded);
  const language = describe.language ?? context.language;
  const result = withEmbeddedEvidence(
    await engine.describeImage(bytes, { ...describe, ...(language ? { language } : {}), context }),
    context,
    embedded,
  );
  return { result, context };
}

/** An image file's bytes; too large a file is refused before it is read into memory. */
export async function readImageFile(path: string, maxBytes: number): Promise<Uint8Array> {
  const info = await stat(path);
  if (info.isDirectory()) throw new EngineInputError('NOT_AN_IMAGE', 'This is a folder, not an image.');
  if (info.size > maxBytes) throw new EngineInputError('TOO_LARGE', 'The image is too large.');
  return readFile(path);
}

/** Why an image could not be described, in words (a missing or unreadable file said plainly). */
export function describeErrorMessage(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'The file does not exist.';
  if (code === 'EACCES' || code === 'EPERM') return 'The file cannot be read (permission denied).';
  return error instanceof Error ? error.message : String(error);
}
