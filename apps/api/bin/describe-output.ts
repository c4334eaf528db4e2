import type { AltOrigin } from '@altwise/contracts/provenance';
import type { AltTextReason, AltTextResult } from '../src/engines/types.ts';
import { csvRecord } from '../src/lib/csv.ts';
import { terminalJson, terminalLine } from './terminal-text.ts';

/**
 * The three ways `altwise describe` reports a result: a JSON line, a CSV row (RFC 4180) and a line a
 * person reads. Every item gets exactly one, described or not, so outputs line up with the inputs.
 */

export type DescribedRow = { id: string; image: string; origin: AltOrigin } & Pick<
  AltTextResult,
  'altText' | 'decorative' | 'confidence' | 'needsReview' | 'reasons' | 'engine' | 'model' | 'longDescription'
> &
  Partial<Pick<AltTextResult, 'textInImage' | 'signals'>>;

export type FailedRow = { id: string; image: string | null; error: string };

export type OutputRow = DescribedRow | FailedRow;

export const isFailed = (row: OutputRow): row is FailedRow => 'error' in row;

export function toDescribedRow(id: string, image: string, result: AltTextResult): DescribedRow {
  return {
    id,
    image,
    altText: result.altText,
    decorative: result.decorative,
    confidence: result.confidence,
    needsReview: result.needsReview,
    reasons: result.reasons,
    engine: result.engine,
    model: result.model,
    // A chart's labels and values in reading order (ADR 050); null for other images.
    longDescription: result.longDescription,
    // Where the alt text came from (ADR 057): `human` or `embedded` when the engine kept the
    // page's or the file's words, else `ai`.
    origin: result.origin ?? 'ai',
    // After the promised fields: what the engine read and saw, for whoever wants to dig.
    ...(result.textInImage ? { textInImage: result.textInImage } : {}),
    signals: result.signals,
  };
}

export const jsonLine = (row: OutputRow) => terminalJson(`${JSON.stringify(row)}\n`);

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

/** `caption “Peter Taylor was…”; detection person 0.91`: the evidence in one short line. */
export function reasonsText(reasons: AltTextReason[]): string {
  return reasons
    .map((reason) => {
      const detail = clip(reason.detail.replace(/\s+/g, ' ').trim(), 60);
      const score = reason.score === undefined ? '' : ` ${reason.score.toFixed(2)}`;
      return `${reason.source}${detail ? ` “${detail}”` : ''}${score}`;
    })
    .join('; ');
}

export const csvColumns = [
  'id',
  'image',
  'altText',
  'decorative',
  'confidence',
  'needsReview',
  'reasons',
  'engine',
  'model',
  'longDescription',
  'error',
  'origin',
] as const;

export const csvHeader = () => csvRecord([...csvColumns]);

export function csvRow(row: OutputRow): string {
  if (isFailed(row))
    return csvRecord([row.id, row.image ?? '', '', '', '', '', '', '', '', '', row.error, '']);
  return csvRecord([
    row.id,
    row.image,
    row.altText,
    String(row.decorative),
    String(row.confidence),
    String(row.needsReview),
    reasonsText(row.reasons),
    row.engine,
    row.model,
    row.longDescription ?? '',
    '',
    row.origin,
  ]);
}

/**
 * `photos/a.jpg: A dog on a beach (confidence 0.72, needs review)`, one line with its control
 * characters shown (terminal-text.ts): an alt text or a file name never drives the terminal.
 */
export function readableLine(row: OutputRow): string {
  const label = terminalLine(row.id === row.image || !row.image ? row.id : `${row.id} (${row.image})`);
  if (isFailed(row)) return `${label}: error: ${terminalLine(row.error)}\n`;
  const alt = row.decorative ? '(decorative: alt="")' : terminalLine(row.altText);
  const review = row.needsReview ? ', needs review' : '';
  return `${label}: ${alt} (confidence ${row.confidence.toFixed(2)}${review})\n`;
}
