import { describe, expect, it } from 'vitest';
import { MAX_AUDIT_IMAGES_PER_PAGE, readPage } from './extract-page.ts';
import { pageLimitNote } from './page-sandbox.ts';

/** Issue 22: what readPage cuts from a hostile page, it reports. */
const page = new URL('https://harbour.test/gallery');

describe('readPage limits', () => {
  it('reads the first 1,000 of 1,001 images and reports the rest (they were left out silently)', () => {
    const html = Array.from({ length: 1001 }, (_, i) => `<img src="/${i}.jpg" alt="Boat ${i}">`).join('');
    const reading = readPage(html, page);
    expect(reading.images).toHaveLength(MAX_AUDIT_IMAGES_PER_PAGE);
    expect(reading.limits).toEqual(['images']);
    expect(pageLimitNote(page.href, 'images')).toBe(
      'https://harbour.test/gallery has more than 1,000 images: only the first 1,000 are in the audit.',
    );
    // Exactly 1,000 images is no cut.
    expect(readPage(html.slice(0, html.lastIndexOf('<img')), page).limits).toEqual([]);
  });

  it('reads 1,000 images labelled by 200 ids of long text with labels cut at 1,000 characters', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `l${i}`);
    const html = `${ids.map((id) => `<span id="${id}">${'harbour '.repeat(60)}</span>`).join('')}${Array.from(
      { length: 1000 },
      (_, i) => `<img src="/${i}.png" aria-labelledby="${ids.join(' ')}">`,
    ).join('')}`;
    const started = performance.now();
    const reading = readPage(html, page);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(reading.images).toHaveLength(1000);
    expect(reading.images[999]?.ariaLabel).toHaveLength(1000);
    expect(reading.images[999]?.ariaLabel?.startsWith('harbour harbour')).toBe(true);
  });
});
