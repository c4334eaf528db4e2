import type { EngineOptions } from './engine-options.ts';
import type { PixelStats } from './image-stats.ts';
import { cleanContext } from './page-context.ts';
import { pixelSignals } from './pixel-signals.ts';
import type { PreparedImage } from './prepare-image.ts';
import { applyQualityRules } from './quality-rules.ts';
import { reviewVerdict } from './review.ts';
import { decideRole, type ImageEvidence } from './role.ts';
import type { AltTextResult, DescribeOptions, PageContext } from './types.ts';

/**
 * The whole answer for an image whose role decides its alt text (the W3C alt decision tree,
 * engines/role.ts): the only content of a link or button gets the control's name, an image whose
 * information is already beside it gets alt="". Undefined when the pixels must be described. The
 * offline engine asks this before running its models, so such images cost no detection or OCR.
 */
export function answerByRole(
  describe: DescribeOptions,
  options: Pick<EngineOptions, 'defaultMaxLength' | 'reviewThreshold'>,
  image: {
    prepared: PreparedImage;
    stats: PixelStats;
    startedAt: number;
    model: string;
    /** Text the engine read in the image, when it read it first (a control's own text names it). */
    imageText?: string;
    /** The brand or pictogram the image matched strongly (ADR 063). */
    mark?: ImageEvidence['mark'];
  },
): AltTextResult | undefined {
  const context = cleanContext(describe.context);
  const decision = decideRole(context, {
    ...(image.imageText ? { imageText: image.imageText } : {}),
    ...(image.mark ? { mark: image.mark } : {}),
    size: { width: image.prepared.original.width, height: image.prepared.original.height },
  });
  if (decision.kind === 'describe') return undefined;
  const ruled = applyQualityRules({
    altText: decision.kind === 'functional' ? decision.altText : '',
    decorative: decision.kind === 'decorative',
    maxLength: describe.maxLength ?? options.defaultMaxLength,
    ...(context.fileName ? { fileName: context.fileName } : {}),
  });
  if (!ruled.decorative && !ruled.altText) return undefined;
  const { prepared, stats } = image;
  return {
    altText: ruled.altText,
    decorative: ruled.decorative,
    ...reviewVerdict(decision.confidence, options.reviewThreshold),
    reasons: decision.reasons,
    longDescription: null,
    signals: {
      ...pixelSignals(prepared, stats),
      contextUsed: fieldsUsed(context, decision.reasons),
      promptApplied: false,
      language: 'en',
      timingsMs: { total: Math.round(performance.now() - image.startedAt) },
    },
    engine: 'offline',
    model: image.model,
  };
}

/** The context fields a decision rests on, from its reasons. */
function fieldsUsed(context: PageContext, reasons: AltTextResult['reasons']): string[] {
  const used = new Set<string>();
  for (const reason of reasons) {
    if (reason.source === 'role') used.add('role');
    else if (reason.source === 'link')
      used.add(reason.detail === context.linkTarget ? 'linkTarget' : 'linkText');
    else if (reason.source === 'ocr') used.add('imageText');
    else if (reason.source in context) used.add(reason.source);
  }
  return [...used];
}
