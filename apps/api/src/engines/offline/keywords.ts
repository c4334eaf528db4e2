import { keywordStuffing } from '../../rules/alt-rules.ts';
import type { AltTextReason, PageContext } from '../types.ts';

/** Page text a keyword may be found in: what the page itself states about the image. */
const statingFields = [
  'caption',
  'existingAlt',
  'heading',
  'pageTitle',
  'surroundingText',
  'linkText',
] as const;

const normalise = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Whether `phrase` occurs in `text` as whole words ("cat" is not in "category"). */
function containsPhrase(text: string, phrase: string): boolean {
  return phrase !== '' && ` ${normalise(text)} `.includes(` ${phrase} `);
}

/** "dogs" names a detected "dog", and "dog" names detected "dogs". */
function namesLabel(keyword: string, label: string): boolean {
  const l = normalise(label);
  return keyword === l || keyword === `${l}s` || `${keyword}s` === l || keyword === `${l}es`;
}

/**
 * SEO keywords the offline engine may add: only one that names something the models saw (a
 * detection label) or that the page states (caption, existing alt, heading, title, nearby text),
 * and that the alt text does not already say. Added in brackets at the end while the text stays
 * within `maxLength` and reads as no keyword stuffing by the audit's own rule (rules/alt-rules.ts,
 * ADR 060: a word three times, a list of four keywords); the rest are left out rather than stuffed
 * in. Each one used is a reason.
 */
export function addTruthfulKeywords(input: {
  altText: string;
  keywords: string[] | undefined;
  detections: string[];
  context: PageContext;
  maxLength: number;
}): { altText: string; reasons: AltTextReason[] } {
  const { altText } = input;
  if (!altText || !input.keywords?.length) return { altText, reasons: [] };
  const used: string[] = [];
  const reasons: AltTextReason[] = [];
  for (const raw of input.keywords) {
    const keyword = raw.trim().replace(/\s+/g, ' ');
    const phrase = normalise(keyword);
    if (!phrase || containsPhrase(altText, phrase) || used.some((u) => normalise(u) === phrase)) continue;
    const seen = input.detections.find((label) => namesLabel(phrase, label));
    const stated = seen
      ? undefined
      : statingFields.find((field) => containsPhrase(input.context[field] ?? '', phrase));
    if (!seen && !stated) continue;
    const body = altText.replace(/[.\s]+$/, '');
    const candidate = `${body} (${[...used, keyword].join(', ')})${altText.trimEnd().endsWith('.') ? '.' : ''}`;
    if (candidate.length > input.maxLength) break;
    if (keywordStuffing(candidate) && !keywordStuffing(altText)) continue;
    used.push(keyword);
    reasons.push(
      seen
        ? { source: 'detection', detail: `keyword "${keyword}" names the detected ${seen}` }
        : {
            source: stated === 'linkText' ? 'link' : (stated as AltTextReason['source']),
            detail: `keyword "${keyword}" is stated by the page`,
          },
    );
  }
  if (used.length === 0) return { altText, reasons };
  const body = altText.replace(/[.\s]+$/, '');
  return {
    altText: `${body} (${used.join(', ')})${altText.trimEnd().endsWith('.') ? '.' : ''}`,
    reasons,
  };
}
