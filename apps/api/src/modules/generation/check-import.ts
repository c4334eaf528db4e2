import {
  canonicalLanguage,
  type ImportColumn,
  importColumns,
  isEnglish,
  keywordsSchema,
  MAX_IMPORT_ROWS,
  MAX_LISTED_REJECTIONS,
  offlineLanguageMessage,
  splitKeywords,
} from '@altwise/contracts/generation';
import { normalizeImageUrl } from '@altwise/contracts/image-urls';
import { badRequest, payloadTooLarge } from '../../errors.ts';
import { type FileRecord, MAX_CELL_CHARS, MAX_ROW_CELLS } from './import-file.ts';
import type { RowSpool } from './import-spool.ts';

/**
 * The checks of an import file's rows (ADR 031), run in the import sandbox's thread
 * (import-worker.ts) on a file the request has already spooled to disk.
 */

/** One accepted row of an import file, ready to become a batch item. */
export type ImportRow = {
  line: number;
  src: string;
  externalId: string | null;
  pageUrl: string | null;
  existingAlt: string | null;
  caption: string | null;
  keywords: string[] | null;
  language: string | null;
};

/** What checking an import file found: its accepted rows are in `accepted`, not in memory. */
export type ImportCheck = {
  accepted: RowSpool<ImportRow>;
  /** Accepted rows without a language of their own (they take the form's or the account's). */
  withoutLanguage: number;
  duplicates: number;
  rejected: { line: number; reason: string }[];
  rejectedTotal: number;
};

const MAX_ID_CHARS = 200;
const MAX_TEXT_CHARS = 2000;
const MAX_URL_CHARS = 2048;

export const tooManyRows = () =>
  payloadTooLarge(
    `The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows: split it and import each part. Nothing was imported.`,
  );

/** An http(s) URL in its normal form, or the reason it is not one. */
function checkUrl(raw: string, column: string): { url: string } | { reason: string } {
  if (!raw) return { reason: `${column} is empty` };
  if (raw.length > MAX_URL_CHARS) return { reason: `${column} is longer than ${MAX_URL_CHARS} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { reason: `${column} is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { reason: `${column} must start with http:// or https:// (not ${url.protocol})` };
  // x.png and x.png#frag are one image: one row, one credit.
  return { url: normalizeImageUrl(url) };
}

/** Maps the header row to column positions; 400 naming an unknown, repeated or missing column. */
function readHeader(cells: string[]): Map<ImportColumn, number> {
  const columns = new Map<ImportColumn, number>();
  cells.forEach((cell, index) => {
    const name = cell.trim().toLowerCase();
    if (!name && index === cells.length - 1 && index > 0) return; // a trailing comma
    if (!(importColumns as readonly string[]).includes(name))
      throw badRequest(
        `Unknown column "${cell.trim().slice(0, 60)}" in the header: use ${importColumns.join(', ')}.`,
        [{ path: 'file', message: `Unknown column "${cell.trim().slice(0, 60)}"` }],
      );
    if (columns.has(name as ImportColumn))
      throw badRequest(`The column "${name}" appears twice in the header.`, [
        { path: 'file', message: `Column "${name}" appears twice` },
      ]);
    columns.set(name as ImportColumn, index);
  });
  if (!columns.has('image_url'))
    throw badRequest('The header has no "image_url" column: the first row must name the columns.', [
      { path: 'file', message: 'Missing column "image_url"' },
    ]);
  return columns;
}

/**
 * Checks the rows of an import file as they stream in. Every row is accepted, counted as a
 * duplicate (an image_url an earlier row had), or rejected with its line and reason; accepted rows
 * go to `accepted`, a file on disk, so memory holds only the image URLs seen (for duplicates). More
 * than MAX_IMPORT_ROWS data rows is a 413. The caller removes `accepted` whatever happens.
 */
export async function checkImportRecords(
  records: AsyncIterable<FileRecord>,
  options: { englishOnly: boolean },
  accepted: RowSpool<ImportRow>,
): Promise<ImportCheck> {
  let columns: Map<ImportColumn, number> | undefined;
  const seen = new Set<string>();
  let withoutLanguage = 0;
  const rejected: { line: number; reason: string }[] = [];
  let rejectedTotal = 0;
  let duplicates = 0;
  let dataRows = 0;
  const reject = (line: number, reason: string) => {
    rejectedTotal++;
    if (rejected.length < MAX_LISTED_REJECTIONS) rejected.push({ line, reason });
  };

  for await (const record of records) {
    // Blank lines (and rows whose cells are all empty) are skipped, not counted.
    if (!record.overflow && record.cells.every((cell) => cell.trim() === '')) continue;
    if (!columns) {
      if (record.overflow)
        throw badRequest(
          `The header row is too long: it must name the columns (${importColumns.join(', ')}), each once.`,
          [{ path: 'file', message: 'The header row is too long' }],
        );
      columns = readHeader(record.cells);
      continue;
    }
    dataRows++;
    if (dataRows > MAX_IMPORT_ROWS) throw tooManyRows();
    if (record.overflow) {
      reject(
        record.line,
        `The row has more than ${MAX_ROW_CELLS} cells or a cell longer than ${MAX_CELL_CHARS.toLocaleString('en-US')} characters`,
      );
      continue;
    }
    if (record.cells.some((text) => text.includes('\u0000'))) {
      reject(record.line, 'The row contains a NUL character (U+0000), which text cannot hold');
      continue;
    }
    const cell = (column: ImportColumn): string => {
      const index = columns?.get(column);
      return index === undefined ? '' : (record.cells[index] ?? '').trim();
    };
    if (record.cells.length > columns.size && record.cells.slice(columns.size).some((c) => c.trim())) {
      reject(record.line, `The row has ${record.cells.length} cells; the header names ${columns.size}`);
      continue;
    }
    const image = checkUrl(cell('image_url'), 'image_url');
    if ('reason' in image) {
      reject(record.line, image.reason);
      continue;
    }
    const rawPage = cell('page_url');
    const page = rawPage ? checkUrl(rawPage, 'page_url') : undefined;
    if (page && 'reason' in page) {
      reject(record.line, page.reason);
      continue;
    }
    const externalId = cell('id');
    if (externalId.length > MAX_ID_CHARS) {
      reject(record.line, `id is longer than ${MAX_ID_CHARS} characters`);
      continue;
    }
    const existingAlt = cell('existing_alt');
    const caption = cell('caption');
    if (existingAlt.length > MAX_TEXT_CHARS || caption.length > MAX_TEXT_CHARS) {
      reject(record.line, `existing_alt and caption must be at most ${MAX_TEXT_CHARS} characters`);
      continue;
    }
    const keywords = keywordsSchema.safeParse(splitKeywords(cell('keywords')));
    if (!keywords.success) {
      reject(record.line, keywords.error.issues[0]?.message ?? 'keywords are not valid');
      continue;
    }
    const rawLanguage = cell('language');
    const language = rawLanguage ? canonicalLanguage(rawLanguage) : null;
    if (rawLanguage && !language) {
      reject(
        record.line,
        `language "${rawLanguage.slice(0, 40)}" is not a BCP 47 tag such as en, de or pt-BR`,
      );
      continue;
    }
    if (language && options.englishOnly && !isEnglish(language)) {
      reject(record.line, offlineLanguageMessage);
      continue;
    }
    if (seen.has(image.url)) {
      duplicates++;
      continue;
    }
    seen.add(image.url);
    if (!language) withoutLanguage++;
    await accepted.write({
      line: record.line,
      src: image.url,
      externalId: externalId || null,
      pageUrl: page && 'url' in page ? page.url : null,
      existingAlt: existingAlt || null,
      caption: caption || null,
      keywords: keywords.data.length > 0 ? keywords.data : null,
      language,
    });
  }
  if (!columns)
    throw badRequest('The file is empty: its first row must name the columns, with "image_url" among them.', [
      { path: 'file', message: 'Missing column "image_url"' },
    ]);
  await accepted.finish();
  return { accepted, withoutLanguage, duplicates, rejected, rejectedTotal };
}
