import { judgePublishable } from '../rules/publishable.ts';
import { reviewVerdict } from './review.ts';
import type { AltTextResult, DescribeOptions, PageContext } from './types.ts';

/**
 * The last stage of every alt-text engine (ADR 067): an alt text the publishable rule
 * (rules/publishable.ts) does not accept is never handed out. The result becomes "needs words": no alt
 * text, not decorative, flagged for review, with the rule's reason, and the evidence that was found
 * (text read with its confidence, detections with their scores) kept so a person sees it.
 * Decorative results and results the rule accepts pass unchanged.
 */

/** How sure an engine is of an answer it could not write: a person must look. */
const needsWordsConfidence = 0;

export function groundedOrNothing(
  result: AltTextResult,
  context: PageContext | undefined,
  reviewThreshold: number,
): AltTextResult {
  if (result.decorative) return result;
  const verdict = judgePublishable({
    altText: result.altText,
    decorative: false,
    origin: result.origin ?? 'ai',
    reasons: result.reasons,
    context: {
      ...(context?.pageTitle ? { pageTitle: context.pageTitle } : {}),
      ...(context?.heading ? { heading: context.heading } : {}),
      ...(context?.fileName ? { fileName: context.fileName } : {}),
      ...(context?.siteName ? { siteName: context.siteName } : {}),
    },
  });
  if (verdict.publishable) return result;
  return needsWords(result, verdict.message, reviewThreshold);
}

/** The result with its alt text taken away: a person's words are needed, for the reason given. */
export function needsWords(result: AltTextResult, reason: string, reviewThreshold: number): AltTextResult {
  return {
    ...result,
    altText: '',
    decorative: false,
    ...reviewVerdict(needsWordsConfidence, reviewThreshold),
    needsReview: true,
    needsWords: true,
    needsWordsReason: reason,
  };
}

/**
 * The language the alt text is for: the caller's, else the page's (when the page context carries
 * one), else English.
 */
export function requestedLanguage(describe: DescribeOptions, fallback = 'en'): string {
  const fromPage = (describe.context as { language?: unknown } | undefined)?.language;
  return describe.language ?? (typeof fromPage === 'string' && fromPage ? fromPage : fallback);
}

/** The primary subtag of a BCP 47 tag, lower-case: "en-GB" → "en". */
export function primaryLanguage(tag: string): string {
  return (tag.split(/[-_]/)[0] ?? '').toLowerCase();
}
