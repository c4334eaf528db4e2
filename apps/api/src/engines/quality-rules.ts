import { announcingOpener, looksLikeFileName } from '../rules/alt-rules.ts';

/**
 * Rules every result passes through, whatever engine wrote it. Each rule is a small pure
 * function with its own unit test; `applyQualityRules` runs them in order.
 */

export interface QualityInput {
  altText: string;
  decorative: boolean;
  maxLength: number;
  fileName?: string;
  /** Used when a rule removes everything (an answer that was only a file name). */
  fallback?: string;
}

export interface QualityOutput {
  altText: string;
  decorative: boolean;
  /** Names of the rules that changed something, for the stored signals. */
  applied: string[];
}

export function applyQualityRules(input: QualityInput): QualityOutput {
  const applied: string[] = [];
  if (input.decorative) return { altText: '', decorative: true, applied: ['decorative-empty-alt'] };
  let text = input.altText;
  const step = (name: string, next: string) => {
    if (next !== text) applied.push(name);
    text = next;
  };
  step('tidy', tidyAnswer(text));
  step('no-redundant-opener', removeRedundantOpener(text));
  step('another', fixAnOther(text));
  if (looksLikeFileName(text, input.fileName) || containsOnlyFileName(text, input.fileName)) {
    applied.push('no-file-name');
    text = input.fallback ?? '';
  } else {
    step('no-file-name', removeFileNames(text, input.fileName));
  }
  step('max-length', truncateAtBoundary(text, input.maxLength));
  step('balanced-quotes', balanceQuotes(text, input.maxLength));
  if (!text.trim()) {
    return { altText: '', decorative: false, applied: [...applied, 'empty'] };
  }
  return { altText: text, decorative: false, applied };
}

/** Strips what chat models wrap answers in: quotes, "Alt text:" labels, markdown, newlines. */
export function tidyAnswer(text: string): string {
  let t = text
    .replace(/\r?\n+/g, ' ')
    .replace(/[*_`#]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  t = t.replace(/^(alt(ernative)?[\s-]*text|description)\s*[:-]\s*/i, '');
  const wrapped = /^["“'‘](.*)["”'’]$/.exec(t);
  if (wrapped?.[1] && !/["“”]/.test(wrapped[1])) t = wrapped[1].trim();
  return t;
}

/** "a person and an other person" is not English: "another". */
export function fixAnOther(text: string): string {
  return text.replace(/\b([Aa])n other\b/g, (_, a: string) => (a === 'A' ? 'Another' : 'another'));
}

/**
 * Screen readers already say "image": drop "Image of", "Picture of", "This photo shows", "photo of a
 * photo of". "Photograph of", "Chart of", "Illustration of" stay: there the kind is information.
 */
export function removeRedundantOpener(text: string): string {
  let t = text;
  const replaced = t.replace(announcingOpener, (match) =>
    /^(?:an?\s+)?photo(?:graph)?\s+of\s+(?:an?\s+)?(?:photo|picture|image)\s+of\s+/i.test(match)
      ? 'Photograph of '
      : '',
  );
  if (replaced !== t) t = replaced.charAt(0).toUpperCase() + replaced.slice(1);
  return t;
}

const fileNameToken = /\b[\w-]+\.(?:jpe?g|png|gif|webp|svg|avif|bmp|tiff?|heic)\b/gi;

function containsOnlyFileName(text: string, fileName?: string): boolean {
  const withoutNames = text.replace(fileNameToken, '').replace(/[\s.,;:()-]/g, '');
  return (
    withoutNames.length === 0 ||
    (fileName !== undefined && looksLikeFileName(text.replace(/\.$/, ''), fileName))
  );
}

/** Removes file names written into a sentence ("A dog (IMG_2041.jpg)"). */
export function removeFileNames(text: string, fileName?: string): string {
  let t = text.replace(/\s*\(\s*[\w-]+\.(?:jpe?g|png|gif|webp|svg|avif|bmp|tiff?|heic)\s*\)/gi, '');
  t = t.replace(fileNameToken, '');
  if (fileName) t = t.split(fileName).join('');
  return t
    .replace(/\s+([.,;:])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** Words a shortened text must not end on: it would leave the phrase hanging ("…ramps and high" is cut before "and"). */
const danglingWord =
  /\s+(?:and|or|but|nor|with|without|of|in|on|at|to|by|for|from|into|onto|over|under|near|as|than|the|a|an|its|his|her|their|our|my|your|this|that|these|those|which|who|whose|while|where|when|is|are|was|were|be|been|being|has|have|had|during|after|before|between|about|against|via|per|not|no|very|most|more|some|one|two|three|four|five|six|seven|eight|nine|ten|whilst|although|because|since|until|through|across|along|alongside|around|including|featuring|like|beside|behind|above|below|within|upon|toward|towards|such)$/i;

/** True when a text ends on a word that leaves its phrase hanging ("…ramps and.", "…painted by"). */
export function endsOnDanglingWord(text: string): boolean {
  return danglingWord.test(text.replace(/[\s.!?…”"]+$/, ''));
}

/**
 * Fits the text within `max` characters, never leaving a dangling word: at the last sentence end
 * if that keeps at least half, else at the last clause boundary (comma, semicolon, colon, dash,
 * bracket) or before the last joining word ("and", "with", "in"…) that keeps a third, else at a word
 * boundary with hanging words removed. A shortened text ends with a full stop.
 */
export function truncateAtBoundary(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = max - 1;
  const slice = text.slice(0, room + 1);
  const sentenceEnd = Math.max(slice.lastIndexOf('. '), slice.lastIndexOf('! '), slice.lastIndexOf('? '));
  if (sentenceEnd >= max / 2) return slice.slice(0, sentenceEnd + 1);
  if (/[.!?]$/.test(text.slice(0, max)) && /\s/.test(text.charAt(max))) return text.slice(0, max);
  const head = text.slice(0, room);
  const nextIsBoundary = /[\s,;:]/.test(text.charAt(room));
  let cut = -1;
  for (const match of head.matchAll(/[,;:–—]\s|\s[–—-]\s|\s\(/g)) cut = Math.max(cut, match.index);
  for (const match of (nextIsBoundary ? `${head} ` : head).matchAll(
    /\s(?:and|or|but|with|without|in|on|at|by|for|from|of|to|while|whilst|which|who|where|when|as|during|after|before|alongside|including|featuring|although|because|since|until|through|across|along|around|between|like|near|under|over|into|onto|against|beside|behind|above|below|within|upon)\s/gi,
  ))
    cut = Math.max(cut, match.index);
  let out: string;
  out =
    cut >= max * 0.35
      ? head.slice(0, cut)
      : nextIsBoundary
        ? head
        : head.slice(0, Math.max(head.lastIndexOf(' '), 0));
  // An opening bracket cut off goes with what it opened (quotations are closed by balanceQuotes).
  if ((out.match(/\(/g) ?? []).length > (out.match(/\)/g) ?? []).length) out = out.replace(/\s*\([^)]*$/, '');
  out = out.replace(/[\s,;:–—(-]+$/, '');
  while (danglingWord.test(out)) out = out.replace(danglingWord, '').replace(/[\s,;:–—(-]+$/, '');
  return out ? (/[.!?”"]$/.test(out) ? out : `${out}.`) : '';
}

/** A quotation cut by truncation is closed with an ellipsis inside the limit, never left open. */
export function balanceQuotes(text: string, max: number): string {
  const opens = (text.match(/“/g) ?? []).length;
  const closes = (text.match(/”/g) ?? []).length;
  // 15" is fifteen inches, not a quotation.
  const straight = (text.match(/(?<!\d)"/g) ?? []).length;
  if (opens === closes && straight % 2 === 0) return text;
  const closing = opens > closes ? '”' : '"';
  let t = text.replace(/[\s.,;:]+$/, '');
  while (t.length + 2 > max && t.includes(' ')) t = t.slice(0, t.lastIndexOf(' ')).replace(/[\s.,;:]+$/, '');
  return `${t}…${closing}`;
}
