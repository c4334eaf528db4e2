import type { Readable } from 'node:stream';
import { Parser } from 'htmlparser2';
import yauzl from 'yauzl';
import type { FileRecord } from './import-file.ts';
import { MAX_CELL_CHARS, MAX_ROW_CELLS } from './import-file.ts';

/**
 * The first worksheet of an .xlsx file, read with limits a zip bomb cannot pass: the
 * archive's directory is read first, every part is inflated as a stream and stopped at its budget
 * (whatever size its header claims), shared strings are capped in count and characters, and rows
 * stream out one at a time with at most MAX_ROW_CELLS cells of at most MAX_CELL_CHARS characters.
 * Cells without an `r` reference (optional in OOXML) take the next column, rows without one the
 * next row. Runs in the import sandbox's thread (import-worker.ts), never on the request path.
 */

/** Most bytes one part of the archive may inflate to (the sheet streams; this bounds the work). */
export const MAX_XLSX_PART_BYTES = 256 * 1024 * 1024;
/** Most bytes the shared-strings part may inflate to: its strings are held while the sheet is read. */
export const MAX_SHARED_STRINGS_BYTES = 64 * 1024 * 1024;
/** Most shared strings (a 100,000-row file of 7 distinct columns needs 700,000). */
export const MAX_SHARED_STRINGS = 1_000_000;
/** Most characters of shared strings held at once. */
export const MAX_SHARED_STRING_CHARS = 32 * 1024 * 1024;
/** Most entries in the archive's directory (a workbook has a few dozen). */
const MAX_ENTRIES = 10_000;

/** The spreadsheet cannot be read as it is: `status` 400 (broken) or 413 (over a limit), in words. */
export class SpreadsheetError extends Error {
  readonly status: 400 | 413;
  constructor(status: 400 | 413, message: string) {
    super(message);
    this.name = 'SpreadsheetError';
    this.status = status;
  }
}

const broken = (detail: string) =>
  new SpreadsheetError(
    400,
    `The .xlsx file could not be read: ${detail}. Save it again from your spreadsheet app, or export it as CSV.`,
  );
const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** The local part of an XML name (`x:c` → `c`). */
const local = (name: string) => name.slice(name.indexOf(':') + 1);

async function openZip(file: string): Promise<{ zip: yauzl.ZipFile; entries: Map<string, yauzl.Entry> }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch {
    throw broken('it is not a zip archive');
  }
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entries.size >= MAX_ENTRIES) {
        reject(
          new SpreadsheetError(
            413,
            `The .xlsx file has more than ${MAX_ENTRIES.toLocaleString('en-US')} parts.`,
          ),
        );
        return;
      }
      entries.set(entry.fileName.replace(/^\/+/, ''), entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', () => reject(broken('its zip directory is damaged')));
    zip.readEntry();
  });
  return { zip, entries };
}

/**
 * Streams one part through an XML parser, counting inflated bytes: over `budget` (or over what its
 * header claimed, which yauzl checks) the stream is destroyed and the read fails in words. Yields
 * after each chunk it fed, so a caller can hand out what the handlers collected so far.
 */
async function* parseStream(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  budget: number,
  what: string,
  handlers: ConstructorParameters<typeof Parser>[0],
): AsyncGenerator<void> {
  const overBudget = () =>
    new SpreadsheetError(413, `The ${what} of the .xlsx file unpacks to more than ${megabytes(budget)}.`);
  if (entry.uncompressedSize > budget) throw overBudget();
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch {
    throw broken(`its ${what} is damaged`);
  }
  const parser = new Parser(handlers, { xmlMode: true, decodeEntities: true });
  const decoder = new TextDecoder('utf-8');
  let inflated = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      if (inflated > budget) throw overBudget();
      parser.write(decoder.decode(chunk, { stream: true }));
      yield;
    }
    parser.write(decoder.decode());
    parser.end();
  } catch (error) {
    if (error instanceof SpreadsheetError) throw error;
    throw broken(`its ${what} is damaged`);
  } finally {
    stream.destroy();
  }
}

/** A whole part through an XML parser, under its budget (see parseStream). */
async function parsePart(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  budget: number,
  what: string,
  handlers: ConstructorParameters<typeof Parser>[0],
): Promise<void> {
  for await (const _ of parseStream(zip, entry, budget, what, handlers)) {
    // Nothing to hand out between chunks: the handlers keep what they read.
  }
}

/** Resolves a relationship target of `xl/workbook.xml` to an archive path. */
function resolveTarget(target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = `xl/${target}`.split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

/** The first worksheet's and the shared strings' paths, from the workbook and its relationships. */
async function locateParts(
  zip: yauzl.ZipFile,
  entries: Map<string, yauzl.Entry>,
): Promise<{ sheet: yauzl.Entry; sharedStrings: yauzl.Entry | undefined }> {
  const workbook = entries.get('xl/workbook.xml');
  const rels = entries.get('xl/_rels/workbook.xml.rels');
  let firstSheetId: string | undefined;
  const targets = new Map<string, { type: string; target: string }>();
  if (workbook && rels) {
    await parsePart(zip, workbook, 8 * 1024 * 1024, 'workbook', {
      onopentag(name, attributes) {
        if (local(name) !== 'sheet' || firstSheetId !== undefined) return;
        const id = Object.entries(attributes).find(([key]) => local(key) === 'id' && key !== 'sheetId');
        firstSheetId = id?.[1];
      },
    });
    await parsePart(zip, rels, 8 * 1024 * 1024, 'workbook relationships', {
      onopentag(name, attributes) {
        if (local(name) !== 'Relationship' || !attributes.Id || !attributes.Target) return;
        targets.set(attributes.Id, { type: attributes.Type ?? '', target: attributes.Target });
      },
    });
  }
  const sheetTarget = firstSheetId ? targets.get(firstSheetId) : undefined;
  const sheet =
    (sheetTarget && entries.get(resolveTarget(sheetTarget.target))) ??
    entries.get('xl/worksheets/sheet1.xml');
  if (!sheet) throw broken('it has no worksheet');
  const stringsTarget = [...targets.values()].find((t) => t.type.endsWith('/sharedStrings'));
  const sharedStrings =
    (stringsTarget && entries.get(resolveTarget(stringsTarget.target))) ??
    entries.get('xl/sharedStrings.xml');
  return { sheet, sharedStrings };
}

/** The shared strings, each the text of its `<t>` elements (rich-text runs joined, phonetic runs left out). */
async function readSharedStrings(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string[]> {
  const strings: string[] = [];
  let chars = 0;
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  await parsePart(zip, entry, MAX_SHARED_STRINGS_BYTES, 'shared-strings part', {
    onopentag(name) {
      const tag = local(name);
      if (tag === 'si') current = '';
      else if (tag === 'rPh') phonetic++;
      else if (tag === 't' && phonetic === 0) inText = true;
    },
    ontext(text) {
      if (!inText || current === null) return;
      // A cell keeps at most MAX_CELL_CHARS characters (more is refused per row when it is used).
      if (current.length <= MAX_CELL_CHARS) current += text.slice(0, MAX_CELL_CHARS + 1 - current.length);
    },
    onclosetag(name) {
      const tag = local(name);
      if (tag === 't') inText = false;
      else if (tag === 'rPh') phonetic--;
      else if (tag === 'si' && current !== null) {
        strings.push(current);
        chars += current.length;
        current = null;
        if (strings.length > MAX_SHARED_STRINGS)
          throw new SpreadsheetError(
            413,
            `The .xlsx file has more than ${MAX_SHARED_STRINGS.toLocaleString('en-US')} distinct texts: split it into smaller files.`,
          );
        if (chars > MAX_SHARED_STRING_CHARS)
          throw new SpreadsheetError(
            413,
            `The texts of the .xlsx file are longer than ${megabytes(MAX_SHARED_STRING_CHARS)} in all: split it into smaller files.`,
          );
      }
    },
  });
  return strings;
}

/** `B12` → column index 1 (0-based); null when the reference is absent or not a cell reference. */
function columnOf(reference: string | undefined): number | null {
  if (!reference) return null;
  let column = 0;
  let i = 0;
  for (; i < reference.length && i < 4; i++) {
    const code = reference.charCodeAt(i);
    if (code >= 65 && code <= 90) column = column * 26 + (code - 64);
    else if (code >= 97 && code <= 122) column = column * 26 + (code - 96);
    else break;
  }
  return i === 0 ? null : column - 1;
}

/**
 * The first worksheet of the .xlsx file at `file`, row by row. A record carries `overflow` when its
 * row had more than MAX_ROW_CELLS cells or a cell longer than MAX_CELL_CHARS (the caller rejects it).
 */
export async function* readXlsxFile(file: string): AsyncGenerator<FileRecord> {
  const { zip, entries } = await openZip(file);
  try {
    const { sheet, sharedStrings } = await locateParts(zip, entries);
    const strings = sharedStrings ? await readSharedStrings(zip, sharedStrings) : [];

    const ready: FileRecord[] = [];
    let rowNumber = 0;
    let cells: string[] = [];
    let overflow = false;
    let column = -1;
    let cellType = '';
    let value = '';
    let inValue = false;
    let inRow = false;
    const put = (index: number, text: string) => {
      if (index >= MAX_ROW_CELLS) {
        if (text !== '') overflow = true;
        return;
      }
      if (text.length > MAX_CELL_CHARS) overflow = true;
      while (cells.length < index) cells.push('');
      cells[index] = text.slice(0, MAX_CELL_CHARS);
    };
    const handlers: ConstructorParameters<typeof Parser>[0] = {
      onopentag(name, attributes) {
        switch (local(name)) {
          case 'row': {
            const r = Number(attributes.r);
            rowNumber = Number.isInteger(r) && r > rowNumber ? r : rowNumber + 1;
            cells = [];
            overflow = false;
            column = -1;
            inRow = true;
            return;
          }
          case 'c':
            column = columnOf(attributes.r) ?? column + 1;
            cellType = attributes.t ?? 'n';
            value = '';
            return;
          case 'v':
          case 't':
            if (inRow) inValue = true;
            return;
        }
      },
      ontext(text) {
        if (inValue && value.length <= MAX_CELL_CHARS)
          value += text.slice(0, MAX_CELL_CHARS + 1 - value.length);
      },
      onclosetag(name) {
        switch (local(name)) {
          case 'v':
          case 't':
            inValue = false;
            return;
          case 'c': {
            let text = value;
            if (cellType === 's') text = strings[Number(value)] ?? '';
            else if (cellType === 'b') text = value === '1' ? 'true' : 'false';
            put(column, text);
            return;
          }
          case 'row':
            inRow = false;
            ready.push({ line: rowNumber, cells, ...(overflow ? { overflow: true } : {}) });
            return;
        }
      },
    };
    // The parser is fed from a stream while rows are handed out: rows found in one chunk wait in
    // `ready`, so the generator never holds more than one chunk's rows.
    for await (const _ of parseStream(zip, sheet, MAX_XLSX_PART_BYTES, 'worksheet', handlers)) {
      yield* ready.splice(0);
    }
    yield* ready.splice(0);
  } finally {
    zip.close();
  }
}
