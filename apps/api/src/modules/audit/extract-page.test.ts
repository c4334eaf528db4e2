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

/** ADR 060: the markup hints the new checks read. */
describe('readPage markup hints', () => {
  const read = (html: string) => readPage(html, page).images;

  it('reads the title, class and id, the banner and a list bullet', () => {
    const [logo, bullet, plain, article] = read(`
      <header><a href="/" class="brand" id="home-link"><img src="/a.svg" class="site-logo" alt="Harbour"></a></header>
      <ul><li><img src="/b.gif" alt="bullet"> Boats for hire</li></ul>
      <p>Text <img src="/c.jpg" alt="Boat" title="A boat"></p>
      <article><header><img src="/d.jpg" alt="Mast"></header></article>`);
    expect(logo).toMatchObject({ classNames: 'site-logo brand home-link', inHeader: true });
    expect(bullet).toMatchObject({ listMarker: true });
    expect(plain).toMatchObject({ title: 'A boat' });
    expect(plain?.listMarker).toBeUndefined();
    // An article's header is not the page's banner.
    expect(article?.inHeader).toBeUndefined();
  });

  it('finds a text link to the same address beside an image link, and only then', () => {
    const [card, alone, other] = read(`
      <div class="card"><a href="/boats/1"><img src="/1.jpg" alt="Red boat"></a><h3><a href="/boats/1">Red boat</a></h3></div>
      <div><a href="/boats/2"><img src="/2.jpg" alt="Blue boat"></a></div>
      <div><a href="/boats/3"><img src="/3.jpg" alt="Green boat"></a> <a href="/boats/4">Yellow boat</a></div>`);
    expect(card?.besideTextLink).toBe('Red boat');
    expect(alone?.besideTextLink).toBeUndefined();
    expect(other?.besideTextLink).toBeUndefined();
  });

  it('reads hints in bounded work on a hostile page: 1,000 image links and 1,000 text links in one block, 500 levels deep', () => {
    const links = Array.from(
      { length: 1000 },
      (_, i) => `<a href="/b/${i}"><img src="/${i}.jpg" alt="Boat ${i}"></a><a href="/x/${i}">Other ${i}</a>`,
    ).join('');
    const deep = `${'<div>'.repeat(500)}<li>${'<span></span>'.repeat(5000)}<img src="/z.gif" alt="bullet"> x</li>${'</div>'.repeat(500)}`;
    const started = performance.now();
    const images = read(`${deep}<div>${links}</div>`);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(images).toHaveLength(1000);
    // A list item is read for 200 nodes at most: a "bullet" after 5,000 elements is not looked for.
    expect(images[0]?.listMarker).toBeUndefined();
    // No text link to the same address: nothing is beside them.
    expect(images.every((image) => image.besideTextLink === undefined)).toBe(true);
  });

  it('does not call an image after text in a list item a bullet', () => {
    const [image] = read('<ul><li>Boats <img src="/b.gif" alt="bullet"></li></ul>');
    expect(image?.listMarker).toBeUndefined();
  });
});
