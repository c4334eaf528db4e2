import { errorResponseSchema } from '@altwise/contracts/errors';
import {
  createReelForm,
  editImageForm,
  importCsvForm,
  type MultipartForm,
  styledCaptionForm,
  uploadAndGenerateForm,
} from '@altwise/contracts/multipart-forms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationBatches } from '../src/db/tables/generation-batches.ts';
import { storedFiles } from '../src/db/tables/stored-files.ts';
import { balanceOf, createUser, type TestUser } from './billing-helpers.ts';
import { multipartBody } from './generation-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * The five upload forms are read by one multipart reader, so each fault gets the same
 * status and code on every form, and nothing is stored or charged.
 */

let t: TestApp;
let user: TestUser;
const CREDITS = 1_000;
beforeAll(async () => {
  t = await buildTestApp();
  user = await createUser(t, CREDITS);
});
afterAll(() => t.cleanup());

type Part = Parameters<typeof multipartBody>[0][number];

const pad = (head: Buffer, size = 64) =>
  Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 7)]);
const jpeg = pad(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]));
const mp3 = pad(Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'));
const csv = Buffer.from('image_url\nhttps://example.com/a.png\n');
/** A PDF: none of the forms takes it, by its bytes, whatever its name and claimed type say. */
const pdf = Buffer.from('%PDF-1.7\n%\u0000\u0001\u0002\u0003 a binary document\n', 'latin1');

const file = (name: string, fileName: string, bytes: Buffer, contentType = 'image/jpeg'): Part => ({
  name,
  fileName,
  contentType,
  bytes,
});

type FormCase = {
  url: string;
  form: MultipartForm;
  /** The form's file part and a valid file for it. */
  field: string;
  valid: (fileName: string) => Part;
  /** The other parts a complete form has (text fields, the reel's music). */
  rest: Part[];
};

const forms: FormCase[] = [
  {
    url: '/api/v1/images/upload-and-generate',
    form: uploadAndGenerateForm,
    field: 'images',
    valid: (name) => file('images', name, jpeg),
    rest: [{ name: 'chatGptPrompt', value: 'short' }],
  },
  {
    url: '/api/v1/images/import-csv',
    form: importCsvForm,
    field: 'file',
    valid: (name) => file('file', name, csv, 'text/csv'),
    rest: [{ name: 'language', value: 'en' }],
  },
  {
    url: '/api/v1/images/edit-image',
    form: editImageForm,
    field: 'image',
    valid: (name) => file('image', name, jpeg),
    rest: [{ name: 'prompt', value: 'black and white' }],
  },
  {
    url: '/api/v1/images/generate-styled-caption',
    form: styledCaptionForm,
    field: 'image',
    valid: (name) => file('image', name, jpeg),
    rest: [{ name: 'prompt', value: 'playful' }],
  },
  {
    url: '/api/v1/images/createReels',
    form: createReelForm,
    field: 'images',
    valid: (name) => file('images', name, jpeg),
    rest: [file('audioFile', 'tone.mp3', mp3, 'audio/mpeg'), { name: 'skipCaptioning', value: 'true' }],
  },
];

type Fault = {
  status: number;
  code: string;
  request: (form: FormCase) => { headers: Record<string, string>; payload: string | Buffer };
};

const multipart = (parts: Part[]) => multipartBody(parts);

const faults: Record<string, Fault> = {
  'a JSON body (not multipart)': {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    request: () => ({ headers: { 'content-type': 'application/json' }, payload: '{"prompt":"x"}' }),
  },
  'an octet-stream body (not multipart)': {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    request: () => ({ headers: { 'content-type': 'application/octet-stream' }, payload: jpeg }),
  },
  'a body cut off in the middle of a file': {
    status: 400,
    code: 'BAD_REQUEST',
    request: (form) => {
      const body = multipart([...form.rest, form.valid('photo.jpg')]);
      return { headers: body.headers, payload: body.payload.subarray(0, body.payload.length - 40) };
    },
  },
  'an unknown text field': {
    status: 400,
    code: 'BAD_REQUEST',
    request: (form) => multipart([{ name: 'isAdmin', value: 'true' }, ...form.rest, form.valid('photo.jpg')]),
  },
  'a file in an unknown field': {
    status: 400,
    code: 'BAD_REQUEST',
    request: (form) => multipart([...form.rest, file('attachment', 'photo.jpg', jpeg), form.valid('a.jpg')]),
  },
  'no file in the required field': {
    status: 400,
    code: 'BAD_REQUEST',
    request: (form) => multipart(form.rest),
  },
  'one file more than the form takes': {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    request: (form) => {
      const rule = form.form.files[form.field];
      const count = (rule?.maxCount ?? 1) + 1;
      return multipart([...form.rest, ...Array.from({ length: count }, (_, i) => form.valid(`p${i}.jpg`))]);
    },
  },
  'a file one byte over its limit': {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    request: (form) => {
      const limit = form.form.files[form.field]?.maxBytes ?? 0;
      const valid = form.valid('huge.jpg') as Extract<Part, { bytes: Uint8Array }>;
      const bytes = Buffer.concat([
        Buffer.from(valid.bytes),
        Buffer.alloc(limit + 1 - valid.bytes.length, 10),
      ]);
      return multipart([...form.rest, { ...valid, bytes }]);
    },
  },
  'a PDF named like an accepted file': {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    request: (form) => {
      const valid = form.valid('photo.jpg') as Extract<Part, { bytes: Uint8Array }>;
      return multipart([...form.rest, { ...valid, bytes: pdf }]);
    },
  },
};

describe('one multipart reader: the same fault, the same answer on every form', () => {
  for (const [what, fault] of Object.entries(faults))
    describe(`${what} → ${fault.status} ${fault.code}`, () => {
      for (const form of forms)
        it(`to ${form.url}`, async () => {
          const { headers, payload } = fault.request(form);
          const response = await t.app.inject({
            method: 'POST',
            url: form.url,
            headers: { ...user.auth, ...headers },
            payload,
          });
          expect(response.statusCode, response.body.slice(0, 300)).toBe(fault.status);
          const body = errorResponseSchema.parse(response.json());
          expect(body.code).toBe(fault.code);
          expect(body.message.length).toBeGreaterThan(10);
        });
    });

  it('words each fault the same way on forms without the product spec wording of their own', async () => {
    const answers = await Promise.all(
      forms.map(async (form) => {
        const { headers, payload } = faults['an unknown text field']?.request(form) ?? multipart([]);
        const response = await t.app.inject({
          method: 'POST',
          url: form.url,
          headers: { ...user.auth, ...headers },
          payload,
        });
        return response.json().message as string;
      }),
    );
    for (const message of answers) expect(message).toMatch(/^The form has no field "isAdmin": send "/);
  });

  it('stores nothing and charges nothing for any of these faults', async () => {
    expect(await balanceOf(t, user)).toBe(CREDITS);
    const { db } = t.app.deps.database;
    expect(await db.select().from(storedFiles)).toEqual([]);
    expect(await db.select().from(generationBatches)).toEqual([]);
  });
});
