import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
