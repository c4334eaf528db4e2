import { z } from 'zod';

/**
 * Where an alt text came from (point 4; ADR 057): `human` (a person wrote it: found on the
 * page, in a CSV's existing alt, or typed over a human's text), `embedded` (read from the image
 * file's own metadata, ADR 055), `ai` (an engine wrote it: see its engine and model), `ai-reviewed`
 * (an engine wrote it and a person approved it unchanged), `ai-edited` (a person saved it after
 * editing an engine's text).
 */
export const altOrigins = ['human', 'embedded', 'ai', 'ai-reviewed', 'ai-edited'] as const;
export const altOriginSchema = z.enum(altOrigins);
export type AltOrigin = z.infer<typeof altOriginSchema>;

/** The short words the product shows for each origin (the library, the review, the audit). */
export const altOriginLabels: Record<AltOrigin, string> = {
  human: 'Written by a person',
  embedded: 'From the file’s metadata',
  ai: 'AI',
  'ai-reviewed': 'AI, reviewed',
  'ai-edited': 'AI, edited',
};

/** Whether an engine wrote the words (possibly reviewed or edited since). */
export const isAiOrigin = (origin: AltOrigin): boolean => origin.startsWith('ai');

/** Same words, ignoring case, spacing and the sentence's closing punctuation. */
function sameWords(a: string, b: string): boolean {
  const norm = (text: string) =>
    text
      .normalize('NFC')
      .toLowerCase()
      .replace(/[\s.!?…]+$/u, '')
      .replace(/\s+/gu, ' ')
      .trim();
  return norm(a) === norm(b);
}

/** The origin once a person approves the text unchanged: an engine's text becomes `ai-reviewed`. */
export function approvedOrigin(origin: AltOrigin): AltOrigin {
  return origin === 'ai' ? 'ai-reviewed' : origin;
}

/**
 * The origin once a person saves `next` over `previous` (of `origin`): the same words are an approval;
 * changed words over an engine's text are `ai-edited`, over a person's or the file's text, or where
 * an engine left none, `human`.
 */
export function editedOrigin(origin: AltOrigin, previous: string, next: string): AltOrigin {
  if (sameWords(previous, next)) return approvedOrigin(origin);
  // Words written where an engine left none (ADR 068) are wholly a person's.
  return isAiOrigin(origin) && previous.trim() !== '' ? 'ai-edited' : 'human';
}

/**
 * The origin of an engine's result: the existing alt it kept word for word is the person's (or the
 * file's, when that existing alt was read from the file's metadata), anything else the engine's.
 */
export function resultOrigin(altText: string, existingAlt: string | undefined, fromFile: boolean): AltOrigin {
  if (!existingAlt?.trim() || !altText.trim() || !sameWords(altText, existingAlt)) return 'ai';
  return fromFile ? 'embedded' : 'human';
}
