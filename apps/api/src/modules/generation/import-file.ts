import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/** One record of an import file: its cells and the line it starts on (the header is line 1). */
export type FileRecord = { line: number; cells: string[] };

/**
 * RFC 4180 records from a byte stream, one at a time, so a 50 MB file is never held in memory:
 * quoted fields may hold commas, doubled quotes and line breaks; lines end in CRLF or LF; a UTF-8
 * byte-order mark is dropped. A record's `line` is the physical line it starts on.
 */
export async function* readCsvRecords(source: AsyncIterable<Buffer | string>): AsyncGenerator<FileRecord> {
  const decoder = new TextDecoder('utf-8');
  let cells: string[] = [];
  let field = '';
  let quoted = false;
  /** A quote just closed a quoted field: the next character is a quote (escaped), a comma or a line end. */
  let afterQuote = false;
  let fieldStarted = false;
  let line = 1;
  let recordLine = 1;
  let first = true;
  let pendingCr = false;

  const endRecord = (): FileRecord => {
    cells.push(field);
    const record = { line: recordLine, cells };
    cells = [];
    field = '';
    fieldStarted = false;
    afterQuote = false;
    return record;
  };

  for await (const chunk of source) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    const records: FileRecord[] = [];
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (pendingCr) {
        pendingCr = false;
        if (ch === '\n') continue;
      }
      if (quoted) {
        if (ch === '"') {
          quoted = false;
          afterQuote = true;
        } else {
          if (ch === '\n') line++;
          else if (ch === '\r') {
            line++;
            if (text[i + 1] === '\n') {
              field += '\r\n';
              i++;
              continue;
            }
          }
          field += ch;
        }
        continue;
      }
      if (ch === '"') {
        if (afterQuote) {
          // "" inside a quoted field: one quote, and the field goes on being quoted.
          field += '"';
          quoted = true;
          afterQuote = false;
        } else if (!fieldStarted) {
          quoted = true;
          fieldStarted = true;
        } else field += ch; // A stray quote inside an unquoted field is kept as text.
        continue;
      }
      if (ch === ',') {
        cells.push(field);
        field = '';
        fieldStarted = false;
        afterQuote = false;
        continue;
      }
      if (ch === '\n' || ch === '\r') {
        records.push(endRecord());
        line++;
        recordLine = line;
        if (ch === '\r') pendingCr = true;
        continue;
      }
      field += ch;
      fieldStarted = true;
    }
    // Yield after the chunk so the parser's state is settled between chunks.
    for (const record of records) yield record;
  }
  const tail = decoder.decode();
  if (tail) field += tail;
  if (field !== '' || cells.length > 0 || fieldStarted) yield endRecord();
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('hyperlink' in value && typeof value.hyperlink === 'string') return value.hyperlink;
    if ('result' in value && value.result !== undefined) return cellText(value.result as ExcelJS.CellValue);
  }
  return '';
}

/**
 * The first worksheet of an .xlsx file, row by row, through exceljs's streaming reader (the rows
 * are not kept). Row numbers are the sheet's, so a rejected row is named as Excel shows it.
 */
export async function* readXlsxRecords(source: Readable): AsyncGenerator<FileRecord> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  for await (const sheet of workbook) {
    for await (const row of sheet) {
      // row.values is 1-based: index 0 is empty.
      const values = Array.isArray(row.values) ? row.values.slice(1) : [];
      yield { line: row.number, cells: Array.from(values, (value) => cellText(value as ExcelJS.CellValue)) };
    }
    // Only the first worksheet is read; the rest of the file is drained by the caller.
    return;
  }
}
