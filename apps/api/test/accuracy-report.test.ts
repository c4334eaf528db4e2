import { accuracyReportSchema } from '@altwise/contracts/accuracy';
import { describe, expect, it } from 'vitest';
import { type AccuracyInputs, buildAccuracyReport, type PhotoRow } from '../bench/lib/accuracy-report.ts';

const photo = (file: string, mode: 'a' | 'b', recall: number, altText: string): PhotoRow => ({
  file,
  mode,
  reference: `Reference for ${file}`,
  altText,
  recall,
  needsReview: mode === 'a',
  fallback: mode === 'a',
  needsWords: false,
  published: true,
  unsupported: [],
});

/** What the evals write for a two-photo set and three web graphics. */
function inputs(): AccuracyInputs {
  return {
    generatedAt: '2026-11-29T16:00:00.000Z',
    commit: 'abc1234',
    engine: { name: 'offline', model: 'human-3.3/pp-ocrv4-mobile/onnx' },
    photoSet: 'quality-dev',
    photoRefs: [
      {
        file: '1.jpg',
        alt: 'Red brick church tower',
        caption: 'The church tower',
        article: 'St Mary Church',
      },
      { file: '2.jpg', alt: 'Portrait of a painter', caption: 'A painter', article: 'Jane Doe' },
    ],
    photos: [
      photo('1.jpg', 'a', 0, 'Photograph in red tones.'),
      photo('1.jpg', 'b', 0.5, 'Church tower.'),
      photo('2.jpg', 'a', 0, 'Photograph in grey tones.'),
      photo('2.jpg', 'b', 0.25, 'Jane Doe.'),
    ],
    graphicSet: 'web-graphics-dev',
    graphics: [
      {
        kind: 'text',
        recall: 1,
        exact: true,
        decorative: false,
        decorativeAgrees: true,
        needsWords: false,
        published: true,
      },
      {
        kind: 'decorative',
        recall: 0,
        exact: false,
        decorative: false,
        decorativeAgrees: false,
        needsWords: false,
        published: true,
      },
      {
        kind: 'icon',
        recall: 0,
        exact: false,
        decorative: false,
        decorativeAgrees: true,
        needsWords: true,
        published: false,
      },
    ],
    audit: {
      judged: [
        { id: 'logo', kind: 'logo', problems: [], failed: false },
        { id: '1.jpg', kind: 'photo', problems: ['too-long'], failed: false },
      ],
      faultCodes: {
        'alt-removed': ['missing'],
        'file-name-alt': ['file-name'],
        'placeholder-alt': ['placeholder', 'vague'],
        'empty-alt-in-link': ['link-without-purpose'],
        'empty-alt-on-meaningful': ['empty-but-informative'],
      },
      seeded: [
        { kind: 'logo', fault: 'alt-removed', caught: true },
        { kind: 'icon', fault: 'empty-alt-on-meaningful', caught: false },
      ],
    },
    ocr: {
      model: 'pp-ocrv4-mobile/onnx',
      images: 210,
      seed: 19,
      cerPercent: 1.27,
      exactWordPercent: 95.9,
      textEntries: 5,
      textExact: 5,
      byKind: [{ kind: 'button', images: 30, cerPercent: 0, exactWordPercent: 100 }],
    },
  };
}

describe('the published accuracy report', () => {
  it('sums the evals’ rows into the figures the page shows, in the shape the page parses', () => {
    const report = buildAccuracyReport(inputs());
    expect(accuracyReportSchema.parse(report)).toEqual(report);
    expect(report.photos).toMatchObject({
      images: 2,
      alone: { recall: 0, colourFallbacks: 2, flaggedForReview: 2 },
      withContext: { recall: 0.375, colourFallbacks: 0, published: 2 },
    });
    // The weakest result with context first, quoted with its article.
    expect(report.photos.misses[0]).toEqual({
      article: 'Jane Doe',
      articleUrl: 'https://en.wikipedia.org/wiki/Jane_Doe',
      reference: 'Reference for 2.jpg',
      ours: 'Jane Doe.',
      recall: 0.25,
    });
    expect(report.graphics.byKind.find((k) => k.kind === 'decorative')).toMatchObject({
      entries: 1,
      decorativeWrong: 1,
    });
    expect(report.graphics.byKind.find((k) => k.kind === 'icon')).toMatchObject({ needsWords: 1 });
    expect(report.graphics).toMatchObject({ entries: 3, textExact: 1, textEntries: 1 });
    expect(report.audit.falseAlarms.find((r) => r.kind === 'photo')).toEqual({
      kind: 'photo',
      alts: 1,
      failed: 0,
      warned: 1,
    });
    expect(report.audit.seededFaults.find((f) => f.fault === 'empty-alt-on-meaningful')).toEqual({
      fault: 'empty-alt-on-meaningful',
      expected: ['empty-but-informative'],
      tried: 1,
      caught: 0,
      byKind: [{ kind: 'icon', tried: 1, caught: 0 }],
    });
  });

  it('refuses figures out of shape instead of writing them', () => {
    const recallAboveOne = inputs();
    recallAboveOne.photos = recallAboveOne.photos.map((row) => ({ ...row, recall: 1.5 }));
    expect(() => buildAccuracyReport(recallAboveOne)).toThrow(/recall/);
    expect(() => buildAccuracyReport({ ...inputs(), commit: 'not a commit' })).toThrow(/commit/);
    expect(() =>
      buildAccuracyReport({ ...inputs(), ocr: { ...inputs().ocr, exactWordPercent: 120 } }),
    ).toThrow(/exactWordPercent/);
  });
});
