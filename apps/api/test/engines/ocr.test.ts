import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeOcr, readText } from '../../src/engines/offline/ocr.ts';
import { encodePng, prepareImage } from '../../src/engines/prepare-image.ts';

/** The lossless pixels the offline engine hands to OCR. */
const preparedPng = async (name: string) => encodePng(await prepareImage(await fixture(name)));

const fixture = (name: string) => readFile(join(import.meta.dirname, '..', 'fixtures', 'images', name));

afterAll(async () => {
  await closeOcr();
});

describe('OCR with the bundled English data', () => {
  it('reads a banner without any download', async () => {
    const png = await preparedPng('sale-banner.png');
    const result = await readText(png, { minConfidence: 70, timeoutMs: 10_000 });
    expect(result.text).toBe('Summer Sale\n50% off all shoes');
    expect(result.confidence).toBeGreaterThan(80);
    expect(result.numbers).toBe(1);
  }, 30_000);

  it('reads nothing from a photograph without text', async () => {
    const png = await preparedPng('astronaut.jpg');
    expect((await readText(png, { minConfidence: 70, timeoutMs: 10_000 })).text).toBe('');
  }, 30_000);

  it('gives up after its time limit and recovers for the next image', async () => {
    const png = await preparedPng('screenshot.png');
    const slow = await readText(png, { minConfidence: 70, timeoutMs: 1 });
    expect(slow).toMatchObject({ timedOut: true, text: '' });
    const next = await readText(await preparedPng('sale-banner.png'), {
      minConfidence: 70,
      timeoutMs: 10_000,
    });
    expect(next.text).toContain('Summer Sale');
  }, 30_000);
});
