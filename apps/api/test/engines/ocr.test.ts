import dns from 'node:dns';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import { join, sep } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAltTextEngine } from '../../src/engines/alt-text-engine.ts';
import { defaultEngineOptions } from '../../src/engines/engine-options.ts';
import { isKnownWord } from '../../src/engines/offline/known-words.ts';
import {
  acceptLines,
  closeOcr,
  loadOcr,
  ocrModelName,
  ocrModelPaths,
  orderInLines,
  readText,
} from '../../src/engines/offline/ocr.ts';
import { OcrThread } from '../../src/engines/offline/ocr-thread.ts';
import { encodePng, prepareImage } from '../../src/engines/prepare-image.ts';

const options = { minConfidence: 70, timeoutMs: 30_000 };

/** A web graphic drawn in the test: a background and lines of text, as SVG rendered by sharp. */
async function graphic(spec: {
  width: number;
  height: number;
  background: string;
  fill: string;
  lines: Array<{ text: string; y: number; size: number; family?: string; weight?: string }>;
  anchor?: 'middle' | 'start';
  jpeg?: number;
}): Promise<Buffer> {
  const x = spec.anchor === 'start' ? 8 : spec.width / 2;
  const texts = spec.lines
    .map(
      (l) =>
        `<text x="${x}" y="${l.y}" font-family="${l.family ?? 'DejaVu Sans'}" font-weight="${l.weight ?? 'normal'}" font-size="${l.size}" fill="${spec.fill}" text-anchor="${spec.anchor ?? 'middle'}">${l.text.replace(/&/g, '&amp;')}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${spec.width}" height="${spec.height}"><rect width="100%" height="100%" fill="${spec.background}"/>${texts}</svg>`;
  const rendered = sharp(Buffer.from(svg));
  // The engine hands the OCR a lossless PNG of the prepared pixels; JPEG damage happens before that.
  if (!spec.jpeg) return rendered.png().toBuffer();
  return sharp(await rendered.jpeg({ quality: spec.jpeg }).toBuffer())
    .png()
    .toBuffer();
}

const button = (text: string, background: string, family = 'DejaVu Sans', jpeg?: number) =>
  graphic({
    width: 100,
    height: 25,
    background,
    fill: '#ffffff',
    jpeg,
    lines: [{ text, y: 17, size: 12, family, weight: 'bold' }],
  });

describe('OCR of web graphics (PP-OCRv4)', () => {
  beforeAll(async () => {
    await loadOcr();
  }, 60_000);
  afterAll(async () => {
    await closeOcr();
  });

  const table: Array<[string, () => Promise<Buffer>, string]> = [
    ['a 100×25 white-on-black all-caps nav button', () => button('HOME', '#1b1b1b'), 'HOME'],
    ['a 100×25 white-on-navy two-word button', () => button('ABOUT US', '#1a3c6e'), 'ABOUT US'],
    [
      'a 100×25 condensed button with an ampersand',
      () => button('NEWS & EVENTS', '#5a1020', 'DejaVu Sans Condensed'),
      'NEWS & EVENTS',
    ],
    [
      'a JPEG-compressed (quality 60) button',
      () => button('CONTACT', '#0b4f3c', 'DejaVu Sans', 60),
      'CONTACT',
    ],
    [
      'a phone number in a serif font',
      () =>
        graphic({
          width: 260,
          height: 36,
          background: '#ffffff',
          fill: '#333333',
          anchor: 'start',
          lines: [{ text: 'Call 0800 123 4567', y: 24, size: 18, family: 'DejaVu Serif' }],
        }),
      'Call 0800 123 4567',
    ],
    [
      'a price in bold red on cream',
      () =>
        graphic({
          width: 130,
          height: 50,
          background: '#fff6d6',
          fill: '#d62828',
          lines: [{ text: '$49.99', y: 35, size: 28, weight: 'bold' }],
        }),
      '$49.99',
    ],
    [
      'a two-line heading, read top to bottom',
      () =>
        graphic({
          width: 320,
          height: 90,
          background: '#33245e',
          fill: '#ffd166',
          lines: [
            { text: 'Summer Sale', y: 38, size: 30, family: 'DejaVu Serif', weight: 'bold' },
            { text: '50% off all shoes', y: 72, size: 18 },
          ],
        }),
      'Summer Sale\n50% off all shoes',
    ],
  ];

  for (const [name, draw, expected] of table) {
    it(`reads ${name}`, async () => {
      const result = await readText(await draw(), options);
      expect(result.text).toBe(expected);
      expect(result.timedOut).toBe(false);
      expect(result.confidence).toBeGreaterThanOrEqual(80);
      expect(result.lines.map((l) => l.text)).toEqual(expected.split('\n'));
    });
  }

  it('says where the text is: line boxes inside the image and the share it covers', async () => {
    const result = await readText(await button('HOME', '#1b1b1b'), options);
    const [line] = result.lines;
    expect(line?.box.every((v) => v >= 0 && v <= 1)).toBe(true);
    const [x = 0, y = 0, w = 0, h = 0] = line?.box ?? [];
    expect(x + w).toBeLessThanOrEqual(1);
    expect(y + h).toBeLessThanOrEqual(1);
    expect(result.coverage).toBeGreaterThan(0.1);
    expect(result.coverage).toBeLessThanOrEqual(1);
  });

  it('reads nothing in a smooth gradient with no text', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120"><defs><linearGradient id="g"><stop offset="0" stop-color="#08f"/><stop offset="1" stop-color="#fa0"/></linearGradient></defs><rect width="200" height="120" fill="url(#g)"/><circle cx="100" cy="60" r="30" fill="#fff"/></svg>`;
    const result = await readText(await sharp(Buffer.from(svg)).png().toBuffer(), options);
    expect(result).toMatchObject({ text: '', words: 0, lines: [], coverage: 0 });
  });
});

/** The lossless pixels the offline engine hands to OCR. */
const preparedPng = async (name: string) => encodePng(await prepareImage(await fixture(name)));

const fixture = (name: string) => readFile(join(import.meta.dirname, '..', 'fixtures', 'images', name));

describe('OCR of the test fixtures', () => {
  afterAll(async () => {
    await closeOcr();
  });

  it('reads a banner', async () => {
    const png = await preparedPng('sale-banner.png');
    const result = await readText(png, { minConfidence: 70, timeoutMs: 30_000 });
    expect(result.text).toBe('Summer Sale\n50% off all shoes');
    expect(result.confidence).toBeGreaterThan(80);
    expect(result.numbers).toBe(1);
  }, 30_000);

  it('reads nothing from photographs without text', async () => {
    for (const name of [
      'astronaut.jpg',
      'camera.jpg',
      'chelsea.jpg',
      'coffee.jpg',
      'horse.webp',
      'rocket.jpg',
    ]) {
      const result = await readText(await preparedPng(name), { minConfidence: 70, timeoutMs: 30_000 });
      expect({ name, text: result.text }).toEqual({ name, text: '' });
    }
  }, 60_000);

  it('gives up after its time limit and recovers for the next image', async () => {
    const png = await preparedPng('screenshot.png');
    const slow = await readText(png, { minConfidence: 70, timeoutMs: 1 });
    expect(slow).toMatchObject({ timedOut: true, text: '' });
    const next = await readText(await preparedPng('sale-banner.png'), {
      minConfidence: 70,
      timeoutMs: 30_000,
    });
    expect(next.text).toContain('Summer Sale');
  }, 30_000);
});

describe('OCR in its own thread', () => {
  // Ending a thread while onnxruntime-node runs aborts the whole process ("terminate called after
  // throwing an instance of 'Napi::Error'"): these tests would crash the test run.
  it('answers timedOut past its time limit mid-inference, without ending the process, and reads on', async () => {
    const thread = new OcrThread();
    try {
      await thread.start();
      const slow = await thread.read(await preparedPng('screenshot.png'), {
        minConfidence: 70,
        timeoutMs: 60,
      });
      expect(slow).toMatchObject({ text: '', timedOut: true });
      const next = await thread.read(await button('HOME', '#1b1b1b'), options);
      expect(next).toMatchObject({ text: 'HOME', timedOut: false });
    } finally {
      await thread.close();
    }
  }, 60_000);

  it('closes while a reading is in progress without ending the process', async () => {
    const thread = new OcrThread();
    await thread.start();
    const reading = thread.read(await preparedPng('screenshot.png'), options);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await thread.close();
    expect((await reading).text).toContain('Account settings');
  }, 60_000);

  it('closes the offline engine while it reads an image without ending the process', async () => {
    const engine = createAltTextEngine(defaultEngineOptions());
    await engine.warmUp();
    const reading = engine.describeImage(await fixture('screenshot.png')).then(
      (result) => result.altText,
      (error: Error) => error.message,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await engine.close();
    expect(typeof (await reading)).toBe('string');
  }, 60_000);
});

describe('OCR models', () => {
  it('names the PP-OCR model the engine reports', () => {
    expect(ocrModelName).toMatch(/pp-ocrv4/i);
  });

  it('loads the models from node_modules with the network blocked', async () => {
    const paths = ocrModelPaths();
    for (const path of Object.values(paths)) {
      expect(path).toContain(`${sep}node_modules${sep}@gutenye${sep}ocr-models${sep}`);
      expect(existsSync(path)).toBe(true);
    }
    const attempts: string[] = [];
    const originalConnect = net.Socket.prototype.connect;
    const originalLookup = dns.lookup;
    const originalFetch = globalThis.fetch;
    net.Socket.prototype.connect = function blocked(this: net.Socket) {
      attempts.push('socket');
      throw new Error('network blocked in this test');
    } as typeof originalConnect;
    dns.lookup = ((..._args: unknown[]) => {
      attempts.push('dns');
      throw new Error('network blocked in this test');
    }) as unknown as typeof dns.lookup;
    globalThis.fetch = (async () => {
      attempts.push('fetch');
      throw new Error('network blocked in this test');
    }) as typeof fetch;
    try {
      await closeOcr();
      await loadOcr();
      const result = await readText(await button('NEWS', '#00508f'), options);
      expect(result.text).toBe('NEWS');
    } finally {
      net.Socket.prototype.connect = originalConnect;
      dns.lookup = originalLookup;
      globalThis.fetch = originalFetch;
      await closeOcr();
    }
    expect(attempts).toEqual([]);
  }, 60_000);
});

describe('OCR line filter', () => {
  const at = (x: number, y: number, w = 0.2, h = 0.1): [number, number, number, number] => [x, y, w, h];

  it('marks each word with its confidence and whether its letters spell known words', () => {
    const result = acceptLines(
      [
        {
          words: [
            { text: 'Open-air', confidence: 96.4, box: at(0, 0) },
            { text: 'Mageal', confidence: 81, box: at(0.3, 0) },
            { text: '1799', confidence: 99, box: at(0.6, 0) },
            { text: 'Straße', confidence: 92, box: at(0.8, 0) },
          ],
        },
      ],
      70,
      isKnownWord,
    );
    expect(result.lines[0]?.regions).toMatchObject([
      { text: 'Open-air', confidence: 96, known: true },
      { text: 'Mageal', confidence: 81, known: false },
      { text: '1799', confidence: 99, known: false },
      { text: 'Straße', confidence: 92, known: true },
    ]);
  });

  it('drops low-confidence words and texture read as symbols', () => {
    const result = acceptLines(
      [
        {
          words: [
            { text: '§', confidence: 81, box: at(0, 0) },
            { text: '£', confidence: 81, box: at(0.3, 0) },
            { text: 'aN', confidence: 10, box: at(0.6, 0) },
          ],
        },
        { words: [{ text: ')', confidence: 92, box: at(0, 0.5) }] },
      ],
      70,
    );
    expect(result).toMatchObject({ text: '', words: 0, lines: [] });
  });

  it('keeps confident lines and counts numbers', () => {
    const result = acceptLines(
      [
        {
          words: [
            { text: 'Summer', confidence: 95, box: at(0, 0) },
            { text: 'Sale', confidence: 96, box: at(0.3, 0) },
          ],
        },
        {
          words: [
            { text: '50%', confidence: 96, box: at(0, 0.5) },
            { text: 'off', confidence: 96, box: at(0.3, 0.5) },
          ],
        },
      ],
      70,
    );
    expect(result).toMatchObject({ text: 'Summer Sale\n50% off', words: 4, numbers: 1 });
  });

  it('drops an icon read as two uncertain characters beside a label ("69 Auslan")', () => {
    const result = acceptLines(
      [
        {
          words: [
            { text: '69', confidence: 82, box: at(0.1, 0.2) },
            { text: 'Auslan', confidence: 99.9, box: at(0.5, 0.3) },
          ],
        },
      ],
      70,
    );
    expect(result.text).toBe('Auslan');
    expect(result.words).toBe(1);
  });

  it('joins a currency sign to its amount ("$ 10,000" reads "$10,000")', () => {
    const result = acceptLines(
      [
        {
          words: [
            { text: 'exceeds', confidence: 99, box: at(0, 0) },
            { text: '$', confidence: 97, box: at(0.3, 0) },
            { text: '10,000', confidence: 99, box: at(0.4, 0) },
          ],
        },
      ],
      70,
    );
    // The sign joins its amount (tidyLineText): the line reads as the graphic does.
    expect(result).toMatchObject({ text: 'exceeds $10,000' });
  });

  it('orders words in lines: top to bottom, left to right', () => {
    const lines = orderInLines([
      { text: 'Loved', confidence: 99, box: at(0.6, 0.52) },
      { text: 'Rate', confidence: 99, box: at(0.05, 0.1) },
      { text: 'Hated', confidence: 99, box: at(0.05, 0.5) },
    ]);
    expect(lines.map((l) => l.words.map((w) => w.text).join(' '))).toEqual(['Rate', 'Hated Loved']);
  });
});
