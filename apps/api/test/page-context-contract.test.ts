import { pageContextSchema } from '@altwise/contracts/page-context';
import { scrapedImageContextSchema } from '@altwise/contracts/scrape';
import { describe, expect, it } from 'vitest';
import { contextSchema } from '../bin/describe-inputs.ts';

/** Issue 22: one page-context type, from the contract's schema, for the engines, batches, scrape and CLI. */
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
  } as const;

  it('is read by the CLI manifest with every field of the contract, and no other', () => {
    expect(Object.keys(every).sort()).toEqual(pageContextSchema.keyof().options.slice().sort());
    expect(contextSchema.parse(every)).toEqual(pageContextSchema.parse(every));
    expect(contextSchema.safeParse({ ...every, pageTitel: 'typo' }).success).toBe(false);
    // Blank and null fields are "not given" for the CLI, never an error.
    expect(contextSchema.parse({ pageTitle: '  ', heading: null, role: null })).toEqual({});
  });

  it('gives the scraper the page’s part of it', () => {
    expect(scrapedImageContextSchema.keyof().options.slice().sort()).toEqual(
      ['caption', 'heading', 'linkTarget', 'linkText', 'pageTitle', 'role', 'surroundingText'].sort(),
    );
  });
});
