import { pageContextSchema } from '@altwise/contracts/page-context';
import { scrapedImageContextSchema } from '@altwise/contracts/scrape';
import { describe, expect, it } from 'vitest';
import { contextSchema } from '../bin/describe-inputs.ts';

/** One page-context type, from the contract's schema, for the engines, batches, scrape and CLI. */
describe('the one page context', () => {
  const every = {
    pageTitle: 'Harbour days',
    heading: 'The boats',
    caption: 'A red boat',
    surroundingText: 'Boats leave at dawn.',
    linkTarget: 'https://example.com/boats',
    role: 'link',
    linkText: 'See the boats',
    existingAlt: 'boat',
    fileName: 'boat.jpg',
    pageUrl: 'https://example.com/',
    partOfPicture: '4 of 5 stars',
    imageRow: { position: 2, files: ['star-full.png', 'star-full.png', 'star-empty.png'] },
    siteName: 'Harbour Times',
    siteLogo: true,
    language: 'en-GB',
  } as const;

  it('is read by the CLI manifest with every field of the contract, and no other', () => {
    expect(Object.keys(every).sort()).toEqual(pageContextSchema.keyof().options.slice().sort());
    expect(contextSchema.parse(every)).toEqual(pageContextSchema.parse(every));
    expect(contextSchema.safeParse({ ...every, pageTitel: 'typo' }).success).toBe(false);
    // Blank and null fields are "not given" for the CLI, never an error.
    expect(contextSchema.parse({ pageTitle: '  ', heading: null, role: null })).toEqual({});
  });

  it('refuses an image row whose position is outside it, or that is not a row', () => {
    const row = (imageRow: unknown) => contextSchema.safeParse({ imageRow });
    expect(row({ position: 4, files: ['a.png', 'a.png', 'a.png'] }).error?.issues[0]?.message).toBe(
      'The position must be one of the row’s images',
    );
    expect(row({ position: 1, files: ['a.png', 'a.png'] }).success).toBe(false);
    expect(row({ position: 1, files: Array.from({ length: 11 }, () => 'a.png') }).success).toBe(false);
    expect(row('1 of 3').success).toBe(false);
  });

  it('gives the scraper the page’s part of it', () => {
    expect(scrapedImageContextSchema.keyof().options.slice().sort()).toEqual(
      [
        'caption',
        'heading',
        'linkTarget',
        'linkText',
        'pageTitle',
        'role',
        'surroundingText',
        'partOfPicture',
        'imageRow',
        'siteName',
        'siteLogo',
        'language',
      ].sort(),
    );
  });
});
