/**
 * The one rule that turns an engine's confidence into "a person should look at this": every engine
 * and the CLI use it, so the library, the API and the CLI agree on which results need review.
 */
export function reviewVerdict(
  confidence: number,
  threshold: number,
): { confidence: number; needsReview: boolean } {
  const clamped = Number.isFinite(confidence) ? Math.min(1, Math.max(0, confidence)) : 0;
  const rounded = Math.round(clamped * 100) / 100;
  return { confidence: rounded, needsReview: rounded < threshold };
}
