/**
 * One record of an import file: its cells and the line it starts on (the header is line 1).
 * `overflow`: the row had more than MAX_ROW_CELLS cells or a cell longer than MAX_CELL_CHARS; what
 * was over is not kept, and the row is rejected.
 */
export type FileRecord = { line: number; cells: string[]; overflow?: boolean };

/** Most cells kept of one row (the header names at most a handful of columns). */
export const MAX_ROW_CELLS = 64;
/** Most characters kept of one cell (a URL may have 2,048, a text 2,000). */
export const MAX_CELL_CHARS = 4096;

/**
 * RFC 4180 records from a byte stream, one at a time, so a 50 MB file is never held in memory:
 * quoted fields may hold commas, doubled quotes and line breaks; lines end in CRLF or LF; a UTF-8
 * byte-order mark is dropped. A record's `line` is the physical line it starts on. A row keeps at
 * most MAX_ROW_CELLS cells of at most MAX_CELL_CHARS characters (a 45 MB row of commas is one
 * overflowing record, not 45 million cells).
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
  let overflow = false;

  const endField = () => {
    if (cells.length < MAX_ROW_CELLS) cells.push(field);
    else if (field !== '') overflow = true;
    field = '';
  };
  const endRecord = (): FileRecord => {
    endField();
    const record: FileRecord = overflow ? { line: recordLine, cells, overflow } : { line: recordLine, cells };
    cells = [];
    fieldStarted = false;
    afterQuote = false;
    overflow = false;
    return record;
  };
  const add = (text: string) => {
    if (field.length + text.length <= MAX_CELL_CHARS) field += text;
    else overflow = true;
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
              add('\r\n');
              i++;
              continue;
            }
          }
          add(ch);
        }
        continue;
      }
      if (ch === '"') {
        if (afterQuote) {
          // "" inside a quoted field: one quote, and the field goes on being quoted.
          add('"');
          quoted = true;
          afterQuote = false;
        } else if (!fieldStarted) {
          quoted = true;
          fieldStarted = true;
        } else add(ch); // A stray quote inside an unquoted field is kept as text.
        continue;
      }
      if (ch === ',') {
        endField();
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
      add(ch);
      fieldStarted = true;
    }
    // Yield after the chunk so the parser's state is settled between chunks.
    for (const record of records) yield record;
  }
  const tail = decoder.decode();
  if (tail) add(tail);
  if (field !== '' || cells.length > 0 || fieldStarted) yield endRecord();
}
