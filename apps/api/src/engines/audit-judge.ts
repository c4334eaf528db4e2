import { type AuditProblemCode, auditProblemRules } from '@altwise/contracts/audit-problems';
import { maxAltLength, normaliseForComparison } from '../rules/alt-rules.ts';
import { type AuditImageFacts, checkPageImages } from '../rules/checks.ts';
import { cleanContext } from './page-context.ts';
import { truncateAtBoundary } from './quality-rules.ts';
import type { AltTextResult, PageContext } from './types.ts';

/**
 * The audit's checks judge the engine's output (point 8, ADR 054): the alt an engine wrote
 * is checked by `checkPageImages`, the function the audit runs on pages, in the image's own context
 * (its link or button, the link's text, the caption, its file name). The text beside the image is
 * left out: the engine weighs it already (text that says what the image says makes it decorative),
 * and a control's name often rightly repeats its visible label (a search button beside "Search:"). What can be
 * fixed mechanically is fixed (a too-long alt is shortened; an alt that repeats its link's own text
 * becomes alt="", as the W3C decision tree says). What is left carries a reason naming each check's
 * code; a failed check (severity `fail`: placeholder, file name, vague, link without purpose, an
 * empty alt on a control) also flags the result for review with lower confidence. Never silently.
 */

/** Where a context without a page address is checked: a name that cannot resolve anywhere. */
const nowhere = 'https://page.invalid/';

/** The facts the audit would record for this image on its page, with `altText` as its alt. */
export function auditFactsFor(
  altText: string,
  decorative: boolean,
  context: PageContext = {},
): AuditImageFacts {
  const page = cleanContext(context);
  let pageUrl = nowhere;
  try {
    if (page.pageUrl) pageUrl = new URL(page.pageUrl).href;
  } catch {
    // An address that does not parse gives no base: the image is checked as if on no page.
  }
  return {
    pageUrl,
    // The file name is all the checks read from src (file-name alts, spacer names).
    src: page.fileName
      ? `https://image.invalid/${encodeURIComponent(page.fileName)}`
      : 'https://image.invalid/',
    alt: decorative ? '' : altText,
    element: 'img',
    role: page.role ?? 'content',
    ...(page.linkTarget ? { linkTarget: page.linkTarget } : {}),
    ...(page.linkText ? { linkText: page.linkText } : {}),
    ...(page.caption ? { caption: page.caption } : {}),
    ...(page.heading ? { heading: page.heading } : {}),
  };
}

/** The audit's problem codes for this alt in this context (none when it passes, or is rightly decorative). */
export function auditProblemsFor(
  altText: string,
  decorative: boolean,
  context: PageContext = {},
): Array<{ code: AuditProblemCode; message: string }> {
  const [verdict] = checkPageImages([auditFactsFor(altText, decorative, context)]);
  return (verdict?.problems ?? []).map(({ code, message }) => ({ code, message }));
}

/** `result` as the audit would accept it: fixed where a rule can fix it, else flagged for review. */
export function judgeByAuditChecks(
  result: AltTextResult,
  context: PageContext | undefined,
  reviewThreshold: number,
): AltTextResult {
  let { altText, decorative } = result;
  let problems = auditProblemsFor(altText, decorative, context);
  if (problems.length === 0) return result;
  const applied: string[] = [];
  const page = cleanContext(context);
  if (problems.some((problem) => problem.code === 'too-long')) {
    const shorter = truncateAtBoundary(altText, maxAltLength);
    if (shorter) {
      altText = shorter;
      applied.push('too-long');
    }
  }
  // The link's or button's own text already says it: the image adds nothing (W3C: alt="").
  if (
    problems.some((problem) => problem.code === 'redundant') &&
    page.linkText &&
    normaliseForComparison(page.linkText) === normaliseForComparison(altText)
  ) {
    altText = '';
    decorative = true;
    applied.push('redundant');
  }
  if (applied.length > 0) problems = auditProblemsFor(altText, decorative, context);
  const fixed = { ...result, altText, decorative, ...(decorative ? { longDescription: null } : {}) };
  if (problems.length === 0) return fixed;
  const reasons = [
    ...result.reasons,
    ...problems.map(({ code, message }) => ({ source: 'audit' as const, detail: `${code}: ${message}` })),
  ];
  // A warning the engine could not fix (an alt that repeats a figure's caption, which review asks
  // the engine to use) is shown to the reviewer as a reason; it does not by itself call for review.
  if (!problems.some((problem) => auditProblemRules[problem.code].severity === 'fail')) {
    return { ...fixed, reasons };
  }
  // A failed check: a person decides, whatever the engine thought of its own answer.
  const capped = Math.max(0, Math.min(result.confidence, Math.floor((reviewThreshold - 0.01) * 100) / 100));
  return { ...fixed, confidence: capped, needsReview: true, reasons };
}
