import type { PageContext } from './types.ts';

/**
 * A row of small pictograms that together say one thing (W3C tutorial "Groups of images": the
 * stars of a rating). The scraper reports the row (PageContext.imageRow: the file names of 3 to 10
 * images side by side with nothing but white space between them); this decides whether it is one
 * pictogram drawn in states ("star-full", "star-half", "star-empty"; "fullstar", "emptystar"; "dot_on",
 * "dot_off") or the same picture repeated, and what the whole row says when its states can be counted.
 * Different pictures in a row (three product photos, a row of social icons, flags) are no group.
 * Pure: file names in, a reading out.
 */

/** States a pictogram's file name gives, and what each counts for. */
const stateValues = new Map<string, number>([
  ['full', 1],
  ['filled', 1],
  ['fill', 1],
  ['solid', 1],
  ['on', 1],
  ['active', 1],
  ['selected', 1],
  ['lit', 1],
  ['gold', 1],
  ['half', 0.5],
  ['empty', 0],
  ['off', 0],
  ['outlined', 0],
  ['outline', 0],
  ['blank', 0],
  ['inactive', 0],
  ['unselected', 0],
  ['unlit', 0],
  ['grey', 0],
  ['gray', 0],
]);
/**
 * States long enough to be recognised glued to the pictogram's name ("fullstar", "starempty"),
 * longest first so that "starinactive" is inactive, not active.
 */
const gluedStates = [...stateValues.keys()]
  .filter((state) => state.length >= 4)
  .sort((a, b) => b.length - a.length);
/** Words of a file name that name its format or role, not the pictogram ("icon-star-full.png"). */
const partWords = new Set(['icon', 'ico', 'img', 'image', 'pic', 'sm', 'small', 'lg', 'large', 'rating']);

export interface PictogramRow {
  /** The pictogram's name from the file names ("star"). */
  kind: string;
  /** The number of images in the row. */
  size: number;
  /** Each image's state value (1 full, 0.5 half, 0 empty), or null when a file name gives none. */
  states: Array<number | null>;
}

/** A file name's words, its state split off: "star-full.png" → {kind: "star", state: 1}. */
function readFileName(file: string): { kind: string; state: number | null } | undefined {
  const stem = file
    .replace(/[?#].*$/, '')
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/@\d+x$/i, '')
    .replace(/([\p{Ll}])(\p{Lu})/gu, '$1 $2')
    .toLowerCase();
  const tokens = stem.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const kind: string[] = [];
  let state: number | null = null;
  for (const token of tokens) {
    const value = stateValues.get(token);
    if (value !== undefined) {
      if (state !== null) return undefined;
      state = value;
      continue;
    }
    const glued = gluedStates.find(
      (word) => token.length >= word.length + 3 && (token.startsWith(word) || token.endsWith(word)),
    );
    if (glued && state === null) {
      state = stateValues.get(glued) ?? null;
      kind.push(token.startsWith(glued) ? token.slice(glued.length) : token.slice(0, -glued.length));
      continue;
    }
    if (!partWords.has(token)) kind.push(token);
  }
  const name = kind.join(' ');
  return /\p{L}{2}/u.test(name) ? { kind: name, state } : undefined;
}

/**
 * The row as one pictogram in states, or undefined when its images are different pictures: every
 * file name must name the same pictogram once its state is set aside, and the names may differ only
 * by their states (the same file repeated counts).
 */
export function pictogramRow(row: NonNullable<PageContext['imageRow']>): PictogramRow | undefined {
  if (row.files.length < 3) return undefined;
  const read = row.files.map(readFileName);
  const first = read[0];
  if (!first) return undefined;
  for (const file of read) if (!file || file.kind !== first.kind) return undefined;
  return { kind: first.kind, size: row.files.length, states: read.map((file) => file?.state ?? null) };
}

/** "star" → "stars", "box" → "boxes", "heart" → "hearts". */
function plural(noun: string): string {
  if (/(?:s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/**
 * What the whole row says, for its first image to carry: "3.5 out of 5 stars" when every image's
 * state is known, "5 stars" when the row repeats one picture; undefined when the states are mixed
 * with unknown ones (say less: a person should word it).
 */
export function rowMeaning(row: PictogramRow): { text: string; counted: boolean } | undefined {
  const noun = plural(row.kind);
  if (row.states.every((state) => state !== null)) {
    const value = row.states.reduce<number>((sum, state) => sum + (state ?? 0), 0);
    return {
      text: `${Number.isInteger(value) ? value : value.toFixed(1)} out of ${row.size} ${noun}`,
      counted: true,
    };
  }
  if (row.states.every((state) => state === null)) return { text: `${row.size} ${noun}`, counted: false };
  return undefined;
}
