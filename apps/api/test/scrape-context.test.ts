import { describe, expect, it } from 'vitest';
import { extractImages } from '../src/pages/extract-images.ts';

/**
 * What the scraper records around each image for the W3C alt decision tree: the link or button it
 * is in (target and own text), the figure and its caption, the nearest heading and the text next to it.
 */

const page = new URL('https://altwise.test/blog/post.html');
const contextsOf = (body: string) =>
  extractImages(`<!doctype html><title>Altwise blog</title><body>${body}</body>`, page, 50).map(
    (image) => image.context,
  );
const only = (body: string) => {
  const [context] = contextsOf(body);
  if (!context) throw new Error('no image found');
  return context;
};

describe('scraped image context', () => {
  it.each([
    {
      what: 'a logo that is the only content of a home link',
      html: '<header><a href="/"><img src="logo.svg" alt="Altwise logo"></a></header>',
      expected: { role: 'link', linkTarget: 'https://altwise.test/' },
      absent: ['linkText', 'caption'],
    },
    {
      what: 'an icon beside the link’s own text',
      html: '<nav><a href="/pricing"><img src="tag.svg" alt=""> Pricing </a></nav>',
      expected: { role: 'link', linkTarget: 'https://altwise.test/pricing', linkText: 'Pricing' },
      absent: ['caption'],
    },
    {
      what: 'a button whose onclick moves to an address (the script is read, never run)',
      html: `<button onclick="location.href='/opening-times/'"><img src="go.png"></button>`,
      expected: { role: 'button', linkTarget: 'https://altwise.test/opening-times/' },
      absent: ['linkText'],
    },
    {
      what: 'a dead "#" link whose onclick opens a page',
      html: `<a href="#" onclick="window.open('https://maps.example/riverside')"><img src="map.png"></a>`,
      expected: { role: 'link', linkTarget: 'https://maps.example/riverside' },
      absent: ['linkText'],
    },
    {
      what: 'a link named by aria-label',
      html: '<a href="https://x.example/altwise" aria-label="Altwise on X"><img src="x.svg"></a>',
      expected: { role: 'link', linkText: 'Altwise on X', linkTarget: 'https://x.example/altwise' },
      absent: [],
    },
    {
      what: 'another image’s alt counts as the link’s text',
      html: '<a href="/team"><img src="a.jpg"><img src="b.jpg" alt="Our team"></a>',
      expected: { role: 'link', linkText: 'Our team' },
      absent: [],
    },
    {
      what: 'the only content of a button',
      html: '<form><button type="submit"><img src="search.svg" alt="Search"></button></form>',
      expected: { role: 'button' },
      absent: ['linkText', 'linkTarget'],
    },
    {
      what: 'an element with role="button" and text',
      html: '<div role="button" tabindex="0"><img src="close.svg"> Close menu</div>',
      expected: { role: 'button', linkText: 'Close menu' },
      absent: ['linkTarget'],
    },
    {
      what: 'a figure: caption apart, the paragraph after it as adjacent text',
      html: '<h2>Harbour</h2><figure><img src="boat.jpg"><figcaption>The red boat, 1998</figcaption></figure><p>The boat was built in Bergen.</p>',
      expected: {
        role: 'figure',
        heading: 'Harbour',
        caption: 'The red boat, 1998',
        surroundingText: 'The boat was built in Bergen.',
      },
      absent: ['linkText', 'linkTarget'],
    },
    {
      what: 'a linked figure: the link decides the role, the caption stays',
      html: '<figure><a href="/files/boat.jpg"><img src="boat-small.jpg"></a><figcaption>The red boat</figcaption></figure>',
      expected: {
        role: 'link',
        caption: 'The red boat',
        linkTarget: 'https://altwise.test/files/boat.jpg',
      },
      absent: ['linkText'],
    },
    {
      what: 'an image in running text',
      html: '<h1>Post</h1><p>Boats at dawn. <img src="dawn.jpg" alt="Boats at dawn"> Seen from the pier.</p>',
      expected: {
        pageTitle: 'Altwise blog',
        heading: 'Post',
        surroundingText: 'Boats at dawn. Seen from the pier.',
      },
      absent: ['role', 'linkText', 'linkTarget', 'caption'],
    },
  ])('$what', ({ html, expected, absent }) => {
    const context = only(html);
    expect(context).toMatchObject(expected);
    for (const key of absent) expect(context).not.toHaveProperty(key);
  });

  it('keeps the nearest heading per image and the alt of each row', () => {
    const images = extractImages(
      '<h1>One</h1><img src="a.jpg" alt="First"><h2>Two</h2><a href="/b"><img src="b.jpg" alt="Second"></a>',
      page,
      10,
    );
    expect(images.map((image) => [image.alt, image.context.heading, image.context.role])).toEqual([
      ['First', 'One', undefined],
      ['Second', 'Two', 'link'],
    ]);
  });
});
