import { describe, expect, it } from 'vitest';
import {
  bareUrl,
  findOccurrence,
  listContentImages,
  setImageAlt,
  withoutUnmarkedEmptyAlts,
} from './post-images.ts';

const urls = new Map([[bareUrl('https://blog.example.com/wp-content/uploads/2026/11/boat.jpg'), 7]]);

const block = (id: number, alt: string, extra = '') =>
  `<!-- wp:image {"id":${id},"sizeSlug":"large"${extra}} -->\n<figure class="wp-block-image size-large"><img src="https://blog.example.com/wp-content/uploads/2026/11/img-${id}.jpg" alt="${alt}" class="wp-image-${id}"/></figure>\n<!-- /wp:image -->`;

describe('images in a post’s content', () => {
  it('finds each image’s attachment by its wp-image class, or by one of its URLs', () => {
    const raw = `${block(3, 'one')}<p>text</p><img src="https://blog.example.com/wp-content/uploads/2026/11/boat.jpg?ver=2" alt='two &amp; more'><img src="/other.png">`;
    expect(listContentImages(raw, urls).map(({ mediaId, alt }) => ({ mediaId, alt }))).toEqual([
      { mediaId: 3, alt: 'one' },
      { mediaId: 7, alt: 'two & more' },
      { mediaId: null, alt: null },
    ]);
  });

  it('changes only the alt of the chosen use, keeping every other byte', () => {
    const raw = `<!-- wp:paragraph --><p>Intro</p><!-- /wp:paragraph -->\n${block(3, 'first')}\n${block(3, 'second')}`;
    const second = findOccurrence(raw, urls, 3, 1);
    if (!second) throw new Error('no second use');
    const changed = setImageAlt(raw, second, 'Two boats "at rest" <by> the pier & the sea');
    expect(changed).toBe(
      raw.replace('alt="second"', 'alt="Two boats &quot;at rest&quot; &lt;by&gt; the pier &amp; the sea"'),
    );
    expect(findOccurrence(changed, urls, 3, 1)?.alt).toBe('Two boats "at rest" <by> the pier & the sea');
    expect(findOccurrence(changed, urls, 3, 0)?.alt).toBe('first');
  });

  it('updates the block comment’s alt attribute when the block stores one, escaped as WordPress does', () => {
    const raw = block(5, 'old', ',"alt":"old"');
    const image = findOccurrence(raw, urls, 5, 0);
    if (!image) throw new Error('no image');
    const changed = setImageAlt(raw, image, 'A <b> -- "quoted" & more');
    expect(changed).toContain('"alt":"A \\u003cb\\u003e \\u002d\\u002d \\u0022quoted\\u0022 \\u0026 more"');
    expect(changed).toContain('alt="A &lt;b&gt; -- &quot;quoted&quot; &amp; more"');
  });

  it('adds an alt to an image that has none', () => {
    const raw = '<p><img class="wp-image-9" src="x.png"></p>';
    const image = findOccurrence(raw, urls, 9, 0);
    if (!image) throw new Error('no image');
    expect(setImageAlt(raw, image, 'A map')).toBe('<p><img alt="A map" class="wp-image-9" src="x.png"></p>');
  });

  it('reads hostile content (100,000 unclosed tags) in linear time', () => {
    const raw = `${'<img class="wp-image-1" alt="a'.repeat(100_000)}`;
    const started = performance.now();
    listContentImages(raw, urls);
    listContentImages(`${'<img '.repeat(200_000)}>`, urls);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reads a decorative mark from the image block or the tag, and leaves out only unmarked empty alts', () => {
    const raw = [
      '<!-- wp:image {"id":9,"decorative":true} --><figure><img src="a.png" alt="" class="wp-image-9"/></figure><!-- /wp:image -->',
      '<!-- wp:image {"id":9} --><figure><img src="a.png" alt="" class="wp-image-9"/></figure><!-- /wp:image -->',
      '<p><img src="b.png" alt="" role="presentation" class="wp-image-10"><img src="c.png" alt="" data-decorative class="wp-image-11"></p>',
    ].join('');
    expect(listContentImages(raw, urls).map((image) => image.decorative)).toEqual([true, false, true, true]);
    const rendered = withoutUnmarkedEmptyAlts(
      raw,
      urls,
      (image, occurrence) => image.mediaId === 9 && occurrence === 0,
    );
    expect(listContentImages(rendered, urls).map((image) => image.alt)).toEqual(['', null, '', '']);
  });
});
