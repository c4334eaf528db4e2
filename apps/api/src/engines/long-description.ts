import { MAX_LONG_DESCRIPTION_CHARS } from '@altwise/contracts/generation';

/**
 * A long description as an engine hands it on (ADR 050): whitespace collapsed, null when empty, and
 * at most MAX_LONG_DESCRIPTION_CHARS. A longer one is cut after the last whole entry that fits (a
 * sentence or a `;`-separated label and value), never inside a number, and ends with "…" so a reader
 * knows there was more.
 */
export function fitLongDescription(text: string | null | undefined): string | null {
  const clean = text?.replace(/\s+/g, ' ').trim() ?? '';
  if (!clean) return null;
  if (clean.length <= MAX_LONG_DESCRIPTION_CHARS) return clean;
  const room = clean.slice(0, MAX_LONG_DESCRIPTION_CHARS - 1);
  const boundary = Math.max(room.lastIndexOf('. '), room.lastIndexOf('; '), room.lastIndexOf(', '));
  const cut =
    boundary > MAX_LONG_DESCRIPTION_CHARS / 2 ? room.slice(0, boundary) : room.replace(/\s+\S*$/, '');
  return `${cut.replace(/[\s.,;:]+$/, '')}…`;
}
