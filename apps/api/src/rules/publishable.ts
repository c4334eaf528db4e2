/**
 * The publishable rule (ADR 067): whether an alt text may go live — into a WordPress site, a file
 * written by `altwise fix --write`, an export of approved alt text or a webhook. It is part of the
 * one rulebook (alt-rules.ts): the engines run it last, so they never hand out filler, and every
 * path that publishes runs it again, so nothing ungrounded leaves the product.
 *
 * An alt text is publishable when a person wrote or approved its words after editing them, or when
 * an engine wrote it from grounds a person can check: text read from the image, the image's role and
 * link, a person's or the file's own alt, a caption or a context sentence, a detector's object above
 * its calibrated score, a vision model's description. Never publishable, whoever grounds it:
 * a kind-and-tone sentence ("Dark photograph in grey, green and black tones."), an echo of the file
 * name, a page title or heading pasted in front of the sentence.
 */

import type { AltOrigin } from '@altwise/contracts/provenance';
import { looksLikeFileName, normaliseForComparison } from './alt-rules.ts';

/** Why an alt text may not be published, as a stable code (the API and the UI branch on it). */
export type UnpublishableCode =
  /** No alt text, and the image is not marked decorative: a person's words are needed. */
  | 'needs-words'
  /** A sentence about the kind of picture and its colours, naming no subject. */
  | 'kind-and-tone'
  /** The file's name, or its words, standing in for a description. */
  | 'file-name'
  /** A page title or heading pasted in front of the description. */
  | 'title-prefix'
  /** The engine had nothing a person could check: no text read, no context, no confident object. */
  | 'ungrounded';

export interface PublishableInput {
  altText: string;
  /** The image is marked decorative: `alt=""` on purpose. */
  decorative: boolean;
  origin: AltOrigin;
  /** The evidence the engine used (AltTextReason), most important first. */
  reasons: ReadonlyArray<{ source: string; detail: string; score?: number }>;
  /**
   * false for a row written before the evidence was recorded: its grounds are unknown, so only the
   * never-publishable shapes (kind and tone, file name, title in front) are refused. Default true.
   */
  evidenceRecorded?: boolean;
  /** What the page said about the image. */
  context?: { pageTitle?: string; heading?: string; fileName?: string; siteName?: string };
}

export type PublishableVerdict =
  | { publishable: true }
  | { publishable: false; code: UnpublishableCode; message: string };

/** The words shown for each code (the review, the API's 409/422 lists, the CLI). */
export const unpublishableMessages: Record<UnpublishableCode, string> = {
  'needs-words': 'Nothing in or around this image tells us what it shows: it needs your words.',
  'kind-and-tone': 'The text only names the kind of picture and its colours, not what it shows.',
  'file-name': 'The text repeats the file name instead of describing the image.',
  'title-prefix': 'The text starts with the page’s title or heading instead of describing the image.',
  ungrounded: 'Nothing a person could check supports this text: it needs your words.',
};

/**
 * Evidence a person can check. `pixels` (colours, brightness), `fileName`, `pageTitle` and
 * `heading` are not grounds for what an image shows; `detection` and `face` count only when the
 * engine kept them (it drops those below the calibrated score before it writes).
 */
export const groundedSources: ReadonlySet<string> = new Set([
  'ocr',
  'role',
  'link',
  'existingAlt',
  'embedded',
  'iptc-alt',
  'iptc-extended',
  'caption',
  'surroundingText',
  'detection',
  'face',
  'mark',
  'model',
  'inner',
]);

/**
 * A sentence that says only what kind of picture it is and how it looks: "Dark photograph in grey,
 * green and black tones.", "Black-and-white photograph with no clearly recognisable subject.",
 * "Graphic in grey, white and pink tones.", "Plain background.".
 */
const kindAndTone =
  /^(?:(?:dark|bright|light|colou?red|black-and-white|greyscale|grayscale)\s+)*(?:photograph|photo|picture|image|graphic|illustration|drawing|background)\b(?:[^.]*\b(?:tones?|colou?rs?|no clearly recognisable subject)\b)?[\s.]*$/iu;
const plainBackground = /^plain(?:\s+\w+)?\s+background[\s.]*$/iu;

export function isKindAndToneSentence(altText: string): boolean {
  const text = altText.trim();
  if (!text) return false;
  return kindAndTone.test(text) || plainBackground.test(text) || /\bin [\w ,-]+ tones\b/iu.test(text);
}

/** The alt repeats the file name, or is its words ("Teaser RIGHT1." for teaser-right1.jpg). */
export function echoesFileName(altText: string, fileName?: string): boolean {
  const text = altText.trim().replace(/[.\s]+$/u, '');
  if (!text) return false;
  if (looksLikeFileName(text, fileName)) return true;
  if (!fileName) return false;
  const stem = fileName
    .replace(/^.*[\\/]/, '')
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/[-_.+]+/g, ' ');
  const a = normaliseForComparison(text);
  const b = normaliseForComparison(stem);
  return a.length > 0 && (a === b || a.replace(/\s+/g, '') === b.replace(/\s+/g, ''));
}

/** "Media library of https://…: Dark photograph…" / "Top weather" with the heading pasted in front. */
export function hasTitlePrefix(altText: string, context: PublishableInput['context']): boolean {
  const text = altText.trim();
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return false;
  const head = normaliseForComparison(text.slice(0, colon));
  if (!head) return false;
  for (const candidate of [context?.pageTitle, context?.heading, context?.siteName]) {
    if (!candidate) continue;
    const c = normaliseForComparison(candidate);
    if (c && (c === head || c.startsWith(head) || head.startsWith(c))) return true;
  }
  return /^media library\b/.test(head);
}

/** The one rule: may this alt text go live? */
export function judgePublishable(input: PublishableInput): PublishableVerdict {
  const text = input.altText.trim();
  const fail = (code: UnpublishableCode): PublishableVerdict => ({
    publishable: false,
    code,
    message: unpublishableMessages[code],
  });
  if (!text) return input.decorative ? { publishable: true } : fail('needs-words');
  // A person's own words (written, kept from the page or the file, or saved after an edit) go live.
  // A person's own words (written, kept, saved after an edit) or an engine's words a person approved
  // go live; so does a text whose evidence was never recorded, when its shape is not filler.
  const personWords =
    input.origin === 'human' ||
    input.origin === 'embedded' ||
    input.origin === 'ai-edited' ||
    input.origin === 'ai-reviewed' ||
    input.evidenceRecorded === false;
  if (isKindAndToneSentence(text)) return fail('kind-and-tone');
  if (echoesFileName(text, input.context?.fileName)) return fail('file-name');
  if (hasTitlePrefix(text, input.context)) return fail('title-prefix');
  if (personWords) return { publishable: true };
  if (!input.reasons.some((reason) => groundedSources.has(reason.source))) return fail('ungrounded');
  return { publishable: true };
}

/** What an engine result carries that decides how it is stored (engines/types.ts AltTextResult). */
export interface EngineAltResult {
  altText: string;
  decorative: boolean;
  origin?: AltOrigin;
  reasons: PublishableInput['reasons'];
  needsWords?: boolean;
  needsWordsReason?: string;
}

/** How an engine result is stored as a suggestion (ADR 068). */
export interface StoredSuggestion {
  /** The engine's alt, or '' when it may not go live. */
  altText: string;
  needsWords: boolean;
  /** Why a person's words are needed; null when they are not. */
  needsWordsReason: string | null;
}

/**
 * Every path that stores an engine's result as a suggestion (an audit fix, a library image from a
 * batch or a regenerate) goes through this (ADR 068): a result the engine marked `needsWords`, or
 * one the publishable rule refuses, is kept with no alt and the reason, so no filler waits to be
 * approved by a click; the grounds stay in the result's reasons for the reviewer.
 */
export function suggestionToStore(
  result: EngineAltResult,
  context?: PublishableInput['context'],
): StoredSuggestion {
  if (result.needsWords)
    return {
      altText: '',
      needsWords: true,
      needsWordsReason: result.needsWordsReason?.trim() || unpublishableMessages['needs-words'],
    };
  const verdict = judgePublishable({
    altText: result.altText,
    decorative: result.decorative,
    origin: result.origin ?? 'ai',
    reasons: result.reasons,
    context,
  });
  if (verdict.publishable) return { altText: result.altText, needsWords: false, needsWordsReason: null };
  return { altText: '', needsWords: true, needsWordsReason: verdict.message };
}

/** One image a publishing path refused, as the API's 409 lists it and the CLI prints it. */
export interface UnpublishableImage {
  imageId: string;
  code: UnpublishableCode;
  message: string;
}

/**
 * The images among `items` whose verdict says no, in order: what a path that publishes a named set
 * answers with (409 UNPUBLISHABLE_ALT), or leaves out when it publishes "all".
 */
export function listUnpublishable<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  verdictOf: (item: T) => PublishableVerdict,
): UnpublishableImage[] {
  const refused: UnpublishableImage[] = [];
  for (const item of items) {
    const verdict = verdictOf(item);
    if (!verdict.publishable)
      refused.push({ imageId: idOf(item), code: verdict.code, message: verdict.message });
  }
  return refused;
}
