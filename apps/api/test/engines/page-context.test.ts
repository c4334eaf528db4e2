import { describe, expect, it } from 'vitest';
import { dominantColourIn } from '../../src/engines/image-stats.ts';
import {
  cleanContext,
  findNamedPerson,
  isDescriptiveAlt,
  looksLikeFileName,
} from '../../src/engines/page-context.ts';

describe('page context', () => {
  it('recognises file names and camera names', () => {
    for (const name of [
      'IMG_2041.jpg',
      'DSC0001',
      'hero-banner-2x.png',
      'PXL_20240101_120000',
      'photo.png',
    ]) {
      expect(looksLikeFileName(name)).toBe(true);
    }
    for (const text of ['A dog on a beach', 'Peter Taylor', 'Summer sale banner']) {
      expect(looksLikeFileName(text)).toBe(false);
    }
  });

  it('treats placeholders and file names as non-descriptive alts', () => {
    expect(isDescriptiveAlt('image')).toBe(false);
    expect(isDescriptiveAlt('logo')).toBe(false);
    expect(isDescriptiveAlt('IMG_2041.jpg')).toBe(false);
    // The audit's rulebook (ADR 054): its placeholders and kind-word-only alts are not descriptions either.
    expect(isDescriptiveAlt('our company logo')).toBe(false);
    expect(isDescriptiveAlt('TODO: hero')).toBe(false);
    expect(isDescriptiveAlt('Insert alt text here')).toBe(false);
    expect(isDescriptiveAlt('favicon.ico')).toBe(false);
    expect(isDescriptiveAlt('Peter Taylor in a Palace shirt')).toBe(true);
  });

  it('strips markup and squeezes whitespace from context fields', () => {
    expect(cleanContext({ caption: '<em>Peter</em>   Taylor&nbsp;smiling\n', heading: '   ' })).toEqual({
      caption: 'Peter Taylor smiling',
    });
  });

  it('finds the person a caption leads with, and keeps where it came from', () => {
    expect(
      findNamedPerson({ caption: 'Peter Taylor was the first Palace player…', pageTitle: 'Peter Taylor' }),
    ).toEqual({
      name: 'Peter Taylor',
      sources: ['caption', 'pageTitle'],
    });
    expect(findNamedPerson({ caption: 'Jean-Luc van der Berg signs for the club' })?.name).toBe(
      'Jean-Luc van der Berg',
    );
  });

  it('does not take organisations, dates or sentence openers for people', () => {
    expect(findNamedPerson({ caption: 'Crystal Palace fans at Selhurst Park' })).toBeUndefined();
    expect(findNamedPerson({ caption: 'The team before kick-off' })).toBeUndefined();
    expect(findNamedPerson({ caption: 'Monday March 3 at the ground' })).toBeUndefined();
  });

  it('never takes a title or heading alone as the name of whoever is pictured', () => {
    expect(findNamedPerson({ pageTitle: 'Peter Taylor' })).toBeUndefined();
    expect(
      findNamedPerson({
        pageTitle: 'Peter Taylor – Palace legends',
        surroundingText: 'Peter Taylor scored…',
      }),
    ).toBeUndefined();
    expect(findNamedPerson({ heading: 'Peter Taylor', pageTitle: 'Peter Taylor' })).toBeUndefined();
    // The caption says who is pictured; the title then only supports it.
    expect(findNamedPerson({ pageTitle: 'Peter Taylor', caption: 'Peter Taylor in 1975' })).toEqual({
      name: 'Peter Taylor',
      sources: ['caption', 'pageTitle'],
    });
  });
});

describe('colour of a region', () => {
  it('counts shades of one colour together and names the commonest', () => {
    const width = 10;
    const height = 10;
    const rgb = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) {
      // 60% bright orange, 20% brown shading, 20% white.
      const [r, g, b] = i < 60 ? [240, 120, 20] : i < 80 ? [120, 60, 10] : [255, 255, 255];
      rgb.set([r, g, b], i * 3);
    }
    expect(dominantColourIn(rgb, width, height, [0, 0, 1, 1])).toEqual({ colour: 'orange', share: 0.8 });
  });
});
