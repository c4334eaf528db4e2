import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { EngineInputError } from '../../src/engines/errors.ts';
import { defaultImageLimits, prepareImage, sanitiseSvg } from '../../src/engines/prepare-image.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'images');

async function pixelAt(image: { rgb: Buffer; width: number }, x: number, y: number): Promise<number[]> {
  const i = (y * image.width + x) * 3;
  return [image.rgb[i] ?? -1, image.rgb[i + 1] ?? -1, image.rgb[i + 2] ?? -1];
}

describe('prepareImage', () => {
  it('honours EXIF orientation', async () => {
    // A 200×100 landscape, stored with orientation 6 (rotate 90° clockwise to view).
    const stored = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#ff0000' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const prepared = await prepareImage(stored);
    expect([prepared.width, prepared.height]).toEqual([100, 200]);
    expect([prepared.original.width, prepared.original.height]).toEqual([100, 200]);
  });

  it('takes the first frame of an animation', async () => {
    const width = 40;
    const height = 20;
    const raw = Buffer.alloc(width * height * 2 * 3);
    for (let i = 0; i < width * height * 2; i++) {
      const firstFrame = i < width * height;
      raw[i * 3] = firstFrame ? 255 : 0;
      raw[i * 3 + 2] = firstFrame ? 0 : 255;
    }
    const gif = await sharp(raw, {
      raw: { width, height: height * 2, channels: 3, pageHeight: height } as never,
    })
      .gif()
      .toBuffer();
    const prepared = await prepareImage(gif);
    expect(prepared.original.animated).toBe(true);
    expect([prepared.width, prepared.height]).toEqual([40, 20]);
    const [r, , b] = await pixelAt(prepared, 20, 15);
    expect(r).toBeGreaterThan(200);
    expect(b).toBeLessThan(50);
  });

  it('flattens a light logo on a dark background so it does not vanish on white', async () => {
    const whiteLogo = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80"><rect x="20" y="20" width="160" height="40" fill="#ffffff"/></svg>',
      ),
    )
      .png()
      .toBuffer();
    const prepared = await prepareImage(whiteLogo);
    const [r, g, b] = await pixelAt(prepared, 2, 2);
    expect(Math.max(r ?? 255, g ?? 255, b ?? 255)).toBeLessThan(80);
    expect(prepared.transparentShare).toBeGreaterThan(0.5);
  });

  it('downscales to at most 1024 px on the long side', async () => {
    const big = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const prepared = await prepareImage(big);
    expect([prepared.width, prepared.height]).toEqual([1024, 512]);
    expect(prepared.original).toMatchObject({ width: 3000, height: 1500, format: 'png' });
  });

  it('refuses a decompression bomb by its pixel count', async () => {
    const wide = await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    const error = await prepareImage(wide, { ...defaultImageLimits, maxInputPixels: 1_000_000 }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.code).toBe('TOO_MANY_PIXELS');
  });

  it('fails with a clear error on a file that is not an image', async () => {
    const error = await prepareImage(await readFile(join(fixtures, 'not-an-image.png'))).catch((e) => e);
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error).toMatchObject({ code: 'NOT_AN_IMAGE', message: 'The file is not an image we can read.' });
    await expect(prepareImage(new Uint8Array())).rejects.toBeInstanceOf(EngineInputError);
  });

  it('refuses inputs over the byte limit', async () => {
    await expect(
      prepareImage(new Uint8Array(2048), { ...defaultImageLimits, maxInputBytes: 1024 }),
    ).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });
});

describe('SVG rasterisation is safe', () => {
  it('renders an SVG without fetching its external references', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100">
        <style>@import url(http://127.0.0.1:${port}/style.css);</style>
        <rect width="200" height="100" fill="#00ff00"/>
        <image href="http://127.0.0.1:${port}/a.png" width="50" height="50"/>
        <image xlink:href="file:///etc/passwd" width="50" height="50"/>
        <rect width="10" height="10" fill="url(http://127.0.0.1:${port}/p.svg#x)"/>
      </svg>`;
      const prepared = await prepareImage(Buffer.from(svg));
      expect(prepared.original.format).toBe('svg');
      expect(Math.max(prepared.width, prepared.height)).toBe(1024);
      const [r, g] = await pixelAt(prepared, 600, 300);
      expect(g).toBeGreaterThan(200);
      expect(r).toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });

  it('refuses XML entities (billion laughs, external entities)', async () => {
    const svg = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>
      <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>`;
    await expect(prepareImage(Buffer.from(svg))).rejects.toMatchObject({ code: 'UNSAFE_SVG' });
  });

  it('keeps same-document references and inline raster images', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg"><use href="#a"/><image href="data:image/png;base64,AAAA"/><image href="https://x.test/a.png"/></svg>';
    const cleaned = sanitiseSvg(svg).toString('utf8');
    expect(cleaned).toContain('href="#a"');
    expect(cleaned).toContain('data:image/png;base64,AAAA');
    expect(cleaned).not.toContain('x.test');
  });
});
