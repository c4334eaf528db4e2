import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorCodes } from '@altwise/contracts/errors';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '@altwise/contracts/generation';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, payloadTooLarge } from '../../errors.ts';
import { createSandbox, SandboxLimitError, SandboxTaskError } from '../../lib/sandbox.ts';
import type { ImportCheck, ImportRow } from './check-import.ts';
import { openRowSpool } from './import-spool.ts';
import type { ImportHandlers } from './import-worker.ts';

export type { ImportCheck, ImportRow } from './check-import.ts';

export type ImportReading = ImportCheck & { fields: Record<string, string> };

/** Busboy's limits for POST /images/import-csv: one file of at most 50 MB and a few fields. */
export const importLimits = {
  fileSize: MAX_IMPORT_BYTES,
  files: 1,
  fields: 10,
  fieldSize: 16 * 1024,
  parts: 12,
};

const tooLarge = () =>
  payloadTooLarge(
    `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB: split it into files of at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows.`,
  );
/**
 * Where import files are read and checked (import-worker.ts): one thread, created on the first
 * import and stopped when idle. A file may take 2 minutes of that thread and 384 MB of its heap; an
 * .xlsx zip bomb or a pathological CSV stops there with a 413 in words, and the API answers others
 * meanwhile (issue 22).
 */
let sandbox: ReturnType<typeof createSandbox<ImportHandlers>> | undefined;
const importSandbox = () => {
  sandbox ??= createSandbox<ImportHandlers>(new URL('./import-worker.ts', import.meta.url), {
    size: 1,
    timeoutMs: 120_000,
    maxOldGenerationMb: 384,
    maxQueue: 16,
  });
  return sandbox;
};

/** Stops the import thread (tests and shutdown). */
export async function closeImportSandbox(): Promise<void> {
  const open = sandbox;
  sandbox = undefined;
  await open?.close();
}

/** Checks a spooled import file in the import thread; every failure is the caller's answer in words. */
async function checkImportFile(
  file: string,
  format: 'csv' | 'xlsx',
  options: { englishOnly: boolean },
): Promise<ImportCheck> {
  let output: Awaited<ReturnType<ImportHandlers['checkImportFile']>>;
  try {
    output = await importSandbox().run('checkImportFile', { file, format, englishOnly: options.englishOnly });
  } catch (error) {
    if (error instanceof SandboxLimitError && (error.limit === 'time' || error.limit === 'memory'))
      throw payloadTooLarge(
        `The file is too large or too complex to read: ${error.limit === 'time' ? 'reading it took longer than 2 minutes' : 'reading it needs more memory than a file may use'}. Split it into smaller files. Nothing was imported.`,
      );
    if (
      error instanceof SandboxTaskError ||
      (error instanceof SandboxLimitError && error.limit === 'crashed')
    )
      throw badRequest(
        `The ${format === 'xlsx' ? '.xlsx' : 'CSV'} file could not be read. Save it again from your spreadsheet app and retry. Nothing was imported.`,
        [{ path: 'file', message: 'The file could not be read' }],
      );
    throw error;
  }
  if (!output.ok) {
    if (output.code)
      throw new AppError(output.status, output.code, output.message, { errors: output.errors });
    throw output.status === 413
      ? payloadTooLarge(`${output.message} Nothing was imported.`)
      : badRequest(`${output.message} Nothing was imported.`, [{ path: 'file', message: output.message }]);
  }
  return {
    accepted: openRowSpool<ImportRow>(output.spoolFile, output.count),
    withoutLanguage: output.withoutLanguage,
    duplicates: output.duplicates,
    rejected: output.rejected,
    rejectedTotal: output.rejectedTotal,
  };
}

/** Busboy signals a file over `fileSize` by an error on its stream (or by `truncated`). */
async function* guardSize(file: Readable & { truncated?: boolean }): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of file) yield chunk as Buffer;
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
  }
  if (file.truncated) throw tooLarge();
}

function isXlsx(fileName: string, mimeType: string): boolean {
  return (
    fileName.toLowerCase().endsWith('.xlsx') ||
    mimeType === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
  );
}

function multipartError(error: unknown): unknown {
  switch ((error as { code?: string } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_FILES_LIMIT':
      return badRequest('Send one file, as "file".');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('Too many form fields: send file, chatGptPrompt and language only.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError(415, errorCodes.unsupportedMediaType, 'Send the file as multipart/form-data.');
    default:
      return error;
  }
}

/**
 * Reads POST /images/import-csv's multipart form: its text fields, and its one `file` (CSV, or
 * .xlsx by name or type) checked row by row as it streams in. On success the caller removes
 * `accepted` once it has stored the rows; on an error it is already removed.
 */
export async function readImport(
  request: FastifyRequest,
  options: { englishOnly: boolean },
): Promise<ImportReading> {
  const fields: Record<string, string> = {};
  let upload: { file: string; format: 'csv' | 'xlsx' } | undefined;
  const dir = await mkdtemp(path.join(tmpdir(), 'altwise-upload-'));
  try {
    try {
      for await (const part of request.parts({ limits: importLimits })) {
        if (part.type === 'field') {
          if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== 'file' || upload) {
          part.file.resume();
          throw badRequest(
            `Unexpected file field "${part.fieldname.slice(0, 60)}": send one file, as "file".`,
          );
        }
        // The file goes to disk as it arrives; it is read and checked in the import thread.
        const file = path.join(dir, 'upload');
        await pipeline(guardSize(part.file), createWriteStream(file));
        upload = { file, format: isXlsx(part.filename ?? '', part.mimetype) ? 'xlsx' : 'csv' };
      }
    } catch (error) {
      throw multipartError(error);
    }
    if (!upload)
      throw badRequest('Choose a CSV or .xlsx file to import, sent as "file".', [
        { path: 'file', message: 'Choose a CSV or .xlsx file' },
      ]);
    const reading = await checkImportFile(upload.file, upload.format, options);
    return { fields, ...reading };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
