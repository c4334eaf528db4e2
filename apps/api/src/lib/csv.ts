/**
 * The one CSV writer every export shares (batch results, audit report, `altwise describe --csv`):
 * RFC 4180 records whose cells are guarded against formulas, since they hold text that callers and
 * audited pages wrote.
 */

/**
 * Spreadsheet programs run a cell that starts with = + - or @ as a formula (CSV injection; OWASP
 * adds tab and carriage return). Such a cell gets an apostrophe in front: Excel and LibreOffice show
 * the text as written, other readers show the apostrophe. A cell of "-" is written as "'-".
 */
export function guardFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** RFC 4180: a field with a comma, a double quote or a line break is quoted, its quotes doubled. */
function quoteField(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** One cell as written to a CSV file: guarded against formulas, then quoted if it needs it. */
export function csvCell(value: string): string {
  return quoteField(guardFormula(value));
}

/** One CSV record: its cells guarded and quoted, joined by commas, ending in CRLF. */
export function csvRecord(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Makes Excel read the file as UTF-8 (alt text has accents and curly quotes); other readers skip it. */
export const csvByteOrderMark = '\uFEFF';
