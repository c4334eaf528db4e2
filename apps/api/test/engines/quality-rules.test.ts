import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyQualityRules,
  balanceQuotes,
  endsOnDanglingWord,
  fixAnOther,
  removeFileNames,
  removeRedundantOpener,
  tidyAnswer,
  truncateAtBoundary,
} from '../../src/engines/quality-rules.ts';

describe('quality rule: no redundant openers', () => {
  it.each([
    ['Image of a dog running on a beach.', 'A dog running on a beach.'],
    ['Picture of two cups of coffee.', 'Two cups of coffee.'],
    ['A photo of a red bicycle.', 'A red bicycle.'],
    ['This image shows a chart of sales.', 'A chart of sales.'],
    ['The picture depicts Peter Taylor.', 'Peter Taylor.'],
    ['Photo of a photo of a wedding.', 'Photograph of a wedding.'],
    ['Image: a logo.', 'A logo.'],
    // ADR 060: the audit's `announces-medium` openers, from the one rulebook.
    ['Graphic of a tulip bulb.', 'A tulip bulb.'],
    ['Link to the pricing page.', 'The pricing page.'],
  ])('%s → %s', (input, expected) => {
    expect(removeRedundantOpener(input)).toBe(expected);
  });

  it('keeps "Photograph of", "Chart of" and "Illustration of", where the kind is information', () => {
    for (const text of [
      'Photograph of a harbour at dusk.',
      'Chart of monthly visitors.',
      'Illustration of a horse.',
    ]) {
      expect(removeRedundantOpener(text)).toBe(text);
    }
  });
});

describe('quality rule: no file names', () => {
  it('replaces an answer that is only a file name with the fallback', () => {
    const result = applyQualityRules({
      altText: 'IMG_2041.jpg',
      decorative: false,
      maxLength: 125,
      fallback: 'A dog on a beach.',
    });
    expect(result.altText).toBe('A dog on a beach.');
    expect(result.applied).toContain('no-file-name');
  });

  it('treats the image’s own file stem as a file name', () => {
    const result = applyQualityRules({
      altText: 'hero-banner-2x',
      decorative: false,
      maxLength: 125,
      fileName: 'hero-banner-2x.png',
    });
    expect(result.altText).toBe('');
  });

  it('removes a file name written into a sentence', () => {
    expect(removeFileNames('A dog on a beach (DSC_0001.JPG).')).toBe('A dog on a beach.');
    expect(removeFileNames('A dog photo.png on a beach', 'photo.png')).toBe('A dog on a beach');
  });
});

describe('quality rule: within the maximum length, never mid-word', () => {
  const long =
    'Peter Taylor in a Crystal Palace shirt, smiling on the pitch. Behind him a packed stand of supporters waves scarves.';

  it('cuts at a sentence end when that keeps at least half', () => {
    expect(truncateAtBoundary(long, 90)).toBe(
      'Peter Taylor in a Crystal Palace shirt, smiling on the pitch.',
    );
  });

  it('otherwise cuts before the last joining word, never leaving it dangling', () => {
    const cut = truncateAtBoundary('A red bicycle leaning against a whitewashed wall with a blue door', 40);
    expect(cut).toBe('A red bicycle leaning.');
  });

  it('prefers a clause boundary: no "…braided ramps and high"', () => {
    const text =
      'The interchange of Anthony Henday Drive and Yellowhead Trail is a hybrid design, with braided ramps and high flyovers';
    expect(truncateAtBoundary(text, 100)).toBe(
      'The interchange of Anthony Henday Drive and Yellowhead Trail is a hybrid design.',
    );
  });

  it('drops a bracket it would cut open, and the word it leaves hanging', () => {
    expect(
      truncateAtBoundary('Layout of the temple with (5a and b) storerooms to the north and south', 40),
    ).toBe('Layout of the temple.');
  });

  it('never splits a word, never ends on a hanging word, and ends with a full stop', () => {
    for (let max = 20; max < long.length; max += 7) {
      const cut = truncateAtBoundary(long, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut).toMatch(/[.!?]$/);
      const body = cut.replace(/[.]$/, '');
      expect(long.startsWith(body)).toBe(true);
      expect(/[\s.,;:]/.test(long.charAt(body.length))).toBe(true);
      expect(body).not.toMatch(/\s(a|an|the|and|or|with|of|in|on|at|to|by|his|her)$/i);
    }
  });

  it('leaves short text alone', () => {
    expect(truncateAtBoundary('A cup of coffee.', 125)).toBe('A cup of coffee.');
  });
});

describe('quality rule: "another", never "an other"', () => {
  it.each([
    ['Maya Moore and an other person.', 'Maya Moore and another person.'],
    ['An other view of the bridge.', 'Another view of the bridge.'],
    ['Two people and another dog.', 'Two people and another dog.'],
  ])('%s → %s', (input, expected) => {
    expect(fixAnOther(input)).toBe(expected);
    expect(applyQualityRules({ altText: input, decorative: false, maxLength: 125 }).altText).toBe(expected);
  });
});

describe('quality rule: quoted text survives truncation', () => {
  it('closes a quotation that truncation left open, within the limit', () => {
    const result = applyQualityRules({
      altText: 'Text on a blue background: “Summer Sale. Fifty percent off all shoes this weekend only”',
      decorative: false,
      maxLength: 60,
    });
    expect(result.altText.length).toBeLessThanOrEqual(60);
    expect(result.altText.endsWith('…”')).toBe(true);
    expect(result.altText).toContain('“Summer Sale');
  });

  it('leaves balanced quotes alone', () => {
    expect(balanceQuotes('Logo reading “Acme”.', 125)).toBe('Logo reading “Acme”.');
  });
});

describe('quality rule: decorative images get an empty alt', () => {
  it('returns alt="" and decorative: true whatever text the engine wrote', () => {
    expect(applyQualityRules({ altText: 'Plain grey background', decorative: true, maxLength: 125 })).toEqual(
      {
        altText: '',
        decorative: true,
        applied: ['decorative-empty-alt'],
      },
    );
  });
});

describe('quality rule: tidy model answers', () => {
  it('strips labels, wrapping quotes, markdown and newlines', () => {
    expect(tidyAnswer('Alt text: "A **red** bicycle\nagainst a wall."')).toBe(
      'A red bicycle against a wall.',
    );
  });
});

describe('quality rules on any text (property)', () => {
  const word = fc.constantFrom(
    'the',
    'and',
    'with',
    'of',
    'bridge',
    'river',
    'Peter',
    'Taylor',
    'painted',
    'in',
    '1975',
    'an',
    'other',
    'photograph,',
    'ramps;',
    '(left)',
    '(1883)',
    'whilst',
    'high',
    '“Summer',
    'sale”',
    'a',
  );
  const sentence = fc.array(word, { minLength: 1, maxLength: 60 }).map((words) => words.join(' '));

  it('never exceeds the maximum, never ends on a hanging word, never says "an other"', () => {
    fc.assert(
      fc.property(sentence, fc.integer({ min: 20, max: 200 }), (text, maxLength) => {
        const { altText } = applyQualityRules({ altText: text, decorative: false, maxLength });
        expect(altText.length).toBeLessThanOrEqual(maxLength);
        expect(altText).not.toMatch(/\ban other\b/i);
        // What the rules shorten ends cleanly; a short text is the engine's own sentence, left as it is.
        if (text.length > maxLength) {
          expect(endsOnDanglingWord(altText)).toBe(false);
          if (altText) expect(altText).toMatch(/[.!?”"]$/);
        }
      }),
      { seed: 11, numRuns: 400 },
    );
  });
});
