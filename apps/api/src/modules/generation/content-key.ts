import { createHash } from 'node:crypto';
import type { PageContext } from '@altwise/contracts/page-context';

/**
 * The key of a content result (ADR 073): which bytes, and what about their place changes the alt.
 * Pure, so the runner, the tests and a later source compute the same key.
 */

/** Hex SHA-256 of an image's bytes: one changed byte is another image. */
export function contentSha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The page-context fields that change what the alt must say (ADR 073): the image's role, where and
 * with what words it links, its caption, the picture it is part of, its place in a row, whether it
 * is the site's logo. Left out on purpose: the file name, page URL and title, heading, surrounding
 * text, existing alt and site name, which differ between two copies of one picture in one role
 * (two uploads, two URLs, two pages) without changing what it shows or does.
 */
const keyedFields = ['role', 'linkTarget', 'linkText', 'caption', 'partOfPicture', 'siteLogo'] as const;

/** Same text: case, spacing and surrounding white space do not make another context. */
const norm = (text: string) => text.normalize('NFC').replace(/\s+/gu, ' ').trim().toLowerCase();

export function contentContextKey(input: {
  context: PageContext | null | undefined;
  language?: string | null;
  prompt?: string | null;
  keywords?: string[] | null;
}): string {
  const context = input.context ?? {};
  const key: Record<string, unknown> = {};
  for (const field of keyedFields) {
    const value = context[field];
    if (typeof value === 'string' ? norm(value) !== '' : value !== undefined && value !== false)
      key[field] = typeof value === 'string' ? norm(value) : value;
  }
  if (context.imageRow) key.rowPosition = `${context.imageRow.position}/${context.imageRow.files.length}`;
  if (input.language) key.language = input.language.toLowerCase();
  if (input.prompt && norm(input.prompt)) key.prompt = norm(input.prompt);
  const keywords = [...new Set((input.keywords ?? []).map(norm).filter(Boolean))].sort();
  if (keywords.length > 0) key.keywords = keywords;
  // Fields in a fixed order, so the same context always gives the same string.
  return createHash('sha256')
    .update(JSON.stringify(key, Object.keys(key).sort()))
    .digest('hex')
    .slice(0, 32);
}
