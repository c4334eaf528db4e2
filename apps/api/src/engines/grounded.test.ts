import { describe, expect, it } from 'vitest';
import { groundedOrNothing, requestedLanguage } from './grounded.ts';
import type { AltTextResult } from './types.ts';

const result = (altText: string, reasons: AltTextResult['reasons'], decorative = false): AltTextResult =>
  ({
    altText,
    decorative,
    confidence: 0.6,
    needsReview: false,
    reasons,
    longDescription: null,
    engine: 'offline',
    model: 'm',
    signals: {} as AltTextResult['signals'],
  }) as AltTextResult;

describe('groundedOrNothing (ADR 067)', () => {
  it('turns a kind-and-tone sentence into needs words, keeping the evidence', () => {
    const reasons = [{ source: 'pixels' as const, detail: 'photo, grey tones' }];
    const out = groundedOrNothing(result('Dark photograph in grey and green tones.', reasons), {}, 0.5);
    expect(out).toMatchObject({ altText: '', decorative: false, needsWords: true, needsReview: true });
    expect(out.needsWordsReason).toMatch(/colours/);
    expect(out.reasons).toEqual(reasons);
  });

  it('keeps a grounded alt and a decorative answer as they are', () => {
    const ocr = result('Summer sale', [{ source: 'ocr', detail: 'Summer sale', score: 0.9 }]);
    expect(groundedOrNothing(ocr, {}, 0.5)).toBe(ocr);
    const decorative = result('', [], true);
    expect(groundedOrNothing(decorative, {}, 0.5)).toBe(decorative);
  });

  it('refuses a file-name echo and a heading in front', () => {
    const ocr = [{ source: 'ocr' as const, detail: 'x' }];
    expect(
      groundedOrNothing(result('Teaser RIGHT1.', ocr), { fileName: 'teaser-right1.jpg' }, 0.5).needsWords,
    ).toBe(true);
    expect(
      groundedOrNothing(result('Top weather: Sunny.', ocr), { heading: 'Top weather' }, 0.5).needsWords,
    ).toBe(true);
  });

  it('takes the language from the options, else the page, else English', () => {
    expect(requestedLanguage({ language: 'de', context: { language: 'fr' } as never })).toBe('de');
    expect(requestedLanguage({ context: { language: 'fr' } as never })).toBe('fr');
    expect(requestedLanguage({})).toBe('en');
  });
});
