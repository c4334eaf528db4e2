/**
 * Content-word recall of a reference alt text, exactly as the quality-dev set's README defines it:
 * lower-case, split into words of letters and digits, drop stop words and one-letter words, strip one
 * plural/verb ending (ies→y; es, s; ing, ed), and count the share of the reference's distinct words
 * that the generated text also uses.
 */

const stopWords = new Set(
  'a an the of in on at to and or with from by for is are was were be been this that these those its it as into over under near some one two three photo photograph image picture view showing shows shown'.split(
    ' ',
  ),
);

function stem(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es')) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  if (word.endsWith('ing')) return word.slice(0, -3);
  if (word.endsWith('ed')) return word.slice(0, -2);
  return word;
}

/** The distinct content words of a text, stemmed. */
export function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((w) => w.length > 1 && !stopWords.has(w)).map(stem));
}

/** Share of the reference's content words that the generated text also uses; 1 when the reference has none. */
export function contentWordRecall(reference: string, generated: string): number {
  const wanted = contentWords(reference);
  if (wanted.size === 0) return 1;
  const got = contentWords(generated);
  let hits = 0;
  for (const word of wanted) if (got.has(word)) hits++;
  return hits / wanted.size;
}
