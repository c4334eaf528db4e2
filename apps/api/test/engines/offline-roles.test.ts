import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createAltTextEngine } from '../../src/engines/alt-text-engine.ts';
import { defaultEngineOptions } from '../../src/engines/engine-options.ts';

/**
 * The offline engine follows the W3C alt decision tree before it looks at the pixels: these answers
 * come without the models (the engine is never warmed up here), so they cost no detection or OCR.
 */

const engine = createAltTextEngine(defaultEngineOptions());
afterAll(() => engine.close());
const logo = await readFile(join(import.meta.dirname, '..', 'fixtures', 'images', 'astronaut.jpg'));
/** A 22×20 rating star, as W3C's "Groups of images" example draws it. */
const star = await sharp(
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="22" height="20"><path d="M11 1 L14 8 L21 8 L15 12 L17 19 L11 15 L5 19 L7 12 L1 8 L8 8 Z" fill="#f59e0b"/></svg>',
  ),
)
  .png()
  .toBuffer();

describe('offline engine: role decisions win over the pixels', () => {
  it('names a home link’s only image for where it goes, with the reasons', async () => {
    const result = await engine.describeImage(logo, {
      context: {
        role: 'link',
        linkTarget: 'https://altwise.app/',
        pageUrl: 'https://altwise.app/blog/tips',
        pageTitle: 'Alt text tips – Altwise',
        existingAlt: 'logo',
      },
    });
    expect(result).toMatchObject({
      altText: 'Altwise home',
      decorative: false,
      confidence: 0.85,
      needsReview: false,
      engine: 'offline',
    });
    expect(result.reasons.map((reason) => reason.source)).toEqual(['role', 'link']);
    expect(result.signals.contextUsed).toEqual(['role', 'linkTarget']);
    expect(result.signals.objects).toEqual([]);
  });

  it('names a pricing link within the maximum length', async () => {
    const result = await engine.describeImage(logo, {
      context: { role: 'link', linkTarget: 'https://altwise.app/pricing' },
      maxLength: 40,
    });
    expect(result.altText).toBe('Pricing');
  });

  it('suggests alt="" for an icon beside link text, and says why', async () => {
    const result = await engine.describeImage(logo, {
      context: { role: 'link', linkTarget: 'https://altwise.app/pricing', linkText: 'Pricing' },
    });
    expect(result).toMatchObject({ altText: '', decorative: true, confidence: 0.75, needsReview: false });
    expect(result.reasons[0]).toEqual({
      source: 'link',
      detail: 'The link’s own text already names it: “Pricing”',
    });
  });

  it('suggests alt="" when the existing alt repeats the caption word for word', async () => {
    const result = await engine.describeImage(logo, {
      context: {
        role: 'figure',
        caption: 'An astronaut before the flag, 1984',
        existingAlt: 'An astronaut before the flag',
      },
    });
    expect(result).toMatchObject({ altText: '', decorative: true });
    expect(result.reasons[0]?.source).toBe('caption');
    expect(result.signals.contextUsed).toEqual(['caption', 'role']);
  });
});

describe('offline engine: parts of one thing (ADR 065)', () => {
  const files = ['star-full.png', 'star-full.png', 'star-full.png', 'star-half.png', 'star-empty.png'];

  it('the first star of a rating row says the whole rating; the others are alt=""', async () => {
    const first = await engine.describeImage(star, {
      context: { surroundingText: 'Rating:', imageRow: { position: 1, files } },
    });
    expect(first).toMatchObject({ altText: '3.5 out of 5 stars', decorative: false, needsReview: false });
    const fourth = await engine.describeImage(star, {
      context: { surroundingText: 'Rating:', imageRow: { position: 4, files } },
    });
    expect(fourth).toMatchObject({ altText: '', decorative: true });
    expect(fourth.reasons[0]?.detail).toMatch(/Image 4 of a row of 5 “star” pictograms/);
  });

  it('a photograph inside a named role="img" is alt="", and the reason names the picture', async () => {
    const result = await engine.describeImage(logo, { context: { partOfPicture: 'Crew portrait, 1969' } });
    expect(result).toMatchObject({ altText: '', decorative: true });
    expect(result.reasons[0]?.detail).toMatch(/Crew portrait, 1969/);
  });
});

describe('offline engine: a role that cannot decide still bounds the description', () => {
  it('describes the only image of a link the page does not name, capped and flagged for review', async () => {
    const result = await engine.describeImage(logo, {
      context: { role: 'link', linkTarget: 'javascript:void(0)', pageTitle: 'Alt text tips' },
    });
    expect(result.decorative).toBe(false);
    expect(result.altText.length).toBeGreaterThan(0);
    expect(result.confidence).toBeLessThanOrEqual(0.4);
    expect(result.needsReview).toBe(true);
    expect(result.reasons[0]?.source).toBe('role');
  }, 60_000);
});
