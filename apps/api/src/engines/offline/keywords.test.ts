import { describe, expect, it } from 'vitest';
import { addTruthfulKeywords } from './keywords.ts';

const base = { altText: 'A dog lying on grass.', detections: ['dog'], context: {}, maxLength: 125 };

describe('addTruthfulKeywords', () => {
  it('adds a keyword the page states, and says why', () => {
    const result = addTruthfulKeywords({
      ...base,
      keywords: ['beagle', 'best dog food'],
      context: { caption: 'Our beagle Max enjoys the sun' },
    });
    expect(result.altText).toBe('A dog lying on grass (beagle).');
    expect(result.reasons).toEqual([{ source: 'caption', detail: 'keyword "beagle" is stated by the page' }]);
  });

  it('adds a keyword naming a detection the text does not say yet', () => {
    const result = addTruthfulKeywords({
      ...base,
      altText: 'A person in a park.',
      detections: ['person', 'bicycle'],
      keywords: ['bicycles', 'cheap flights'],
    });
    expect(result.altText).toBe('A person in a park (bicycles).');
    expect(result.reasons[0]).toMatchObject({ source: 'detection' });
  });

  it('never stuffs keywords by the audit’s rule: no word a third time, no list of four', () => {
    const repeated = addTruthfulKeywords({
      ...base,
      altText: 'A puppy lying on grass.',
      detections: [],
      keywords: ['puppy bed', 'puppy toys', 'beagle'],
      context: { caption: 'A beagle on a puppy bed with puppy toys' },
    });
    // "puppy" twice is fine; "puppy toys" would make it three times, so it is left out.
    expect(repeated.altText).toBe('A puppy lying on grass (puppy bed, beagle).');
    const listed = addTruthfulKeywords({
      ...base,
      altText: 'A dog.',
      maxLength: 200,
      keywords: ['beagle', 'beagle puppy', 'pet', 'hound', 'terrier'],
      context: { caption: 'beagle puppy pet hound terrier' },
    });
    // A fourth short item around "beagle" would read as a list of search terms.
    expect(listed.altText).toBe('A dog (beagle, beagle puppy, pet).');
  });

  it('leaves out keywords neither seen nor stated, and ones already said', () => {
    const result = addTruthfulKeywords({ ...base, keywords: ['cat', 'Dog', 'seo agency', 'category'] });
    expect(result).toEqual({ altText: 'A dog lying on grass.', reasons: [] });
  });

  it('matches whole words only and keeps within the length limit', () => {
    expect(
      addTruthfulKeywords({ ...base, keywords: ['cat'], context: { caption: 'A category of toys' } }).altText,
    ).toBe('A dog lying on grass.');
    expect(
      addTruthfulKeywords({
        ...base,
        keywords: ['beagle'],
        context: { caption: 'beagle' },
        maxLength: base.altText.length + 3,
      }).altText,
    ).toBe('A dog lying on grass.');
  });
});
