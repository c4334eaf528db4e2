import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { type PageContext, pageContextSchema } from '@altwise/contracts/page-context';
import { z } from 'zod';

/**
 * What `altwise describe` was asked to describe: file and URL arguments, the images at the top level
 * of a folder argument, and the lines of JSON Lines manifests. Nothing here reads an image's pixels;
 * it only lists the work, in input order, with a stable id for every item.
 */

// Scrapers write "" or null for a field they did not find: both mean "not given", never an error.
const text = z
  .string()
  .nullish()
  .transform((value) => value?.trim() || undefined);

/** Keeps only the fields that were given, so they cannot blank out `--context-file`'s. */
const given = <T extends object>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null)) as {
    [K in keyof T]?: Exclude<T[K], undefined | null>;
  };

type TextKey = Exclude<keyof PageContext, 'role' | 'imageRow' | 'siteLogo'>;
const textKeys = pageContextSchema
  .keyof()
  .options.filter((key): key is TextKey => key !== 'role' && key !== 'imageRow' && key !== 'siteLogo');

/**
 * The page context a manifest line or `--context-file` may give: the contract's page context, each
 * text blank-tolerant; unknown keys are refused (typos).
 */
export const contextSchema = z
  .strictObject({
    ...(Object.fromEntries(textKeys.map((key) => [key, text])) as Record<TextKey, typeof text>),
    role: pageContextSchema.shape.role.unwrap().nullish(),
    imageRow: pageContextSchema.shape.imageRow.unwrap().nullish(),
    siteLogo: z.boolean().nullish(),
  })
  .transform(given);

export const manifestLineSchema = z.strictObject({
  id: z
    .union([z.string(), z.number().transform(String)])
    .nullish()
    .transform((value) => value?.trim() || undefined),
  image: z.string().trim().min(1, 'image must be a file path or an http(s) URL'),
  context: contextSchema.nullish(),
});

export type ImageSource = { type: 'file'; path: string } | { type: 'url'; url: string };

export type WorkItem =
  | { kind: 'image'; id: string; image: string; source: ImageSource; context: PageContext }
  | { kind: 'invalid'; id: string; image: string | null; error: string };

const imageExtensions = new Set([
  '.jpg',
  '.jpeg',
  '.jpe',
  '.png',
  '.gif',
  '.webp',
  '.avif',
  '.heic',
  '.heif',
  '.bmp',
  '.tif',
  '.tiff',
  '.svg',
]);

export const isUrl = (target: string) => /^https?:\/\//i.test(target);
const otherScheme = /^[a-z][a-z\d+.-]*:\/\//i;

/** A one-line summary of a zod error: `context.captoin: Unrecognized key` style. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** The first bytes of the common image formats (and SVG's opening tag). */
export function looksLikeImage(head: Uint8Array): boolean {
  const b = Buffer.from(head);
  const ascii = (start: number, end: number) => b.subarray(start, end).toString('latin1');
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return true; // JPEG
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return true;
  if (ascii(0, 4) === 'GIF8') return true;
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return true;
  if (ascii(0, 2) === 'BM' && b.length >= 10 && b.readUInt32LE(6) === 0) return true; // BMP, reserved = 0
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return true; // TIFF
  if (ascii(4, 8) === 'ftyp' && /^(avi[fs]|hei[cxms]|hev[cx]|mif1|msf1)$/.test(ascii(8, 12))) return true;
  const start = b
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return /^<(\?xml|svg|!--)/.test(start) && /<svg[\s>]/i.test(start);
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function imageItem(id: string, image: string, source: ImageSource, context: PageContext): WorkItem {
  const fileName = source.type === 'url' ? basename(new URL(source.url).pathname) : basename(source.path);
  return { kind: 'image', id, image, source, context: { ...(fileName ? { fileName } : {}), ...context } };
}

function fileOrUrlItem(id: string, image: string, path: string, context: PageContext): WorkItem {
  if (isUrl(image)) {
    try {
      return imageItem(id, image, { type: 'url', url: new URL(image).href }, context);
    } catch {
      return { kind: 'invalid', id, image, error: 'The URL is not valid.' };
    }
  }
  if (otherScheme.test(image)) {
    return { kind: 'invalid', id, image, error: 'Only http and https URLs can be fetched.' };
  }
  return imageItem(id, image, { type: 'file', path }, context);
}

const byName = new Intl.Collator('en', { numeric: true }).compare;

/**
 * The images at the top level of a folder, by name (img2 before img10). A file counts as an image by its
 * extension or, without one, by its first bytes; other files and sub-folders are skipped and reported.
 * Hidden files are ignored.
 */
async function* folderItems(
  folder: string,
  context: PageContext,
  skipped: (path: string, why: string) => void,
): AsyncGenerator<WorkItem> {
  const names = (await readdir(folder)).filter((name) => !name.startsWith('.')).sort(byName);
  for (const name of names) {
    const path = join(folder, name);
    const info = await stat(path).catch(() => undefined);
    if (!info) {
      skipped(path, 'cannot be read');
    } else if (info.isDirectory()) {
      skipped(path, 'a folder inside a folder; only the top level is read');
    } else if (!info.isFile()) {
      skipped(path, 'not a regular file');
    } else if (
      imageExtensions.has(extname(name).toLowerCase()) ||
      looksLikeImage(await readHead(path).catch(() => new Uint8Array()))
    ) {
      yield imageItem(path, path, { type: 'file', path }, context);
    } else {
      skipped(path, 'not an image');
    }
  }
}

/** Manifest lines in order; a line that is not valid JSON or not a valid item becomes an `invalid` item. */
async function* manifestItems(manifest: string, baseContext: PageContext): AsyncGenerator<WorkItem> {
  const lines = createInterface({ input: createReadStream(manifest, 'utf8'), crlfDelay: Infinity });
  const name = basename(manifest);
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (!line.trim()) continue;
    const where = `${name}:${lineNumber}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      yield { kind: 'invalid', id: where, image: null, error: 'The line is not valid JSON.' };
      continue;
    }
    const parsed = manifestLineSchema.safeParse(raw);
    if (!parsed.success) {
      const fields = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
      const given = typeof fields.id === 'string' || typeof fields.id === 'number' ? String(fields.id) : '';
      const id = given.trim() || where;
      const image = typeof fields.image === 'string' ? fields.image : null;
      yield {
        kind: 'invalid',
        id,
        image,
        error: `The line is not a valid item: ${describeIssues(parsed.error)}`,
      };
      continue;
    }
    const { id, image, context } = parsed.data;
    // Relative paths are relative to the manifest, so a manifest and its images can move together.
    const path = resolve(dirname(manifest), image);
    yield fileOrUrlItem(id ?? where, image, path, { ...baseContext, ...context });
  }
}

export interface InputPlan {
  targets: string[];
  manifests: string[];
  context: PageContext;
  skipped: (path: string, why: string) => void;
}

/** Every item to describe: the arguments first, in order (folders expanded), then each manifest's lines. */
export async function* listWork(plan: InputPlan): AsyncGenerator<WorkItem> {
  for (const target of plan.targets) {
    const info = isUrl(target) ? undefined : await stat(target).catch(() => undefined);
    if (info?.isDirectory()) yield* folderItems(target, plan.context, plan.skipped);
    else yield fileOrUrlItem(target, target, resolve(target), plan.context);
  }
  for (const manifest of plan.manifests) yield* manifestItems(manifest, plan.context);
}

export async function isFolder(path: string): Promise<boolean> {
  if (isUrl(path)) return false;
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
