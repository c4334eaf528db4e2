import { createReadStream } from 'node:fs';
import type { ErrorCode } from '@altwise/contracts/errors';
import { AppError, type FieldError } from '../../errors.ts';
import { serveSandbox } from '../../lib/sandbox.ts';
import { checkImportRecords, type ImportRow } from './check-import.ts';
import { readCsvRecords } from './import-file.ts';
import { createRowSpool } from './import-spool.ts';
import { readXlsxFile, SpreadsheetError } from './read-xlsx.ts';

/**
 * The import sandbox's thread (lib/sandbox.ts): reads a spooled CSV or .xlsx file, checks its rows
 * and writes the accepted ones to a spool of its own, so a hostile spreadsheet costs this thread's
 * time and memory, never the API's event loop. Expected refusals come back as values (an error's
 * status and words), anything else as a thrown error the main thread answers with a 400 in words.
 */

export type CheckImportInput = { file: string; format: 'csv' | 'xlsx'; englishOnly: boolean };

export type CheckImportOutput =
  | {
      ok: true;
      spoolFile: string;
      count: number;
      withoutLanguage: number;
      duplicates: number;
      rejected: { line: number; reason: string }[];
      rejectedTotal: number;
    }
  | { ok: false; status: number; code: ErrorCode | null; message: string; errors?: FieldError[] };

async function checkImportFile(input: CheckImportInput): Promise<CheckImportOutput> {
  const records =
    input.format === 'xlsx' ? readXlsxFile(input.file) : readCsvRecords(createReadStream(input.file));
  const spool = await createRowSpool<ImportRow>();
  try {
    const check = await checkImportRecords(records, { englishOnly: input.englishOnly }, spool);
    return {
      ok: true,
      spoolFile: spool.file,
      count: spool.count,
      withoutLanguage: check.withoutLanguage,
      duplicates: check.duplicates,
      rejected: check.rejected,
      rejectedTotal: check.rejectedTotal,
    };
  } catch (error) {
    await spool.remove();
    if (error instanceof AppError)
      return {
        ok: false,
        status: error.statusCode,
        code: error.code,
        message: error.message,
        errors: error.errors,
      };
    if (error instanceof SpreadsheetError)
      return { ok: false, status: error.status, code: null, message: error.message };
    throw error;
  }
}

const handlers = { checkImportFile };
export type ImportHandlers = typeof handlers;

serveSandbox(handlers);
