import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  EMBEDDED_SCAN_BYTES,
  MAX_EMBEDDED_CHARS,
  readEmbeddedText,
} from '../../src/engines/embedded-text.ts';
import { imageWithEmbeddedText } from '../embedded-fixtures.ts';

describe('readEmbeddedText', () => {
  for (const format of ['jpeg', 'png', 'webp'] as const) {
    it(`reads the IPTC alt text and extended description from a ${format}`, async () => {
      const bytes = await imageWithEmbeddedText(
        {
          altText: 'Red kite gliding over a green hill',
          extendedDescription: 'The kite has a long forked tail; the hill is covered in heather.',
          description: 'Kite festival, Sunday',
        },
        format,
      );
      expect(await readEmbeddedText(bytes)).toEqual({
        altText: 'Red kite gliding over a green hill',
        extendedDescription: 'The kite has a long forked tail; the hill is covered in heather.',
        description: 'Kite festival, Sunday',
        source: 'iptc-alt',
      });
    });

    it(`reads EXIF ImageDescription from a ${format} when nothing else is there`, async () => {
      const bytes = await imageWithEmbeddedText(
        { exifDescription: 'Harbour at dawn with fishing boats' },
        format,
      );
      expect(await readEmbeddedText(bytes)).toEqual({
        description: 'Harbour at dawn with fishing boats',
        source: 'exif-description',
      });
    });
  }

  it('prefers XMP dc:description over EXIF ImageDescription', async () => {
    const bytes = await imageWithEmbeddedText({
      description: 'Two cyclists on a bridge',
      exifDescription: 'Other',
    });
    expect(await readEmbeddedText(bytes)).toEqual({
      description: 'Two cyclists on a bridge',
      source: 'xmp-description',
    });
  });

  it('keeps an extended description alone as iptc-extended', async () => {
    const bytes = await imageWithEmbeddedText({ extendedDescription: 'Sales rose from 10 to 40 units.' });
    expect(await readEmbeddedText(bytes)).toEqual({
      extendedDescription: 'Sales rose from 10 to 40 units.',
      source: 'iptc-extended',
    });
  });

  for (const junk of [
    'OLYMPUS DIGITAL CAMERA',
    'SONY DSC',
    'DSC_0042.JPG',
    'IMG_2231',
    'image',
    '   ',
    'Created with GIMP',
  ])
    it(`rejects the junk description "${junk}"`, async () => {
      const bytes = await imageWithEmbeddedText({ exifDescription: junk, description: junk });
      expect(await readEmbeddedText(bytes)).toBeNull();
    });

  it("rejects a description that is only the camera's make", async () => {
    const bytes = await imageWithEmbeddedText({ exifDescription: 'ACME Optics', make: 'ACME Optics' });
    expect(await readEmbeddedText(bytes)).toBeNull();
  });

  it('removes NUL and control characters and caps a 5,000-character alt text at 1,000', async () => {
    const bytes = await imageWithEmbeddedText({
      altText: `Lighthouse\u0001 on\u0007 a cliff ${'with waves '.repeat(500)}`,
      exifDescription: 'Beach\u0007\u001b huts',
    });
    const read = await readEmbeddedText(bytes);
    expect(read?.altText?.startsWith('Lighthouse on a cliff with waves')).toBe(true);
    expect(read?.altText?.length).toBe(MAX_EMBEDDED_CHARS);
    expect(read?.altText).toMatch(/…$/);
    expect(read?.description).toBe('Beach huts');
  });

  it('gives null for an image without metadata', async () => {
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    expect(await readEmbeddedText(plain)).toBeNull();
  });

  it('gives null, without throwing, for hostile input: truncated files, random bytes, a lying PNG chunk', async () => {
    const full = await imageWithEmbeddedText({ altText: 'A cat asleep on a chair' });
    const png = await imageWithEmbeddedText({ altText: 'A cat asleep on a chair' }, 'png');
    const lyingPng = Buffer.from(png);
    lyingPng.writeUInt32BE(0x7fffffff, 8); // IHDR claims 2 GB
    const inputs = [
      full.subarray(0, 40),
      png.subarray(0, 60),
      new Uint8Array(0),
      Buffer.from('RIFF\xff\xff\xff\xffWEBPXMP \xff\xff\xff\x7f', 'latin1'),
      Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256),
      lyingPng,
    ];
    for (const input of inputs) await expect(readEmbeddedText(input)).resolves.toBeNull();
  });

  it(`reads nothing past the first ${EMBEDDED_SCAN_BYTES / 1024} KB`, async () => {
    const xmpLate = Buffer.concat([
      Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'),
      Buffer.from('JUNK', 'latin1'),
      Buffer.from(Uint32Array.of(EMBEDDED_SCAN_BYTES).buffer),
      Buffer.alloc(EMBEDDED_SCAN_BYTES),
      Buffer.from('XMP \x10\0\0\0<x:xmpmeta/>    ', 'latin1'),
    ]);
    expect(await readEmbeddedText(xmpLate)).toBeNull();
  });
});
