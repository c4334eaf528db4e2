import { looksLikeFileName } from './page-context.ts';

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

const redundantOpener =
  /^(?:(?:this|the)\s+(?:image|picture|photo|photograph|pic)\s+(?:shows|depicts|features|contains|is of|displays)\s+|(?:an?\s+)?(?:image|picture|pic|photo)\s+(?:of|showing|depicting|featuring)\s+(?:(?:an?\s+)?(?:photo|picture|image)\s+of\s+)?|(?:an?\s+)?photo(?:graph)?\s+of\s+(?:an?\s+)?(?:photo|picture|image)\s+of\s+|image:\s*)/i;

/**
 * Screen readers already say "image": drop "Image of", "Picture of", "This photo shows", "photo of a
 * photo of". "Photograph of", "Chart of", "Illustration of" stay: there the kind is information.
 */
export function removeRedundantOpener(text: string): string {
  let t = text;
  const replaced = t.replace(redundantOpener, (match) =>
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

/**
 * Fits the text within `max` characters: at the last sentence end if that keeps at least half,
 * else at the last word boundary, never in the middle of a word.
 */
export function truncateAtBoundary(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max);
  const sentenceEnd = Math.max(slice.lastIndexOf('. '), slice.lastIndexOf('! '), slice.lastIndexOf('? '));
  if (sentenceEnd >= max / 2) return slice.slice(0, sentenceEnd + 1);
  if (/[.!?]$/.test(slice) && /\s/.test(text.charAt(max))) return slice;
  const nextIsBoundary = /[\s,;:]/.test(text.charAt(max));
  const cut = nextIsBoundary ? slice : slice.slice(0, Math.max(slice.lastIndexOf(' '), 0));
  const trimmed = cut
    .replace(/[\s,;:–—-]+$/, '')
    .replace(/\s+(and|or|with|of|in|on|at|the|a|an|to|by)$/i, '');
  return trimmed;
}

/** A quotation cut by truncation is closed with an ellipsis inside the limit, never left open. */
export function balanceQuotes(text: string, max: number): string {
  const opens = (text.match(/“/g) ?? []).length;
  const closes = (text.match(/”/g) ?? []).length;
  const straight = (text.match(/"/g) ?? []).length;
  if (opens === closes && straight % 2 === 0) return text;
  const closing = opens > closes ? '”' : '"';
  let t = text.replace(/[\s.,;:]+$/, '');
  while (t.length + 2 > max && t.includes(' ')) t = t.slice(0, t.lastIndexOf(' ')).replace(/[\s.,;:]+$/, '');
  return `${t}…${closing}`;
}
