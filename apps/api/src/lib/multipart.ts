import { errorCodes } from '@altwise/contracts/errors';
import { type MultipartFileRule, type MultipartForm, textFieldsOf } from '@altwise/contracts/multipart-forms';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, payloadTooLarge } from '../errors.ts';
import { sanitizeFileName } from './file-names.ts';

/**
 * The one reader of the API's multipart forms. A form is read by its declaration in
 * packages/contracts/src/multipart-forms.ts, so the same fault gets the same status, code and
 * wording on every form:
 *
 * | fault                                     | status | code                   |
 * | ----------------------------------------- | ------ | ---------------------- |
 * | not multipart/form-data                   | 415    | UNSUPPORTED_MEDIA_TYPE |
 * | a body that cannot be read or is cut off  | 400    | BAD_REQUEST            |
 * | a field or file the form does not take    | 400    | BAD_REQUEST            |
 * | a required file missing                   | 400    | BAD_REQUEST            |
 * | one file more than the form takes         | 413    | PAYLOAD_TOO_LARGE      |
 * | too many fields or parts                  | 413    | PAYLOAD_TOO_LARGE      |
 * | a file over its size limit                | 413    | PAYLOAD_TOO_LARGE      |
 * | a file whose bytes are not an accepted type | 415  | UNSUPPORTED_MEDIA_TYPE |
 *
 * Files are streamed to the caller's `onFile` as they arrive (nothing is held unless the caller
 * keeps it); their type is judged by their first bytes, never by the name or the claimed type.
 */

/** How many leading bytes are read before a file's type is judged (SVG needs its first 2 KB). */
const HEAD_BYTES = 4096;
const MAX_TEXT_FIELDS = 20;
const MAX_FIELD_BYTES = 16 * 1024;

/** A file of the form as it arrives: its bytes stream through `bytes`, which ends at the file's end. */
export type FormFile = {
  /** The part's field, its alias resolved (`images[]` is `images`). */
  field: string;
  /** The browser's file name, sanitised, or the part's place in the form ("image 2"), for messages. */
  name: string;
  /**
   * The browser's file name, sanitised (no path, control or bidi character, at most 120 characters
   * with its extension kept); empty when it sent none.
   */
  fileName: string;
  /** The media type its first bytes show, one of its rule's `types`. */
  type: string;
  /** The number of this file among its field's parts, from 1. */
  index: number;
  /** Every byte of the file, the first ones included; fails with 413 past the rule's `maxBytes`. */
  bytes: AsyncIterable<Buffer>;
};

export type ReadFormOptions<T> = {
  /** The media type the first bytes of a file of `field` are, or null when none the API knows. */
  sniff: (field: string, head: Buffer) => string | null;
  /** Takes one file, reading `bytes` to its end (or throwing). What it returns is the form's file. */
  onFile: (file: FormFile) => Promise<T>;
  /** Called before a file is read, after it was counted: may refuse it (a 402 for unpaid work). */
  beforeFile?: (field: string, index: number) => void | Promise<void>;
};

export type ReadForm<T> = {
  /** The text fields (last value wins), `orText` file parts excluded. */
  fields: Record<string, string>;
  /** Each file part's field, in the order of the form, as a file (`onFile`'s) or a text value. */
  parts: Record<string, Array<{ file: T } | { text: string }>>;
};

/** The wording of every fault, from the rules of the form; the product spec's own words where it has them. */
export const multipartFaults = {
  notMultipart: () => new AppError(errorCodes.unsupportedMediaType, 'Send the form as multipart/form-data.'),
  unreadable: () =>
    badRequest(
      'The form could not be read: its Content-Type must be multipart/form-data with the boundary its body uses.',
    ),
  truncated: () => badRequest('The form could not be read: the body ends before the form does.'),
  badName: () => badRequest('A form field has a name or value that is not allowed.'),
  unknownField: (name: string, form: MultipartForm) =>
    badRequest(`The form has no field ${quoted(name)}: send ${fieldList(form)}.`, [
      { path: clip(name, 60), message: 'Unknown field' },
    ]),
  tooManyParts: () => payloadTooLarge('The form has too many fields.'),
  tooMany: (field: string, rule: MultipartFileRule) => {
    const message =
      rule.messages?.tooMany ?? `Maximum ${rule.maxCount} ${plural(rule.noun, rule.maxCount)} allowed`;
    return new AppError(errorCodes.payloadTooLarge, message, { errors: [{ path: field, message }] });
  },
  tooLarge: (field: string, rule: MultipartFileRule, name: string) => {
    const message =
      rule.messages?.tooLarge?.(name) ?? `${name} is larger than ${rule.maxBytes / 1024 / 1024}MB`;
    return new AppError(errorCodes.payloadTooLarge, message, { errors: [{ path: field, message }] });
  },
  wrongType: (field: string, rule: MultipartFileRule, name: string) => {
    const message = `${name} is not ${article(typesText(rule.types))} ${rule.noun}.`;
    return new AppError(errorCodes.unsupportedMediaType, message, {
      errors: [{ path: field, message }],
    });
  },
  missing: (field: string, rule: MultipartFileRule) => {
    const message =
      rule.messages?.missing ??
      `Choose ${rule.maxCount === 1 ? article(rule.noun) : `at least one ${rule.noun}`} to send as ${quoted(field)}.`;
    return badRequest(message, [{ path: field, message }]);
  },
};

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const quoted = (name: string) => `"${clip(name.replace(/[\r\n\t"]/g, ' '), 60)}"`;
const plural = (noun: string, count: number) => (count === 1 ? noun : `${noun}s`);
const article = (text: string) => (/^[AEFHILMNORSX]/.test(text) ? `an ${text}` : `a ${text}`);

const typeNames: Record<string, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
  'image/avif': 'AVIF',
  'image/svg+xml': 'SVG',
  'image/tiff': 'TIFF',
  'audio/mpeg': 'MP3',
  'audio/wav': 'WAV',
  'audio/mp4': 'M4A',
  'audio/ogg': 'OGG',
  'audio/flac': 'FLAC',
  'audio/aac': 'AAC',
  'text/csv': 'CSV',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'XLSX',
};

/** "JPEG, PNG or GIF" from the rule's media types. */
export function typesText(types: readonly string[]): string {
  const names = types.map((type) => typeNames[type] ?? type);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

function fieldList(form: MultipartForm): string {
  const names = [...Object.keys(form.files), ...textFieldsOf(form).filter((name) => !form.files[name])];
  return names.map((name) => `"${name}"`).join(', ');
}

/** Busboy's limits for a form: a backstop behind the reader's own counts (one more of each, to name it). */
export function multipartLimits(form: MultipartForm) {
  const rules = Object.values(form.files);
  const files = rules.reduce((sum, rule) => sum + rule.maxCount, 0) + 1;
  const fields = MAX_TEXT_FIELDS + rules.filter((rule) => rule.orText).reduce((n, r) => n + r.maxCount, 0);
  return {
    fileSize: Math.max(...rules.map((rule) => rule.maxBytes)) + 1,
    files,
    fields,
    parts: files + fields,
    fieldNameSize: 100,
    fieldSize: MAX_FIELD_BYTES,
    headerPairs: 100,
  };
}

/** What @fastify/multipart and busboy throw, as the caller's answer; anything else as it is. */
export function toMultipartFault(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return multipartFaults.notMultipart();
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return multipartFaults.tooManyParts();
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return multipartFaults.badName();
    case 'FST_MP_PREMATURE_CLOSE':
      return multipartFaults.truncated();
  }
  if (!(error instanceof Error) || code !== undefined) return error;
  // Busboy reports a broken body with plain errors, told apart by their fixed messages.
  if (error.message === 'Multipart: Boundary not found' || error.message === 'Unsupported Content-Type.')
    return multipartFaults.unreadable();
  if (/unexpected end of (multipart data|form)|terminated early/i.test(error.message))
    return multipartFaults.truncated();
  return error;
}

/** The browser's file name as it may be shown and stored (lib/file-names.ts), else `fallback`. */
function displayName(filename: string | undefined, fallback: string): string {
  return sanitizeFileName(filename) ?? fallback;
}

/** Reads the first HEAD_BYTES of a file (or all of it, if shorter) without losing any. */
async function readHead(
  iterator: AsyncIterator<Buffer>,
): Promise<{ head: Buffer; chunks: Buffer[]; done: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < HEAD_BYTES) {
    const next = await iterator.next();
    if (next.done) return { head: Buffer.concat(chunks), chunks, done: true };
    chunks.push(next.value);
    length += next.value.length;
  }
  return { head: Buffer.concat(chunks).subarray(0, HEAD_BYTES), chunks, done: false };
}

/**
 * Reads `request`'s form by its declaration: text fields into `fields`, each file through the
 * caller's `onFile` as it arrives. Throws the fault's AppError at the first broken rule, after the
 * file being read was let go; what `onFile` already kept is the caller's to remove on a throw.
 */
export async function readMultipartForm<T>(
  request: FastifyRequest,
  form: MultipartForm,
  options: ReadFormOptions<T>,
): Promise<ReadForm<T>> {
  if (!request.isMultipart()) throw multipartFaults.notMultipart();
  const textFields = new Set(textFieldsOf(form));
  const fileOf = new Map<string, string>();
  for (const [field, rule] of Object.entries(form.files)) {
    fileOf.set(field, field);
    for (const alias of rule.aliases ?? []) fileOf.set(alias, field);
  }
  const result: ReadForm<T> = { fields: {}, parts: {} };
  for (const field of Object.keys(form.files)) result.parts[field] = [];
  const count = (field: string) => result.parts[field]?.length ?? 0;

  try {
    // A file over its limit is cut off and marked `truncated` (not thrown), so the reader names it.
    const partsOptions = { limits: multipartLimits(form), throwFileSizeLimit: false };
    const parts = request.parts(partsOptions as Parameters<FastifyRequest['parts']>[0]);
    for await (const part of parts as AsyncIterable<Multipart>) {
      const field = fileOf.get(part.fieldname);
      const rule = field === undefined ? undefined : form.files[field];
      if (part.type === 'field') {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        if (field !== undefined && rule?.orText) {
          const text = value.trim();
          if (!text) continue;
          if (count(field) >= rule.maxCount) throw multipartFaults.tooMany(field, rule);
          result.parts[field]?.push({ text });
        } else if (textFields.has(part.fieldname)) {
          result.fields[part.fieldname] = value;
        } else {
          throw multipartFaults.unknownField(part.fieldname, form);
        }
        continue;
      }
      if (field === undefined || rule === undefined) {
        part.file.resume();
        throw multipartFaults.unknownField(part.fieldname, form);
      }
      if (count(field) >= rule.maxCount) {
        part.file.resume();
        throw multipartFaults.tooMany(field, rule);
      }
      const index = count(field) + 1;
      try {
        await options.beforeFile?.(field, index);
      } catch (error) {
        part.file.resume();
        throw error;
      }
      const file = await readFile(part, field, rule, index, options);
      result.parts[field]?.push({ file });
    }
  } catch (error) {
    throw toMultipartFault(error);
  }

  for (const [field, rule] of Object.entries(form.files))
    if (rule.required && count(field) === 0) throw multipartFaults.missing(field, rule);
  return result;
}

/** Judges one file by its first bytes, then streams it to `onFile`, counting its bytes. */
async function readFile<T>(
  part: MultipartFile,
  field: string,
  rule: MultipartFileRule,
  index: number,
  options: ReadFormOptions<T>,
): Promise<T> {
  const name = displayName(part.filename, rule.maxCount === 1 ? field : `${rule.noun} ${index}`);
  const iterator = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // Leaves the rest of the file unread: the stream is destroyed, busboy stops at it.
  const letGo = async () => {
    await iterator.return?.();
  };
  const { head, chunks, done } = await readHead(iterator);
  const type = options.sniff(field, head);
  if (!type || !rule.types.includes(type)) {
    await letGo();
    throw multipartFaults.wrongType(field, rule, name);
  }
  let size = 0;
  let finished = done;
  const counted = (chunk: Buffer) => {
    size += chunk.length;
    if (size > rule.maxBytes || part.file.truncated) throw multipartFaults.tooLarge(field, rule, name);
    return chunk;
  };
  /** The file's next chunk after the head, or null at its end. */
  const pull = async (): Promise<Buffer | null> => {
    if (finished) return null;
    const next = await iterator.next();
    if (!next.done) return counted(next.value);
    finished = true;
    if (part.file.truncated) throw multipartFaults.tooLarge(field, rule, name);
    return null;
  };
  async function* bytes(): AsyncGenerator<Buffer> {
    for (const chunk of chunks) yield counted(chunk);
    if (finished && part.file.truncated) throw multipartFaults.tooLarge(field, rule, name);
    for (let chunk = await pull(); chunk; chunk = await pull()) yield chunk;
  }
  try {
    const fileName = displayName(part.filename, '');
    const file = await options.onFile({ field, name, fileName, type, index, bytes: bytes() });
    // onFile reads the file to its end; anything it left is drained here, still counted.
    while (await pull());
    return file;
  } catch (error) {
    if (!finished) await letGo();
    throw error;
  }
}
