import { describe, expect, it } from 'vitest';
import { pictogramRow, rowMeaning } from '../../src/engines/image-row.ts';
import { decideRole } from '../../src/engines/role.ts';
import type { PageContext } from '../../src/engines/types.ts';
import { contextOf as auditContextOf } from '../../src/modules/audit/fix.ts';
import { readImages } from '../../src/pages/extract-images.ts';
import { readPage } from '../../src/pages/extract-page.ts';

/**
 * Images that are parts of one thing. A page's HTML, read by the product's scraper, and
 * the image's own size → what the role decision says about one of its images (`decorative`, an alt
 * text, or `describe`: the pixels must speak). Rules: an image inside a named role="img" element is
 * presentational (WAI-ARIA); in a row of small pictograms of one kind (W3C "Groups of images") the
 * first carries the row's meaning and the rest are decorative.
 */

const pageUrl = new URL('https://shop.example/reviews/');

/** The scraped context of the image whose source ends with `target`, as generation gives it to the engine. */
function contextFor(html: string, target: string): PageContext {
  const page = `<!doctype html><html><head><title>Reviews | Shop</title></head><body>${html}</body></html>`;
  const image = readImages(page, pageUrl, 100).images.find((found) => found.src.endsWith(target));
  if (!image) throw new Error(`no image ${target}`);
  return { ...image.context, ...(image.alt ? { existingAlt: image.alt } : {}), pageUrl: pageUrl.href };
}

function outcome(context: PageContext, size: { width: number; height: number }): string {
  const decision = decideRole(context, { size });
  if (decision.kind === 'decorative') return 'decorative';
  if (decision.kind === 'functional') return decision.altText;
  return 'describe';
}

const stars = (names: string[], before = 'Rating:') =>
  `<p>${before}\n${names.map((name, i) => `<img src="/img/${name}?n=${i}" alt="">`).join('\n')}</p>`;
const star = { width: 22, height: 20 };

describe('an image inside a named role="img" element is decorative', () => {
  it.each<{
    what: string;
    html: string;
    target: string;
    size: { width: number; height: number };
    expected: string;
  }>([
    {
      what: 'stars inside <div role="img" aria-labelledby> → alt=""',
      html: '<div role="img" aria-labelledby="r1"><img src="/fullstar.png" alt=""><img src="/fullstar.png" alt=""><img src="/emptystar.png" alt=""></div><div id="r1">2 of 3</div>',
      target: '/fullstar.png',
      size: { width: 48, height: 48 },
      expected: 'decorative',
    },
    {
      what: 'a photograph inside <span role="img" aria-label="Harbour at dawn"> → alt="" (the span is named)',
      html: '<span role="img" aria-label="Harbour at dawn"><img src="/harbour.jpg"></span>',
      target: '/harbour.jpg',
      size: { width: 1200, height: 800 },
      expected: 'decorative',
    },
    {
      what: 'a part of an SVG-like figure with role="graphics-document" titled "Org chart" → alt=""',
      html: '<div role="graphics-document" title="Org chart"><img src="/box.png"></div>',
      target: '/box.png',
      size: { width: 120, height: 40 },
      expected: 'decorative',
    },
    {
      what: 'the only image of a link inside a named role="img" → alt="" (the role=img is what is announced)',
      html: '<a href="/ratings"><span role="img" aria-label="4 of 5 stars"><img src="/star-4.png"></span></a>',
      target: '/star-4.png',
      size: { width: 90, height: 18 },
      expected: 'decorative',
    },
    {
      what: 'false row: an unnamed role="img" (aria-labelledby pointing nowhere) → the pixels must speak',
      html: '<div role="img" aria-labelledby="missing"><img src="/chart.png"></div>',
      target: '/chart.png',
      size: { width: 600, height: 400 },
      expected: 'describe',
    },
    {
      what: 'false row: a photo inside a figure with a caption is not decorative',
      html: '<figure><img src="/kestrel.jpg"><figcaption>A kestrel hovering over the dunes</figcaption></figure>',
      target: '/kestrel.jpg',
      size: { width: 800, height: 600 },
      expected: 'describe',
    },
  ])('$what', ({ html, target, size, expected }) => {
    expect(outcome(contextFor(html, target), size)).toBe(expected);
  });
});

describe('a row of small pictograms: the first says what the row means, the rest are decorative', () => {
  const rating = stars([
    'star-full.png',
    'star-full.png',
    'star-full.png',
    'star-half.png',
    'star-empty.png',
  ]);
  it.each<{
    what: string;
    html: string;
    target: string;
    size?: { width: number; height: number };
    expected: string;
  }>([
    {
      what: 'rating star 1 of 5 (full, full, full, half, empty)',
      html: rating,
      target: '?n=0',
      expected: '3.5 out of 5 stars',
    },
    { what: 'rating star 2 of 5 → alt=""', html: rating, target: '?n=1', expected: 'decorative' },
    { what: 'the half star 4 of 5 → alt=""', html: rating, target: '?n=3', expected: 'decorative' },
    { what: 'the empty star 5 of 5 → alt=""', html: rating, target: '?n=4', expected: 'decorative' },
    {
      what: 'glued names (fullstar, emptystar) count too: 4 out of 5',
      html: stars(['fullstar.png', 'fullstar.png', 'fullstar.png', 'fullstar.png', 'emptystar.png'], ''),
      target: '?n=0',
      size: { width: 48, height: 48 },
      expected: '4 out of 5 stars',
    },
    {
      what: 'progress dots (dot_on, dot_off ×2) → 1 out of 3 dots',
      html: stars(['dot_on.gif', 'dot_off.gif', 'dot_off.gif'], 'Step:'),
      target: '?n=0',
      size: { width: 12, height: 12 },
      expected: '1 out of 3 dots',
    },
    {
      what: 'the same heart repeated four times, states unknown → "4 hearts" (said less: no score)',
      html: stars(['heart.png', 'heart.png', 'heart.png', 'heart.png'], 'Loved by'),
      target: '?n=0',
      expected: '4 hearts',
    },
    {
      what: 'false row: three different product photos in a row are not a group',
      html: stars(['red-handbag.jpg', 'blue-scarf.jpg', 'leather-belt.jpg'], 'New in:'),
      target: '?n=1',
      size: { width: 300, height: 300 },
      expected: 'describe',
    },
    {
      what: 'false row: numbered photos of one product (product-1, -2, -3) are different pictures',
      html: stars(['product-1.jpg', 'product-2.jpg', 'product-3.jpg'], ''),
      target: '?n=2',
      size: { width: 60, height: 60 },
      expected: 'describe',
    },
    {
      what: 'false row: social icons side by side (facebook, twitter, linkedin) are not one pictogram',
      html: stars(['facebook.png', 'twitter.png', 'linkedin.png'], 'Follow us'),
      target: '?n=1',
      size: { width: 24, height: 24 },
      expected: 'describe',
    },
    {
      what: 'false row: large banners that share a name (slide-full ×3) are not pictograms',
      html: stars(['slide-full.jpg', 'slide-full.jpg', 'slide-full.jpg'], ''),
      target: '?n=1',
      size: { width: 1200, height: 400 },
      expected: 'describe',
    },
    {
      what: 'false row: two stars are no row (a row needs three)',
      html: stars(['star-full.png', 'star-empty.png']),
      target: '?n=1',
      expected: 'describe',
    },
    {
      what: 'false row: stars with words between them are separate images',
      html: '<p>Food <img src="/star-full.png?n=0"> Service <img src="/star-full.png?n=1"> Price <img src="/star-empty.png?n=2"></p>',
      target: '?n=1',
      expected: 'describe',
    },
  ])('$what', ({ html, target, size, expected }) => {
    expect(outcome(contextFor(html, target), size ?? star)).toBe(expected);
  });

  it('an audit reads the same row, and its fix gives the engine the same context', () => {
    const reading = readPage(`<html><body>${rating}</body></html>`, pageUrl);
    const outcomes = reading.images.map((facts) =>
      outcome(auditContextOf({ pageUrl: facts.pageUrl, alt: facts.alt, role: facts.role, facts }), star),
    );
    expect(outcomes).toEqual(['3.5 out of 5 stars', 'decorative', 'decorative', 'decorative', 'decorative']);
  });

  it('a row the engine cannot see the size of (no pixels) is left to the pixels', () => {
    expect(decideRole(contextFor(rating, '?n=1')).kind).toBe('describe');
  });

  it('the scraper reports each image’s place in its row and every file name', () => {
    expect(contextFor(rating, '?n=3').imageRow).toEqual({
      position: 4,
      files: ['star-full.png', 'star-full.png', 'star-full.png', 'star-half.png', 'star-empty.png'],
    });
  });

  it('a run of more than ten images (a gallery) is no row', () => {
    const gallery = stars(Array.from({ length: 11 }, () => 'star-full.png'));
    expect(contextFor(gallery, '?n=2').imageRow).toBeUndefined();
  });

  it('reading the rows of 50,000 images in one element stays linear', () => {
    const html = `<div>${Array.from({ length: 50_000 }, (_, i) => `<img src="/s${i}.png"> `).join('')}</div>`;
    const started = performance.now();
    expect(readImages(html, pageUrl, 1000).images).toHaveLength(1000);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('helpers', () => {
  it('states glued to the name read longest first ("starinactive" is inactive)', () => {
    const row = pictogramRow({
      position: 1,
      files: ['staractive.png', 'starinactive.png', 'starinactive.png'],
    });
    expect(row && rowMeaning(row)).toEqual({ text: '1 out of 3 stars', counted: true });
  });

  it('states mixed with unknown ones say nothing', () => {
    const row = pictogramRow({ position: 1, files: ['star-full.png', 'star.png', 'star.png'] });
    expect(row && rowMeaning(row)).toBeUndefined();
  });
});
