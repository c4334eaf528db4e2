import { describe, expect, it } from 'vitest';
import { decideRole, repeats } from '../../src/engines/role.ts';
import type { PageContext } from '../../src/engines/types.ts';
import { readable, siteName } from '../../src/rules/site-words.ts';

/** The W3C alt decision tree over page contexts: a table of contexts and the decision each gets. */

const page = 'https://altwise.app/blog/alt-text-tips';

describe('decideRole: the only content of a link or button says where it goes or what it does', () => {
  it.each<{ what: string; context: PageContext; altText: string; confidence: number }>([
    {
      what: 'a logo linking to the site root',
      context: { role: 'link', linkTarget: 'https://altwise.app/', pageUrl: page, existingAlt: 'logo' },
      altText: 'Altwise home',
      confidence: 0.85,
    },
    {
      what: 'the site spelled as the page title spells it',
      context: {
        role: 'link',
        linkTarget: 'https://www.altwise.app/index.html',
        pageUrl: page,
        pageTitle: 'Alt text tips – AltWise',
      },
      altText: 'AltWise home',
      confidence: 0.85,
    },
    {
      what: 'a locale root is a home link',
      context: { role: 'link', linkTarget: 'https://altwise.app/en/', pageUrl: page },
      altText: 'Altwise home',
      confidence: 0.85,
    },
    {
      what: 'a pricing link',
      context: { role: 'link', linkTarget: 'https://altwise.app/pricing', pageUrl: page },
      altText: 'Pricing',
      confidence: 0.8,
    },
    {
      what: 'a slug made readable, ids dropped',
      context: {
        role: 'link',
        linkTarget: 'https://altwise.app/products/blue-canvas-sneakers-12345.html?ref=home',
        pageUrl: page,
      },
      altText: 'Blue canvas sneakers',
      confidence: 0.8,
    },
    {
      what: 'an external profile names the site, a brand spelled its own way',
      context: { role: 'link', linkTarget: 'https://github.com/altwise', pageUrl: page },
      altText: 'Altwise on GitHub',
      confidence: 0.7,
    },
    {
      what: 'an external root is that site’s website',
      context: { role: 'link', linkTarget: 'https://riverside-bakery.com/', pageUrl: page },
      altText: 'Riverside Bakery website',
      confidence: 0.75,
    },
    {
      what: 'a known brand’s root is the brand (a social icon linking to linkedin.com)',
      context: { role: 'link', linkTarget: 'https://www.linkedin.com/', pageUrl: page },
      altText: 'LinkedIn',
      confidence: 0.8,
    },
    {
      what: 'a mail link',
      context: { role: 'link', linkTarget: 'mailto:hello@altwise.app', pageUrl: page },
      altText: 'Email hello@altwise.app',
      confidence: 0.8,
    },
    {
      what: 'a phone link',
      context: { role: 'link', linkTarget: 'tel:+44-20-7946-0000' },
      altText: 'Call +44-20-7946-0000',
      confidence: 0.8,
    },
    {
      what: 'a back-to-top link on the same page',
      context: { role: 'link', linkTarget: `${page}#top`, pageUrl: page },
      altText: 'Back to top',
      confidence: 0.7,
    },
    {
      what: 'an existing alt that already carries the name and more is kept',
      context: {
        role: 'link',
        linkTarget: 'https://altwise.app/pricing',
        pageUrl: page,
        existingAlt: 'Pricing plans',
      },
      altText: 'Pricing plans',
      confidence: 0.8,
    },
    {
      what: 'an unreadable address falls back to the page’s own alt',
      context: {
        role: 'link',
        linkTarget: 'https://altwise.app/p/8f3a9c2e41',
        pageUrl: page,
        existingAlt: 'Spring sale',
      },
      altText: 'Spring sale',
      confidence: 0.55,
    },
    {
      what: 'a button the page names by its alt',
      context: { role: 'button', existingAlt: 'Search' },
      altText: 'Search',
      confidence: 0.6,
    },
  ])('$what → "$altText"', ({ context, altText, confidence }) => {
    const decision = decideRole(context);
    expect(decision).toMatchObject({ kind: 'functional', altText, confidence });
    const sources = decision.reasons.map((reason) => reason.source);
    expect(sources[0]).toBe('role');
    expect(sources.some((source) => source === 'link' || source === 'existingAlt')).toBe(true);
  });
});

describe('decideRole: information already in the adjacent text is decorative', () => {
  it.each<{ what: string; context: PageContext; source: string }>([
    {
      what: 'an icon beside the link’s own text',
      context: { role: 'link', linkTarget: 'https://altwise.app/pricing', linkText: 'Pricing' },
      source: 'link',
    },
    {
      what: 'a product photo in a card whose link text names the product',
      context: {
        role: 'link',
        linkTarget: 'https://shop.example/sneakers',
        linkText: 'Blue canvas sneakers – €49',
        existingAlt: 'Blue sneakers on a wooden floor',
      },
      source: 'link',
    },
    {
      what: 'an icon beside a button’s text',
      context: { role: 'button', linkText: 'Close menu' },
      source: 'link',
    },
    {
      what: 'an existing alt that repeats the caption',
      context: { role: 'figure', caption: 'The red boat, 1998', existingAlt: 'The red boat' },
      source: 'caption',
    },
    {
      what: 'an existing alt equal to the caption, punctuation aside',
      context: { role: 'figure', caption: 'Peter Taylor in 1975.', existingAlt: 'Peter Taylor in 1975' },
      source: 'caption',
    },
    {
      what: 'an existing alt that repeats the sentence next to it',
      context: {
        surroundingText: 'Our new office in Leeds, opened in March.',
        existingAlt: 'Our new office in Leeds',
      },
      source: 'surroundingText',
    },
  ])('$what', ({ context, source }) => {
    const decision = decideRole(context);
    expect(decision.kind).toBe('decorative');
    expect(decision.reasons[0]?.source).toBe(source);
    expect(decision.reasons.map((reason) => reason.source)).toContain('role');
  });
});

describe('decideRole: everything else is described, with the role as a hint', () => {
  it.each<{ what: string; context: PageContext; source?: string; maxConfidence?: number }>([
    { what: 'an image in running text', context: { surroundingText: 'Boats at dawn.' } },
    {
      what: 'a figure whose alt adds to its caption',
      context: { role: 'figure', caption: 'The harbour', existingAlt: 'Three red boats moored at dawn' },
      source: 'role',
    },
    {
      what: 'a thumbnail linking to its full-size file',
      context: { role: 'link', linkTarget: 'https://altwise.app/media/boat-large.jpg' },
      source: 'link',
    },
    {
      what: 'a wiki thumbnail linking to its file page',
      context: { role: 'link', linkTarget: 'https://en.wikipedia.org/wiki/File:Red_boat.jpg' },
      source: 'link',
    },
    {
      what: 'an image beside vague link text',
      context: { role: 'link', linkTarget: 'https://altwise.app/a', linkText: 'Read more' },
      source: 'role',
    },
    {
      what: 'a link the page does not name',
      context: { role: 'link', linkTarget: 'https://altwise.app/p/8f3a9c2e41' },
      source: 'role',
      maxConfidence: 0.4,
    },
    {
      what: 'an icon button without a name',
      context: { role: 'button', existingAlt: 'icon' },
      source: 'role',
      maxConfidence: 0.4,
    },
    {
      what: 'a short alt inside a long paragraph is coincidence, not repetition',
      context: {
        surroundingText: 'We sailed past a red boat on the way to the lighthouse and back again.',
        existingAlt: 'A red boat',
      },
    },
  ])('$what', ({ context, source, maxConfidence }) => {
    const decision = decideRole(context);
    expect(decision.kind).toBe('describe');
    expect(decision.reasons[0]?.source).toBe(source);
    if (decision.kind === 'describe') expect(decision.maxConfidence).toBe(maxConfidence);
  });
});

describe('role helpers', () => {
  it.each([
    ['pricing', 'Pricing'],
    ['how-to-write_alt-text.html', 'How to write alt text'],
    ['aboutUs', 'About us'],
    ['faq', 'FAQ'],
    ['12345', null],
    ['p', null],
    ['a9f3c2e1d4', null],
  ])('readable(%s) → %s', (segment, expected) => {
    expect(readable(segment)).toBe(expected);
  });

  it.each([
    ['www.altwise.app', undefined, 'Altwise'],
    ['shop.example.co.uk', undefined, 'Example'],
    ['my-bakery.com', undefined, 'My Bakery'],
    ['altwise.app', 'Pricing | AltWise', 'AltWise'],
    ['127.0.0.1', undefined, null],
  ])('siteName(%s, %s) → %s', (host, title, expected) => {
    expect(siteName(host, title)).toBe(expected);
  });

  it('repeats: equal words, or a long enough run in the same order', () => {
    expect(repeats('Pricing', 'pricing')).toBe(true);
    expect(repeats('The red boat', 'The red boat, 1998')).toBe(true);
    expect(repeats('boat red', 'The red boat')).toBe(false);
    expect(repeats('A red boat', 'We sailed past a red boat on the way to the lighthouse')).toBe(false);
  });
});
