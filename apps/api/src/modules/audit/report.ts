import type { AuditVerdict } from '@altwise/contracts/audit-problems';
import ExcelJS from 'exceljs';
import { csvByteOrderMark, csvRecord } from '../../lib/csv.ts';

/**
 * The audit's exports (point 5): one row per image. Pure: rows in, file body out, so the
 * route only sets the headers. ADR 025 records the choices (column names, the formula guard, the BOM).
 */

export interface AuditReportRow {
  pageUrl: string;
  imageUrl: string;
  /** The alt attribute as found: null when the image has none ('missing' is then among the codes). */
  existingAlt: string | null;
  verdict: AuditVerdict;
  problemCodes: string[];
  wcag: string[];
  suggestedAlt?: string;
  reviewState?: string;
  /** The suggestion's long description (a chart's labels and values, ADR 050), when it has one. */
  longDescription?: string;
  /** Where the alt text came from (ADR 057): the suggestion's origin, else `human` for the page's alt. */
  origin?: string;
}

export interface AuditReportColumn {
  /** A row field, or `altAttribute`: whether the alt was missing, empty or present (derived). */
  key: keyof AuditReportRow | 'altAttribute';
  header: string;
  /** A reasonable column width in characters, for spreadsheet exports. */
  width: number;
}

/** The columns, in order, with the header each export writes. */
export const auditReportColumns: readonly AuditReportColumn[] = [
  { key: 'pageUrl', header: 'Page URL', width: 50 },
  { key: 'imageUrl', header: 'Image URL', width: 50 },
  { key: 'existingAlt', header: 'Existing alt', width: 40 },
  { key: 'verdict', header: 'Verdict', width: 12 },
  { key: 'problemCodes', header: 'Problem codes', width: 30 },
  { key: 'wcag', header: 'WCAG criteria', width: 16 },
  { key: 'suggestedAlt', header: 'Suggested alt', width: 40 },
  { key: 'reviewState', header: 'Review state', width: 14 },
  // Last, so that readers of the earlier columns by position keep working (ADR 050).
  { key: 'longDescription', header: 'Long description', width: 60 },
  // After it for the same reason (ADR 057).
  { key: 'origin', header: 'Origin', width: 14 },
  // An empty "Existing alt" cell is ambiguous: no alt attribute (fails) or alt="" (decorative).
  { key: 'altAttribute', header: 'Alt attribute', width: 14 },
];

/** `missing` (no alt attribute), `empty` (alt="" or only spaces) or `present`. */
export function altAttributeOf(existingAlt: string | null): 'missing' | 'empty' | 'present' {
  if (existingAlt === null) return 'missing';
  return existingAlt.trim() === '' ? 'empty' : 'present';
}

/** Between several codes or criteria in one cell. */
export const reportListSeparator = '; ';

/** One row's cells as text, in column order: lists joined, absent values (and a missing alt) empty. */
export function auditReportCells(row: AuditReportRow): string[] {
  return auditReportColumns.map(({ key }) => {
    if (key === 'altAttribute') return altAttributeOf(row.existingAlt);
    const value = row[key];
    if (Array.isArray(value)) return value.join(reportListSeparator);
    return value ?? '';
  });
}

/**
 * The audit as CSV (RFC 4180): a header row, then one record per image, every record ending in
 * CRLF, every cell guarded against formulas. Starts with a UTF-8 byte order mark.
 */
export function buildAuditCsv(rows: readonly AuditReportRow[]): string {
  const records = [auditReportColumns.map((column) => column.header), ...rows.map(auditReportCells)];
  return csvByteOrderMark + records.map(csvRecord).join('');
}

/** The sheet name of the xlsx report. */
export const auditReportSheetName = 'Audit';

/**
 * The audit as an xlsx workbook: one sheet, a bold header row frozen above the rows, the same
 * columns and cells as the CSV. Every cell is a string cell, which no spreadsheet runs as a formula,
 * so unlike the CSV the cells are written as found (an alt of "-" stays "-").
 */
export async function buildAuditXlsx(rows: readonly AuditReportRow[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Altwise';
  const sheet = workbook.addWorksheet(auditReportSheetName, {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = auditReportColumns.map((column) => ({
    header: column.header,
    key: column.key,
    width: column.width,
  }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(auditReportCells(row));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
