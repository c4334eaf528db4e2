import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PASS_THROUGH_MAX_BYTES, prepareModelImage } from '../../src/engines/openai/model-image.ts';
import { defaultImageLimits } from '../../src/engines/prepare-image.ts';

const fixture = (name: string) => readFile(join(import.meta.dirname, '..', 'fixtures', 'images', name));

describe('the image a remote model gets', () => {
  it.each([
    ['astronaut.jpg', 'image/jpeg'],
    ['chelsea.jpg', 'image/jpeg'],
  ])('sends a small upright %s as it is, with its own type', async (name, mime) => {
    const bytes = await fixture(name);
    const image = await prepareModelImage(bytes);
    expect(image.passedThrough).toBe(true);
    expect(image.mime).toBe(mime);
    expect(image.data.equals(bytes)).toBe(true);
    expect(image.stats.colours.length).toBeGreaterThan(0);
  });

  it.each(['png', 'webp'] as const)('sends a small opaque %s as it is', async (format) => {
    const bytes = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#c0392b' } })
      .toFormat(format)
      .toBuffer();
    const image = await prepareModelImage(bytes);
    expect(image).toMatchObject({ passedThrough: true, mime: `image/${format}` });
    expect(image.data.equals(bytes)).toBe(true);
    expect(image.stats.colours).toEqual(['red']);
    expect(image.original).toMatchObject({ format, width: 96, height: 64, hasAlpha: false });
  });

  it('shrinks a large JPEG to the long side any model sees', async () => {
    const large = await sharp(await fixture('rocket.jpg'))
      .resize(3000)
      .jpeg()
      .toBuffer();
    const image = await prepareModelImage(large);
    expect(image.passedThrough).toBe(false);
    expect(image.mime).toBe('image/jpeg');
    const sent = await sharp(image.data).metadata();
    expect(Math.max(sent.width ?? 0, sent.height ?? 0)).toBe(defaultImageLimits.maxSide);
    expect(image.original).toMatchObject({ width: 3000, format: 'jpeg' });
  });

  it('re-encodes a small JPEG above the byte budget', async () => {
    const noisy = await sharp(
      Buffer.from(Array.from({ length: 1000 * 1000 * 3 }, (_, i) => (i * 7919) % 256)),
      {
        raw: { width: 1000, height: 1000, channels: 3 },
      },
    )
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(noisy.byteLength).toBeGreaterThan(PASS_THROUGH_MAX_BYTES);
    const image = await prepareModelImage(noisy);
    expect(image.passedThrough).toBe(false);
    expect(image.data.byteLength).toBeLessThan(noisy.byteLength);
  });

  it('flattens a transparent logo rather than sending its alpha, and counts its transparent share', async () => {
    const image = await prepareModelImage(await fixture('logo.png'));
    expect(image.passedThrough).toBe(false);
    expect(image.mime).toBe('image/jpeg');
    expect(image.original.hasAlpha).toBe(true);
    expect(image.transparentShare).toBeGreaterThan(0.1);
  });

  it('turns a rotated JPEG upright instead of sending its EXIF orientation', async () => {
    const rotated = await sharp(await fixture('chelsea.jpg'))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const image = await prepareModelImage(rotated);
    expect(image.passedThrough).toBe(false);
    const sent = await sharp(image.data).metadata();
    expect([sent.width, sent.height]).toEqual([300, 451]);
    expect(image.original).toMatchObject({ width: 300, height: 451 });
  });

  it('refuses a truncated JPEG and a file that is not an image', async () => {
    const bytes = await fixture('astronaut.jpg');
    await expect(prepareModelImage(bytes.subarray(0, bytes.length / 2))).rejects.toMatchObject({
      code: 'NOT_AN_IMAGE',
    });
    await expect(prepareModelImage(await fixture('not-an-image.png'))).rejects.toMatchObject({
      code: 'NOT_AN_IMAGE',
    });
  });
});
