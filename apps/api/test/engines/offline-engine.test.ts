import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAltTextEngine } from '../../src/engines/alt-text-engine.ts';
import { defaultEngineOptions } from '../../src/engines/engine-options.ts';
import { EngineBusyError, EngineInputError } from '../../src/engines/errors.ts';
import type { AltTextEngine } from '../../src/engines/types.ts';

/** The offline engine end to end: real models in worker threads, on committed fixtures. */

const fixture = (name: string) => readFile(join(import.meta.dirname, '..', 'fixtures', 'images', name));
const ageOrGender = /\b(man|woman|men|women|boy|girl|male|female|lady|guy|old|young|elderly|aged|years)\b/i;

let engine: AltTextEngine;

beforeAll(async () => {
  engine = createAltTextEngine(defaultEngineOptions());
  await engine.warmUp();
}, 60_000);

afterAll(async () => {
  await engine.close();
});

describe('offline engine on photographs', () => {
  it('names the person in a portrait from the page context (the Peter Taylor rule)', async () => {
    const result = await engine.describeImage(await fixture('astronaut.jpg'), {
      context: {
        pageTitle: 'Peter Taylor',
        caption:
          'Peter Taylor was the first Palace player to be capped by England while in the Third Division.',
        fileName: 'taylor.jpg',
      },
    });
    // The caption is always used; the name comes from it, never from the title alone.
    expect(result.altText).toMatch(/^Peter Taylor was the first Palace player/);
    expect(result.altText).not.toMatch(/smiling person/);
    expect(result.signals.contextUsed).toContain('caption');
    expect(result.reasons[0]).toEqual({ source: 'caption', detail: expect.stringMatching(/^Peter Taylor/) });
    expect(result).toMatchObject({ needsReview: false });
    expect(result.confidence).toBeGreaterThanOrEqual(0.5);
    expect(result).toMatchObject({ engine: 'offline', decorative: false });
    expect(result.model).toMatch(/centernet/);
  });

  it('describes a person without guessing age or gender', async () => {
    const result = await engine.describeImage(await fixture('astronaut.jpg'));
    expect(result.altText).toMatch(/person/);
    expect(result.altText).not.toMatch(ageOrGender);
    expect(result.altText.length).toBeLessThanOrEqual(125);
    expect(result.signals.kind).toBe('photo');
    expect(result.signals.faces.every((f) => !('age' in f) && !('gender' in f))).toBe(true);
  });

  it('says "black-and-white" for a greyscale photograph', async () => {
    const result = await engine.describeImage(await fixture('camera.jpg'));
    expect(result.altText).toMatch(/^Black-and-white photograph/);
  });

  it('never opens with "Image of" and respects a short maximum length', async () => {
    const result = await engine.describeImage(await fixture('coffee.jpg'), { maxLength: 30 });
    expect(result.altText.length).toBeLessThanOrEqual(30);
    expect(result.altText).not.toMatch(/^(an? )?(image|picture|photo) of/i);
  });
});

describe('offline engine on text, graphics and decorative images', () => {
  it('gives a banner its text as written, with no kind word or colours', async () => {
    const result = await engine.describeImage(await fixture('sale-banner.png'));
    expect(result.altText).toMatch(/^Summer Sale\b.*50% off all shoes/);
    expect(result.altText).not.toMatch(/text on|background|tones/i);
    expect(result.textInImage).toMatch(/50% off all shoes/);
    expect(result.signals.kind).toBe('text');
  });

  it('titles a chart', async () => {
    const result = await engine.describeImage(await fixture('bar-chart.png'));
    expect(result.signals.kind).toBe('chart');
    // The title and the range of the axis as the alt, the labels and values as the
    // long description (the bars carry no value labels, so the axis range stands for them). The
    // pixels show bars standing on one baseline: a bar chart.
    expect(result.altText).toMatch(/^Bar chart: monthly visitors 2024, January to May/);
    expect(result.longDescription).toMatch(
      /^Monthly visitors 2024\. Jan; Feb; Mar; Apr; May\. Values from 500 to 1500/,
    );
  });

  it('marks a spacer and a plain background as decorative', async () => {
    for (const name of ['spacer.gif', 'plain-background.png']) {
      const result = await engine.describeImage(await fixture(name));
      expect(result).toMatchObject({ altText: '', decorative: true });
    }
  });

  it('rejects a file that is not an image with an input error', async () => {
    await expect(engine.describeImage(await fixture('not-an-image.png'))).rejects.toBeInstanceOf(
      EngineInputError,
    );
  });

  it('records that it wrote English and did not follow a free-form prompt', async () => {
    const result = await engine.describeImage(await fixture('coffee.jpg'), {
      language: 'de',
      prompt: 'Be funny',
    });
    expect(result.signals).toMatchObject({ language: 'en', promptApplied: false });
  });
});

/** A nav button as sites draw them: white capitals on a dark bar, rendered with a font Debian ships. */
const navButton = (label: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50"><rect width="100%" height="100%" fill="#1d2a44"/><text x="50%" y="50%" dominant-baseline="middle" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="24" fill="#fff">${label}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();

describe('offline engine on links and buttons', () => {
  const page = 'https://www.riverside.example/local/';

  it('names a nav button by its own text, in normal case: HOME → "Home", NEWS → "News"', async () => {
    const home = await engine.describeImage(await navButton('HOME'), {
      context: { role: 'link', linkTarget: 'https://www.riverside.example/', pageUrl: page },
    });
    expect(home).toMatchObject({ altText: 'Home', decorative: false, needsReview: false });
    expect(home.reasons.map((reason) => reason.source)).toContain('ocr');
    const news = await engine.describeImage(await navButton('NEWS'), {
      context: { role: 'link', linkTarget: 'https://www.riverside.example/p/77', pageUrl: page },
    });
    expect(news.altText).toBe('News');
  });

  it('names a hamburger button by what it does ("Open menu") and a phone pictogram by what it is (ADR 063)', async () => {
    const drawn = (body: string) =>
      sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 24 24"><rect width="24" height="24" fill="#fff"/>${body}</svg>`,
        ),
      )
        .png()
        .toBuffer();
    const menu = await engine.describeImage(
      await drawn(
        '<path d="M4 6h16M4 12h16M4 18h16" stroke="#111" stroke-width="2" stroke-linecap="round"/>',
      ),
      { context: { role: 'button', pageUrl: page, fileName: 'nav-toggle.png' } },
    );
    expect(menu).toMatchObject({ altText: 'Open menu', decorative: false });
    expect(menu.reasons.map((reason) => reason.detail).join(' ')).toMatch(/pictogram/);
    const phone = await engine.describeImage(
      await drawn(
        '<path d="M6.6 10.8c1.4 2.8 3.8 5.1 6.6 6.6l2.2-2.2c.3-.3.7-.4 1-.2 1.1.4 2.3.6 3.6.6.6 0 1 .4 1 1V20c0 .6-.4 1-1 1C10.6 21 3 13.4 3 4c0-.6.4-1 1-1h3.5c.6 0 1 .4 1 1 0 1.3.2 2.5.6 3.6.1.3 0 .7-.2 1L6.6 10.8z" fill="#c2410c"/>',
      ),
      { context: { surroundingText: '0123 456 7890', pageUrl: page, fileName: 'ico-1.png' } },
    );
    expect(phone).toMatchObject({ altText: 'Telephone', decorative: false });
  });

  it('a plain image link it cannot name needs words: never alt="" (a link needs a name) nor colours', async () => {
    const result = await engine.describeImage(await fixture('plain-background.png'), {
      context: { role: 'link', linkTarget: 'javascript:void(0)', pageUrl: page },
    });
    expect(result).toMatchObject({ altText: '', decorative: false, needsReview: true, needsWords: true });
    expect(result.needsWordsReason).toBeTruthy();
  });
});

describe('offline engine runtime', () => {
  it('keeps the event loop responsive while models run', async () => {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    await Promise.all([
      engine.describeImage(await fixture('astronaut.jpg')),
      engine.describeImage(await fixture('chelsea.jpg')),
      engine.describeImage(await fixture('screenshot.png')),
    ]);
    histogram.disable();
    // Inference happens in worker threads; the main thread only waits.
    expect(histogram.max / 1e6).toBeLessThan(500);
  });

  it('refuses work beyond its bounded queue instead of growing without limit', async () => {
    const small = createAltTextEngine(
      defaultEngineOptions({ offline: { ...defaultEngineOptions().offline, workers: 1, maxQueue: 1 } }),
    );
    try {
      const photo = await fixture('chelsea.jpg');
      const outcomes = await Promise.allSettled([1, 2, 3].map(() => small.describeImage(photo)));
      const busy = outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof EngineBusyError);
      expect(busy.length).toBeGreaterThan(0);
      expect(outcomes.some((o) => o.status === 'fulfilled')).toBe(true);
    } finally {
      await small.close();
    }
  }, 60_000);

  it('writes an honest offline draft for generateText', async () => {
    const result = await engine.generateText(
      'Write a formal blog post about technology: alt text for online shops',
    );
    expect(result.engine).toBe('offline');
    expect(result.text).toMatch(/^# Alt Text for Online Shops/);
    expect(result.text).toMatch(/Draft written offline/);
  });
});
