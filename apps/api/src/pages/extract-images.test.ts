import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { MAX_PAGE_DEPTH, MAX_PAGE_NODES, parsePage, readImages, squash, textOf } from './extract-images.ts';

/** A page's shape cannot make reading it quadratic or overflow the stack. */
const page = new URL('https://harbour.test/news/');
const timed = <T>(work: () => T): { result: T; ms: number } => {
  const started = performance.now();
  const result = work();
  return { result, ms: performance.now() - started };
};

describe('reading hostile pages', () => {
  it('reads 200,000 nested divs in linear time: flattened at 512 levels, cut at 100,000 nodes (was 9 s)', () => {
    const { result, ms } = timed(() =>
      readImages(`${'<div>'.repeat(200_000)}<img src="/deep.png" alt="Deep">`, page, 200),
    );
    // Generous: about 0.2 s on one idle core.
    expect(ms).toBeLessThan(3000);
    expect(result.limits.sort()).toEqual(['depth', 'nodes']);
    expect(MAX_PAGE_NODES).toBe(100_000);
  });

  it('finds the image under 5,000 nested spans (a recursive walk overflowed the stack)', () => {
    const html = `<h1>Harbour news</h1>${'<span>'.repeat(5000)}<img src="/deep.png" alt="Deep">${'</span>'.repeat(5000)}<p>After.</p>`;
    const { images, limits } = readImages(html, page, 200);
    expect(images.map((image) => [image.src, image.alt, image.context.heading])).toEqual([
      ['https://harbour.test/deep.png', 'Deep', 'Harbour news'],
    ]);
    expect(limits).toEqual(['depth']);
    // Elements after the deep part are in the tree again at their own level.
    const { document } = parsePage(html, page);
    const after = DomUtils.findOne((element) => element.name === 'p', document.children, true);
    expect(after && textOf(after)).toBe('After.');
  });

  it('keeps pages of ordinary depth as they are', () => {
    const html = `${'<div>'.repeat(MAX_PAGE_DEPTH - 2)}<figure><img src="/a.png" alt="A"><figcaption>The quay</figcaption></figure>`;
    const { images, limits } = readImages(html, page, 200);
    expect(limits).toEqual([]);
    expect(images[0]?.context).toMatchObject({ caption: 'The quay', role: 'figure' });
  });

  it('reads a 4.5 MB text node shared by 1,000 images once, not once per image', () => {
    const html = `<figure>${Array.from({ length: 1000 }, (_, i) => `<img src="/f${i}.png" alt="Boat ${i}">`).join('')}<p>${'quay '.repeat(900_000)}</p></figure>`;
    const { result, ms } = timed(() => readImages(html, page, 1000));
    expect(ms).toBeLessThan(3000);
    expect(result.images).toHaveLength(1000);
    expect(result.images[999]?.context.surroundingText).toBe('quay '.repeat(60));
  });

  it('reads text as squash(textContent) cut at the cap, across text nodes, entities and whitespace runs', () => {
    const pieces = [
      'Boats',
      ' ',
      '\n\t ',
      'at',
      '&amp;',
      'dawn',
      '   ',
      '<b> on </b>',
      '<i>the</i>',
      ' quay ',
    ];
    let seed = 7;
    for (let round = 0; round < 300; round++) {
      let html = '';
      for (let i = 0; i < 1 + (round % 40); i++) {
        seed = (seed * 48271) % 2147483647;
        html += pieces[seed % pieces.length];
      }
      const element = parseDocument(`<p>${html}</p>`).children[0] as Parameters<typeof textOf>[0];
      const expected = squash(DomUtils.textContent(element));
      for (const max of [5, 17, 1000]) expect(textOf(element, max), html).toBe(expected.slice(0, max));
    }
  });
});

describe('the language of an image’s place (ADR 071)', () => {
  const read = (html: string) => readImages(html, page, 200).images.map((image) => image.context.language);

  it('takes the image’s own lang, else its nearest ancestor’s, else <html lang>', () => {
    const html = `<html lang="fr"><body>
      <img src="/a.jpg">
      <div lang="ja"><p><img src="/b.jpg"></p><img src="/c.jpg" lang="en-GB"></div>
      <section xml:lang="de"><img src="/d.jpg"></section>
    </body></html>`;
    expect(read(html)).toEqual(['fr', 'ja', 'en-GB', 'de']);
  });

  it('reads en_US as en-US, and an empty or malformed lang as unknown (the search stops there)', () => {
    const html = `<html lang="fr"><body>
      <div lang="en_US"><img src="/a.jpg"></div>
      <div lang=""><img src="/b.jpg"></div>
      <div lang="not a language"><img src="/c.jpg"></div>
    </body></html>`;
    expect(read(html)).toEqual(['en-US', undefined, undefined]);
    expect(read('<img src="/a.jpg">')).toEqual([undefined]);
  });
});
