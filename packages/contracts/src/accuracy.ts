import { z } from 'zod';
import { auditProblemCodeSchema } from './audit-problems.ts';

/**
 * The published accuracy report: what `npm run eval:publish` writes and the public /accuracy page
 * shows (ADR 078). The script validates its output with this schema before writing it, and the page
 * parses the committed file with it, so the figures on the site are the ones the evals produced.
 */

/** A share between 0 and 1. */
const share = z.number().min(0).max(1);
const count = z.number().int().min(0);

/** The kinds of web graphic the web-graphics development set distinguishes, in its order. */
export const graphicKinds = [
  'text',
  'functional',
  'logo',
  'icon',
  'informative',
  'complex',
  'decorative',
] as const;
export const graphicKindSchema = z.enum(graphicKinds);
export type GraphicKind = z.infer<typeof graphicKindSchema>;

/** The offline engine on the photo set, in one of its two modes. */
const photoModeSchema = z.object({
  /** Mean content-word recall of the reference alt text (the set's metric). */
  recall: share,
  /** Alt text handed out (not decorative, not left for a person to write). */
  published: count,
  /** Left for a person to write: nothing grounded enough to say. */
  needsWords: count,
  flaggedForReview: count,
  /** Only the colour and tone of the pixels: nothing recognised. */
  colourFallbacks: count,
  /** An object or person named that is in neither the picture's reference nor the page. */
  unsupportedClaims: count,
});

/** A reference alt text beside ours, quoted with its source (photo set only: its licence allows it). */
export const accuracyExampleSchema = z.object({
  article: z.string().min(1),
  articleUrl: z.url(),
  reference: z.string(),
  ours: z.string(),
  recall: share,
});
export type AccuracyExample = z.infer<typeof accuracyExampleSchema>;

export const graphicKindFiguresSchema = z.object({
  kind: graphicKindSchema,
  entries: count,
  /** Mean content-word recall (a decorative reference scores 1 when the engine says decorative). */
  recall: share,
  /** The engine's decorative decision agrees with the reference's. */
  decorativeAgrees: count,
  /** Words given where the reference is alt="" (decorative kind) or alt="" where it has words. */
  decorativeWrong: count,
  /** Meaningful entries left for a person to write. */
  needsWords: count,
  /** Meaningful entries whose alt shares under half of the reference's content words. */
  lowRecall: count,
});
export type GraphicKindFigures = z.infer<typeof graphicKindFiguresSchema>;

/** The audit's checks on the experts' own alt text: every problem found is a false alarm. */
export const auditFalseAlarmsSchema = z.object({
  kind: z.union([graphicKindSchema, z.literal('photo')]),
  alts: count,
  /** Alts the audit fails. */
  failed: count,
  /** Alts the audit only warns about. */
  warned: count,
});

/** A fault planted in an expert's snippet, and whether the audit names it with the expected check. */
export const auditFaults = [
  'alt-removed',
  'file-name-alt',
  'placeholder-alt',
  'empty-alt-in-link',
  'empty-alt-on-meaningful',
] as const;
export const auditFaultSchema = z.enum(auditFaults);
export type AuditFault = z.infer<typeof auditFaultSchema>;

const triedAndCaught = { tried: count, caught: count };

export const auditSeededFaultSchema = z.object({
  fault: auditFaultSchema,
  /** The checks that name this fault; any of them counts as caught. */
  expected: z.array(auditProblemCodeSchema).min(1),
  ...triedAndCaught,
  byKind: z.array(z.object({ kind: graphicKindSchema, ...triedAndCaught })),
});
export type AuditSeededFault = z.infer<typeof auditSeededFaultSchema>;

export const ocrKindFiguresSchema = z.object({
  kind: z.string().min(1),
  images: count,
  cerPercent: z.number().min(0),
  exactWordPercent: z.number().min(0).max(100),
});

export const accuracyReportSchema = z.object({
  /** When and on what the evals ran. */
  generatedAt: z.iso.datetime(),
  commit: z.string().regex(/^[0-9a-f]{7,40}$/),
  engine: z.object({ name: z.string().min(1), model: z.string().min(1) }),
  photos: z.object({
    set: z.string().min(1),
    images: count,
    /** The recall of the page's own figure caption used as the alt: what copying it would score. */
    captionRecall: share,
    alone: photoModeSchema,
    withContext: photoModeSchema,
    /** The results with context that share the fewest words with the reference, in set order. */
    misses: z.array(accuracyExampleSchema),
  }),
  graphics: z.object({
    set: z.string().min(1),
    entries: count,
    byKind: z.array(graphicKindFiguresSchema),
    recall: share,
    decorativeAgreement: share,
    /** `text` entries whose alt equals an acceptable wording. */
    textExact: count,
    textEntries: count,
  }),
  audit: z.object({
    falseAlarms: z.array(auditFalseAlarmsSchema),
    /** Problems found on the experts' alts, per check. */
    falseAlarmCodes: z.array(z.object({ code: auditProblemCodeSchema, alts: count })),
    seededFaults: z.array(auditSeededFaultSchema),
  }),
  ocr: z.object({
    model: z.string().min(1),
    images: count,
    seed: z.number().int(),
    cerPercent: z.number().min(0),
    exactWordPercent: z.number().min(0).max(100),
    byKind: z.array(ocrKindFiguresSchema),
    /** The web-graphics set's images of text, read exactly as written. */
    textEntries: count,
    textExact: count,
  }),
});
export type AccuracyReport = z.infer<typeof accuracyReportSchema>;
