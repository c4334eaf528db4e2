/**
 * The published accuracy report (ADR 078) from what the evals wrote: eval-quality.ts's per-image rows
 * for the photo set and the web-graphics set, audit-checks-experts.ts's JSON, and ocr.ts's --json line.
 * `eval:publish` runs them and calls this; the result is checked by the schema the /accuracy page
 * parses it with, so a figure the page cannot show is refused here, before it is written.
 */
import {
  type AccuracyExample,
  type AccuracyReport,
  type AuditFault,
  accuracyReportSchema,
  auditFaults,
  type GraphicKind,
  graphicKinds,
} from '@altwise/contracts/accuracy';
import type { AuditProblemCode } from '@altwise/contracts/audit-problems';
import { contentWordRecall } from '../recall.ts';

const mean = (xs: number[]) => (xs.length ? xs.reduce((sum, x) => sum + x, 0) / xs.length : 0);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

export interface PhotoRow {
  file: string;
  mode: 'a' | 'b';
  reference: string;
  altText: string;
  recall: number;
  needsReview: boolean;
  fallback: boolean;
  needsWords: boolean;
  published: boolean;
  unsupported: string[];
}
export interface GraphicRow {
  kind: GraphicKind;
  recall: number;
  exact: boolean;
  decorative: boolean;
  decorativeAgrees: boolean;
  needsWords: boolean;
  published: boolean;
}
export interface AuditRun {
  judged: Array<{ id: string; kind: string; problems: AuditProblemCode[]; failed: boolean }>;
  faultCodes: Record<AuditFault, AuditProblemCode[]>;
  seeded: Array<{ kind: GraphicKind; fault: AuditFault; caught: boolean }>;
}

function photoMode(rows: PhotoRow[]): AccuracyReport['photos']['alone'] {
  return {
    recall: round3(mean(rows.map((r) => r.recall))),
    published: rows.filter((r) => r.published).length,
    needsWords: rows.filter((r) => r.needsWords).length,
    flaggedForReview: rows.filter((r) => r.needsReview).length,
    colourFallbacks: rows.filter((r) => r.fallback).length,
    unsupportedClaims: rows.filter((r) => r.unsupported.length > 0).length,
  };
}

/** The published results with context that share the fewest words with the reference: set order breaks ties. */
function photoMisses(rows: PhotoRow[], articles: Map<string, string>, n: number): AccuracyExample[] {
  return rows
    .map((row, order) => ({ row, order }))
    .filter(({ row }) => row.mode === 'b' && row.published)
    .sort((x, y) => x.row.recall - y.row.recall || x.order - y.order)
    .slice(0, n)
    .map(({ row }) => {
      const article = articles.get(row.file) ?? '';
      return {
        article,
        articleUrl: `https://en.wikipedia.org/wiki/${encodeURIComponent(article.replace(/ /g, '_'))}`,
        reference: row.reference,
        ours: row.altText,
        recall: round3(row.recall),
      };
    });
}

function graphicKindFigures(rows: GraphicRow[]): AccuracyReport['graphics']['byKind'] {
  return graphicKinds.map((kind) => {
    const of = rows.filter((r) => r.kind === kind);
    const meaningful = kind !== 'decorative';
    return {
      kind,
      entries: of.length,
      recall: round3(mean(of.map((r) => r.recall))),
      decorativeAgrees: of.filter((r) => r.decorativeAgrees).length,
      decorativeWrong: of.filter((r) => !r.decorativeAgrees).length,
      needsWords: meaningful ? of.filter((r) => r.needsWords && !r.decorative).length : 0,
      lowRecall: meaningful ? of.filter((r) => r.published && r.recall < 0.5).length : 0,
    };
  });
}

function auditFigures(audit: AuditRun): AccuracyReport['audit'] {
  const kinds = [...graphicKinds, 'photo'] as const;
  const codes = new Map<AuditProblemCode, number>();
  for (const row of audit.judged)
    for (const code of new Set(row.problems)) codes.set(code, (codes.get(code) ?? 0) + 1);
  return {
    falseAlarms: kinds.map((kind) => {
      const of = audit.judged.filter((r) => r.kind === kind);
      return {
        kind,
        alts: of.length,
        failed: of.filter((r) => r.failed).length,
        warned: of.filter((r) => !r.failed && r.problems.length > 0).length,
      };
    }),
    falseAlarmCodes: [...codes]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, alts]) => ({ code, alts })),
    seededFaults: auditFaults.map((fault) => {
      const of = audit.seeded.filter((r) => r.fault === fault);
      return {
        fault,
        expected: audit.faultCodes[fault],
        tried: of.length,
        caught: of.filter((r) => r.caught).length,
        byKind: graphicKinds
          .map((kind) => {
            const mine = of.filter((r) => r.kind === kind);
            return { kind, tried: mine.length, caught: mine.filter((r) => r.caught).length };
          })
          .filter((row) => row.tried > 0),
      };
    }),
  };
}

/** One line of `ocr.ts --json`. */
export interface OcrRun {
  model: string;
  images: number;
  seed: number;
  cerPercent: number;
  exactWordPercent: number;
  textEntries: number;
  textExact: number;
  byKind: AccuracyReport['ocr']['byKind'];
}

export interface AccuracyInputs {
  generatedAt: string;
  commit: string;
  engine: AccuracyReport['engine'];
  photoSet: string;
  /** The photo set's refs.json: the caption baseline and the articles of the quoted examples. */
  photoRefs: Array<{ file: string; alt: string; caption: string; article: string }>;
  photos: PhotoRow[];
  graphicSet: string;
  graphics: GraphicRow[];
  audit: AuditRun;
  ocr: OcrRun;
}

/** The report, validated; throws (a ZodError naming each bad field) when a figure is out of shape. */
export function buildAccuracyReport(inputs: AccuracyInputs): AccuracyReport {
  const { photos, graphics, ocr } = inputs;
  const textRows = graphics.filter((r) => r.kind === 'text');
  return accuracyReportSchema.parse({
    generatedAt: inputs.generatedAt,
    commit: inputs.commit,
    engine: inputs.engine,
    photos: {
      set: inputs.photoSet,
      images: photos.filter((r) => r.mode === 'a').length,
      captionRecall: round3(mean(inputs.photoRefs.map((ref) => contentWordRecall(ref.alt, ref.caption)))),
      alone: photoMode(photos.filter((r) => r.mode === 'a')),
      withContext: photoMode(photos.filter((r) => r.mode === 'b')),
      misses: photoMisses(photos, new Map(inputs.photoRefs.map((ref) => [ref.file, ref.article])), 3),
    },
    graphics: {
      set: inputs.graphicSet,
      entries: graphics.length,
      byKind: graphicKindFigures(graphics),
      recall: round3(mean(graphics.map((r) => r.recall))),
      decorativeAgreement: round3(
        graphics.filter((r) => r.decorativeAgrees).length / Math.max(1, graphics.length),
      ),
      textExact: textRows.filter((r) => r.exact).length,
      textEntries: textRows.length,
    },
    audit: auditFigures(inputs.audit),
    ocr: {
      model: ocr.model,
      images: ocr.images,
      seed: ocr.seed,
      cerPercent: ocr.cerPercent,
      exactWordPercent: ocr.exactWordPercent,
      byKind: ocr.byKind,
      textEntries: ocr.textEntries,
      textExact: ocr.textExact,
    },
  } satisfies AccuracyReport);
}
