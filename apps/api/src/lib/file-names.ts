/** The most characters (user-perceived, so an emoji is one) a shown file name keeps. */
export const MAX_FILE_NAME_LENGTH = 120;

/** The longest extension kept whole when a long name is shortened (`.jpeg`, `.webp`, `.tiff`). */
const MAX_KEPT_EXTENSION = 6;

/**
 * Control characters and the invisible marks that reorder text (bidi overrides, embeddings, isolates
 * and marks): `‮gnp.exe` would show as `exe.png`. Joiners stay, so emoji sequences keep their shape.
 */
const hiddenCharacters = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A file name as a person may be shown it: only its last path part (`../../etc/passwd.png` is
 * `passwd.png`), without control or bidi characters, spaces collapsed, NFC, at most
 * MAX_FILE_NAME_LENGTH characters with its extension kept when shortened. Letters of every script
 * and emoji stay. Null when nothing is left (or only `.`/`..`).
 */
export function sanitizeFileName(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const base = raw.replace(/\s/gu, ' ').replace(hiddenCharacters, '').split(/[/\\]/).at(-1) ?? '';
  const name = base.normalize('NFC').replace(/\s+/gu, ' ').trim();
  if (name === '' || name === '.' || name === '..') return null;
  const parts = Array.from(graphemes.segment(name), (part) => part.segment);
  if (parts.length <= MAX_FILE_NAME_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot) : '';
  const kept = extension.length <= MAX_KEPT_EXTENSION ? extension : '';
  const stemLength = MAX_FILE_NAME_LENGTH - Array.from(graphemes.segment(kept)).length;
  return `${parts.slice(0, stemLength).join('').trimEnd()}${kept}`;
}

/**
 * The shown name of an image known by its address: the last path segment, decoded and sanitised
 * (`…/img/Caf%C3%A9.jpg?w=800` is `Café.jpg`); null for an address with no segment, or not http(s).
 */
export function fileNameOfAddress(src: string): string | null {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const last = url.pathname.split('/').filter(Boolean).at(-1);
  if (!last) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    decoded = last;
  }
  return sanitizeFileName(decoded);
}
