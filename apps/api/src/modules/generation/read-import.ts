import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { importCsvForm, XLSX_MEDIA_TYPE } from '@altwise/contracts/multipart-forms';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, payloadTooLarge } from '../../errors.ts';
import { readMultipartForm } from '../../lib/multipart.ts';
import { createSandbox, SandboxLimitError, SandboxTaskError } from '../../lib/sandbox.ts';
import type { ImportCheck, ImportRow } from './check-import.ts';
import { openRowSpool } from './import-spool.ts';
import type { ImportHandlers } from './import-worker.ts';

export type { ImportCheck, ImportRow } from './check-import.ts';

export type ImportReading = ImportCheck & { fields: Record<string, string> };

/**
 * Where import files are read and checked (import-worker.ts): one thread, created on the first
 * import and stopped when idle. A file may take 2 minutes of that thread and 384 MB of its heap; an
 * .xlsx zip bomb or a pathological CSV stops there with a 413 in words, and the API answers others
 * meanwhile.
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
    if (output.code) throw new AppError(output.code, output.message, { errors: output.errors });
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

/** First bytes of binary files people send by mistake: PDF, PNG, JPEG, GIF, gzip, RIFF (WebP), 7z, RAR. */
const binaryMagic = [
  '%PDF-',
  '\x89PNG',
  '\xFF\xD8\xFF',
  'GIF8',
  '\x1F\x8B',
  'RIFF',
  "7z\xBC\xAF'\x1C",
  'Rar!',
].map((magic) => Buffer.from(magic, 'latin1'));

/**
 * An import file's type by its first bytes: a zip (an .xlsx workbook), or text (CSV); null for
 * anything else: a known binary format, or NUL bytes in more than a tenth of the head (an image,
 * UTF-16). A stray NUL inside a CSV cell is text, rejected with its row (check-import.ts).
 */
export function sniffImportFile(head: Buffer): string | null {
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return XLSX_MEDIA_TYPE;
  if (binaryMagic.some((magic) => head.subarray(0, magic.length).equals(magic))) return null;
  let nuls = 0;
  for (const byte of head) if (byte === 0) nuls++;
  if (nuls * 10 > head.length) return null;
  return 'text/csv';
}

/**
 * Reads POST /images/import-csv's multipart form with the one multipart reader: its text fields,
 * and its one `file` (CSV, or .xlsx by its bytes), spooled to disk as it arrives and then read and
 * checked in the import thread. On success the caller removes `accepted` once it has stored the
 * rows; on an error nothing is left behind.
 */
export async function readImport(
  request: FastifyRequest,
  options: { englishOnly: boolean },
): Promise<ImportReading> {
  const dir = await mkdtemp(path.join(tmpdir(), 'altwise-upload-'));
  try {
    const form = await readMultipartForm(request, importCsvForm, {
      sniff: (_field, head) => sniffImportFile(head),
      onFile: async (file) => {
        const spooled = path.join(dir, 'upload');
        await pipeline(Readable.from(file.bytes), createWriteStream(spooled));
        return {
          file: spooled,
          format: file.type === XLSX_MEDIA_TYPE ? ('xlsx' as const) : ('csv' as const),
        };
      },
    });
    const upload = form.parts.file?.[0];
    if (!upload || !('file' in upload)) throw new Error('The import form was read without its file.');
    const reading = await checkImportFile(upload.file.file, upload.file.format, options);
    return { fields: form.fields, ...reading };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
