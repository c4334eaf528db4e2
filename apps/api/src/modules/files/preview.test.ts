import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makePreview, PREVIEW_MAX_SIDE } from './preview.ts';

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } });

describe('makePreview', () => {
  it('turns a camera JPEG with EXIF orientation 6 upright, ≤ 320 px, as WebP without EXIF or ICC', async () => {
    // Stored 400 × 200 with "rotate 90° clockwise to display": shown 200 × 400.
    const jpeg = await photo(400, 200).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const preview = await makePreview(jpeg);
    if (!preview) throw new Error('no preview');
    const meta = await sharp(preview).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 160, height: PREVIEW_MAX_SIDE });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(meta.icc).toBeUndefined();
  });

  it('never enlarges a small icon', async () => {
    const preview = await makePreview(await photo(24, 16).png().toBuffer());
    expect(await sharp(preview ?? Buffer.alloc(0)).metadata()).toMatchObject({ width: 24, height: 16 });
  });

  it('keeps the first frame of an animated GIF only', async () => {
    const frame = (background: string) =>
      sharp({ create: { width: 40, height: 120, channels: 3, background } })
        .png()
        .toBuffer();
    const animated = await sharp([await frame('#0a0'), await frame('#a00')], { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    const preview = await makePreview(animated);
    const meta = await sharp(preview ?? Buffer.alloc(0)).metadata();
    expect(meta).toMatchObject({ width: 40, height: 120 });
    expect(meta.pages).toBeUndefined();
  });

  it('answers null, not an error, for hostile bytes: empty, a PNG signature alone, HTML, a JPEG of noise', async () => {
    const inputs = [
      Buffer.alloc(0),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('<!doctype html><script>alert(1)</script>'),
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(2000, 7)]),
    ];
    for (const input of inputs) expect(await makePreview(input)).toBeNull();
  });
});
