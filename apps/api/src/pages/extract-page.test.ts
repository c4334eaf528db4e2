import { describe, expect, it } from 'vitest';
import { spokenOf } from './announcements.ts';
import { MAX_AUDIT_IMAGES_PER_PAGE, readPage } from './extract-page.ts';
import { pageLimitNote } from './page-sandbox.ts';

/** What readPage cuts from a hostile page, it reports. */
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

  it('does not call a logo in the banner redundant with a "Home" link in the footer, nor with a link further away', () => {
    const [logo, far] = read(`
      <header><a href="/"><img src="/logo.svg" alt="Harbour Times"></a></header>
      <main><div><a href="/boats"><img src="/b.jpg" alt="Boats"></a> <a href="/nets">Nets</a> <a href="/boats">Boats</a></div></main>
      <footer><nav><a href="/">Home</a> <a href="/about">About</a></nav></footer>`);
    expect(logo?.besideTextLink).toBeUndefined();
    expect(far?.besideTextLink).toBeUndefined();
    const [inBanner] = read(
      `<header><a href="/"><img src="/logo.svg" alt="Harbour Times"></a> <a href="/">Home</a></header>`,
    );
    expect(inBanner?.besideTextLink).toBe('Home');
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

/** Every image-like element, named the way browsers name it. */
const site = new URL('https://harbour.test/tours/');

describe('readPage element kinds', () => {
  it.each([
    [
      'an <img>',
      '<img src="/boat.jpg" alt="A red boat">',
      { element: 'img', src: 'https://harbour.test/boat.jpg', name: 'A red boat', role: 'content' },
    ],
    [
      'an <img> in a <picture> whose source is in <source srcset>',
      '<picture><source srcset="/boat-2x.webp 2x, /boat.webp 1x"><img alt="A red boat"></picture>',
      { element: 'img', src: 'https://harbour.test/boat-2x.webp', name: 'A red boat' },
    ],
    [
      'an <img srcset> (largest candidate)',
      '<img srcset="/s.jpg 480w, /l.jpg 1200w" src="/s.jpg" alt="Quay">',
      { element: 'img', src: 'https://harbour.test/l.jpg' },
    ],
    [
      'an <input type="image">',
      '<form><input type="image" src="/go.png" alt="Search tours"></form>',
      { element: 'input-image', role: 'button', name: 'Search tours', alt: 'Search tours' },
    ],
    [
      'an <area href> of an image map',
      '<img src="/map.png" usemap="#m" alt="Harbour map"><map name="m"><area href="/tours/north" alt="North pier"></map>',
      {
        element: 'area',
        role: 'link',
        name: 'North pier',
        linkTarget: 'https://harbour.test/tours/north',
        src: 'https://harbour.test/tours/#area-2',
      },
      1,
    ],
    [
      'a server-side image map (<img ismap> in a link)',
      '<a href="/map"><img src="/map.png" ismap alt="Harbour map"></a>',
      { element: 'img', role: 'link', linkTarget: 'https://harbour.test/map' },
    ],
    [
      'an <svg role="img"> with <title>',
      '<svg role="img" id="stars"><title>Five stars</title><path d="M0 0"/></svg>',
      {
        element: 'svg',
        name: 'Five stars',
        nameSource: 'svg-title',
        src: 'https://harbour.test/tours/#stars',
        alt: null,
      },
    ],
    [
      'an <svg role="graphics-document"> with aria-label',
      '<svg role="graphics-document" aria-label="Tide chart"><rect/></svg>',
      { element: 'svg', name: 'Tide chart', nameSource: 'aria-label' },
    ],
    [
      'an unnamed <svg> that is the only content of a button',
      '<button type="button"> <svg><path d="M0 0"/></svg> </button>',
      { element: 'svg', role: 'button', name: null, nameSource: 'none' },
    ],
    [
      'a [role="img"] element',
      '<div role="img" aria-label="Sunset over the quay">🌅</div>',
      { element: 'role-img', name: 'Sunset over the quay', nameSource: 'aria-label' },
    ],
    [
      'a [role="img"] drawn with a CSS background',
      '<span role="img" aria-label="Lighthouse" style="background-image: url(/lighthouse.png)"></span>',
      { element: 'role-img', src: 'https://harbour.test/lighthouse.png', name: 'Lighthouse' },
    ],
    [
      'an <object> showing an image',
      '<object data="/chart.svg" type="image/svg+xml" title="Visitors per month"></object>',
      {
        element: 'object',
        src: 'https://harbour.test/chart.svg',
        name: 'Visitors per month',
        nameSource: 'title',
      },
    ],
    [
      'a CSS background (inline style) on an element with a title',
      '<div title="The harbour at dawn" style="background: #000 url(\'/dawn.jpg\') no-repeat"></div>',
      {
        element: 'css-background',
        src: 'https://harbour.test/dawn.jpg',
        name: 'The harbour at dawn',
        nameSource: 'title',
      },
    ],
    [
      'a CSS background from a <style> class rule with aria-label',
      '<style>.hero { background-image: url("/hero.jpg") }</style><div class="banner hero" aria-label="Boats at the north pier"></div>',
      { element: 'css-background', src: 'https://harbour.test/hero.jpg', name: 'Boats at the north pier' },
    ],
    [
      'a CSS background from an #id rule that is the only content of a link',
      '<style>@media screen { .x { color: red } } #logo { background: url(/logo.png) }</style><a href="/"> <span id="logo"></span> </a>',
      {
        element: 'css-background',
        role: 'link',
        name: null,
        nameSource: 'none',
        src: 'https://harbour.test/logo.png',
      },
    ],
    [
      'a CSS background on a block without title or aria-label (a hero), for a person to check',
      '<style>.hero { background-image: url(/harbour.jpg) }</style><section class="hero"><h1>Tours</h1></section>',
      { element: 'css-background', src: 'https://harbour.test/harbour.jpg', name: null, nameSource: 'none' },
    ],
  ] as const)('reads %s', (_what, html, expected, index?: number) => {
    const images = readPage(html, site).images;
    expect(images[index ?? 0]).toMatchObject(expected);
  });

  it.each([
    [
      'a CSS background on an inline element beside text (an icon sprite)',
      '<p><span class="icon" style="background:url(/phone.png)"></span> Call us</p>',
    ],
    [
      'a CSS background on a block inside a link that has text (part of the link)',
      '<a href="/tours"><div style="background-image:url(/card.jpg)"></div><p>Tours</p></a>',
    ],
    [
      'a CSS background in a link that has text',
      '<a href="/"><span style="background:url(/logo.png)"></span> Home</a>',
    ],
    [
      'a CSS background in a link named by its own aria-label',
      '<a href="/" aria-label="Home"><span style="background:url(/logo.png)"></span></a>',
    ],
    ['an unnamed decorative <svg> beside text', '<p><svg><path d="M0 0"/></svg> Call us</p>'],
    ['an <svg role="presentation">', '<svg role="presentation"><title>Wave</title></svg>'],
    ['an <area> without href', '<map name="m"><area alt="Nothing"></map>'],
    ['an <object> showing a page, not an image', '<object data="/widget.html" type="text/html"></object>'],
  ])('leaves out %s', (_what, html) => {
    expect(readPage(html, site).images).toEqual([]);
  });

  it('reads an <svg role="img"> as one image, not the <img> inside it', () => {
    const { images } = readPage('<svg role="img" aria-label="Logo"><img src="/inner.png"></svg>', site);
    expect(images.map((image) => [image.element, image.name])).toEqual([['svg', 'Logo']]);
  });
});

describe('readPage hidden images are out of scope and counted', () => {
  it.each([
    ['display:none inline', '<img src="/a.jpg" alt="A" style="display: none">'],
    ['visibility:hidden inline', '<img src="/a.jpg" alt="A" style="visibility:hidden">'],
    [
      'display:none from a <style> class rule',
      '<style>.gone { display: none }</style><img class="gone" src="/a.jpg" alt="A">',
    ],
    ['the hidden attribute on an ancestor', '<div hidden><p><img src="/a.jpg" alt="A"></p></div>'],
    ['aria-hidden="true" on it', '<img src="/a.jpg" alt="A" aria-hidden="true">'],
    [
      'aria-hidden="true" on an ancestor',
      '<div aria-hidden="true"><svg role="img"><title>Wave</title></svg></div>',
    ],
    [
      'display:none on an ancestor',
      '<div style="display:none"><input type="image" src="/go.png" alt="Go"></div>',
    ],
    ['a zero width attribute', '<img src="/a.jpg" alt="A" width="0">'],
    ['a zero height attribute', '<img src="/a.jpg" alt="A" height="0px">'],
  ])('%s', (_what, html) => {
    const reading = readPage(`${html}<img src="/seen.jpg" alt="Seen">`, site);
    expect(reading.images.map((image) => image.alt)).toEqual(['Seen']);
    expect(reading.hiddenImages).toBe(1);
    expect(reading.announcements.items.map((item) => spokenOf(item))).toEqual(['image, Seen']);
  });

  it('counts images again after a hidden ancestor closes', () => {
    const reading = readPage(
      '<div hidden><img src="/1.jpg" alt="1"><div><img src="/2.jpg" alt="2"></div></div><img src="/3.jpg" alt="3">',
      site,
    );
    expect(reading.hiddenImages).toBe(2);
    expect(reading.images.map((image) => image.alt)).toEqual(['3']);
  });
});

describe('readPage accessible names (W3C accname order)', () => {
  const label = '<span id="cap">Label from the caption</span><span id="none"></span>';
  it.each([
    [
      'aria-labelledby > aria-label > alt > title',
      '<img src="/a.jpg" aria-labelledby="cap" aria-label="ARIA" alt="Alt" title="Title">',
      'Label from the caption',
      'aria-labelledby',
    ],
    [
      'aria-label > alt > title',
      '<img src="/a.jpg" aria-label="ARIA" alt="Alt" title="Title">',
      'ARIA',
      'aria-label',
    ],
    ['alt > title', '<img src="/a.jpg" alt="Alt" title="Title">', 'Alt', 'alt'],
    ['title alone', '<img src="/a.jpg" title="Title">', 'Title', 'title'],
    ['nothing at all', '<img src="/a.jpg">', null, 'none'],
    ['alt="" (decorative)', '<img src="/a.jpg" alt="">', null, 'none'],
    [
      'aria-labelledby naming a missing id, then alt',
      '<img src="/a.jpg" aria-labelledby="missing" alt="Alt">',
      'Alt',
      'alt',
    ],
    [
      'aria-labelledby naming an empty element, then aria-label',
      '<img src="/a.jpg" aria-labelledby="none" aria-label="ARIA">',
      'ARIA',
      'aria-label',
    ],
    ['a blank aria-label, then alt', '<img src="/a.jpg" aria-label="   " alt="Alt">', 'Alt', 'alt'],
    ['an <svg><title>', '<svg role="img"><title>  Five   stars </title></svg>', 'Five stars', 'svg-title'],
    [
      'an <svg> with aria-labelledby over its <title>',
      '<svg role="img" aria-labelledby="cap"><title>Five stars</title></svg>',
      'Label from the caption',
      'aria-labelledby',
    ],
    [
      'aria-labelledby with two ids, in their order',
      '<img src="/a.jpg" aria-labelledby="cap cap2"><b id="cap2">and more</b>',
      'Label from the caption and more',
      'aria-labelledby',
    ],
    [
      'an image button with upper-case type and no alt (no browser default)',
      '<input type="IMAGE" src="/go.png">',
      null,
      'none',
    ],
  ])('%s', (_what, html, name, nameSource) => {
    const image = readPage(`${label}${html}`, site).images[0];
    expect(image).toMatchObject({ name, nameSource });
    // The checks read the ARIA name as ariaLabel, as before.
    if (nameSource === 'aria-label' || nameSource === 'aria-labelledby') expect(image?.ariaLabel).toBe(name);
    else expect(image?.ariaLabel).toBeUndefined();
  });

  it('names 1,000 images labelled by an element of 5,000 nodes (hostile) with the bounded reader, in time', () => {
    const html = `<div id="all">${'<span>harbour </span>'.repeat(5000)}</div>${Array.from(
      { length: 1000 },
      (_, i) => `<img src="/${i}.png" aria-labelledby="all">`,
    ).join('')}`;
    const started = performance.now();
    const reading = readPage(html, site);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(reading.images).toHaveLength(1000);
    expect(reading.images[999]).toMatchObject({ nameSource: 'aria-labelledby' });
    expect(reading.images[999]?.name?.startsWith('harbour harbour')).toBe(true);
    expect(reading.images[999]?.name?.length).toBeLessThanOrEqual(1000);
  });

  it('names a link around 20,000 elements (hostile) with the bounded reader, in time', () => {
    const html = `<a href="/all">${'<i>tour </i>'.repeat(20000)}<img src="/x.png" alt="Boat"></a>`;
    const started = performance.now();
    const reading = readPage(html, site);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(reading.announcements.items[0]).toMatchObject({ role: 'link', image: true });
    expect(reading.announcements.items[0]?.name.startsWith('tour tour')).toBe(true);
  });
});

describe('readPage screen-reader preview', () => {
  const announcements = (html: string) => readPage(html, site).announcements.items;

  it('announces headings, links, buttons and images in reading order with the text around them', () => {
    const items = announcements(
      `<h1>Harbour tours</h1><p>Boats leave every hour.</p>
       <img src="/boat.jpg" alt="A red boat at the north pier">
       <img src="/line.png" alt="">
       <a href="/book">Book a tour</a> <button>Search</button>
       <input type="image" src="/go.png" alt="Go">`,
    );
    expect(items.map((item) => spokenOf(item))).toEqual([
      'heading level 1, Harbour tours',
      'Boats leave every hour.',
      'image, A red boat at the north pier',
      'link, Book a tour',
      'button, Search',
      'button, image, Go',
    ]);
    expect(items.every((item) => item.flags.length === 0)).toBe(true);
    expect(items[3]).toMatchObject({ role: 'link', href: 'https://harbour.test/book' });
  });

  it('marks an image link next to a text link to the same address as redundant', () => {
    const items = announcements(
      '<a href="/tours/north"><img src="/north.jpg" alt="North pier"></a> <a href="/tours/north">North pier</a>',
    );
    expect(items.map((item) => [spokenOf(item), item.flags.map((flag) => flag.kind)])).toEqual([
      ['link, image, North pier', []],
      ['link, North pier', ['redundant']],
    ]);
    expect(items[1]?.flags[0]?.message).toBe(
      'It goes to the same address as the image link “North pier” just before it, so screen readers announce two links where one would do.',
    );
  });

  it('does not mark two text links to the same address, or links to different addresses', () => {
    const items = announcements(
      '<a href="/a">Tours</a><a href="/a">Tours</a><a href="/b"><img src="/b.png" alt="B"></a><a href="/c">C</a>',
    );
    expect(items.flatMap((item) => item.flags)).toEqual([]);
  });

  it('marks an alt that repeats the adjacent text, and an image link whose alt repeats its text', () => {
    const items = announcements(
      '<p>Our lighthouse keeper</p><img src="/k.jpg" alt="Our lighthouse keeper"><a href="/"><img src="/h.png" alt="Home"> Home</a>',
    );
    expect(items.map((item) => [spokenOf(item), item.flags.map((flag) => flag.kind)])).toEqual([
      ['Our lighthouse keeper', []],
      ['image, Our lighthouse keeper', ['redundant']],
      ['link, image, Home Home', ['redundant']],
    ]);
    expect(items[2]?.flags[0]?.message).toBe(
      'The image’s name “Home” repeats the link’s text, so screen readers say it twice.',
    );
  });

  it('marks names longer than 150 characters and names that announce the medium as verbose', () => {
    const long = `The logo of Harbour Lights, ${'a round blue badge with a white lighthouse and waves '.repeat(4)}`;
    const items = announcements(
      `<img src="/logo.png" alt="${long}"><img src="/b.jpg" alt="Image of a boat"><a href="/x"><img src="/x.png" alt="Link to the tours"></a><img src="/c.jpg" alt="Imagery of the coast">`,
    );
    expect(items.map((item) => item.flags.map((flag) => flag.kind))).toEqual([
      ['verbose'],
      ['verbose'],
      ['verbose'],
      [],
    ]);
    expect(items[0]?.flags[0]?.message).toMatch(/^Its name is \d+ characters long \(more than 150\)/);
    expect(items[1]?.flags[0]?.message).toBe(
      'Its name starts with “Image of”, which the screen reader already says by announcing the image.',
    );
  });

  it('keeps at most 2,000 announcements of a page of 5,000 links and says it was cut', () => {
    const preview = readPage('<a href="/x">Tour</a> '.repeat(5000), site).announcements;
    expect(preview.items).toHaveLength(2000);
    expect(preview.truncated).toBe(true);
  });
});

/** ADR 061: a rendered page's marks carry the browser's names and pair images with screenshots. */
describe('readPage of a rendered page (marks)', () => {
  const marker = '0123456789abcdef0123456789abcdef';
  const html = `<img src="/a.png" alt="Old alt" aria-labelledby="gen" data-altwise-${marker}="0" data-altwise-${marker}-name='{"name":"Harbour map","source":"aria-labelledby"}'><span id="gen"></span>
    <img src="/b.png" alt="Forged" data-altwise-${marker}="1" data-altwise-${marker}-name="not json">
    <img src="/c.png" alt="Other render" data-altwise-ffffffffffffffff="7" data-altwise-ffffffffffffffff-name='{"name":"Spoof","source":"aria-label"}'>`;

  it("takes the browser's name and each image's mark with this render's marker", () => {
    const reading = readPage(html, page, marker);
    expect(reading.images.map((image) => [image.name, image.nameSource])).toEqual([
      ['Harbour map', 'aria-labelledby'],
      ['Forged', 'alt'],
      ['Other render', 'alt'],
    ]);
    expect(reading.images[0]?.ariaLabel).toBe('Harbour map');
    expect(reading.marks).toEqual([0, 1, null]);
  });

  it('ignores marks and name attributes a page wrote itself (no marker, or a marker that is not hex)', () => {
    expect(readPage(html, page).marks).toEqual([null, null, null]);
    expect(readPage(html, page).images[0]?.nameSource).toBe('alt');
    expect(readPage(html, page, '"]<x').marks).toEqual([null, null, null]);
  });
});

describe('readPage language (ADR 071)', () => {
  it('gives each image the language of its place', () => {
    const reading = readPage(
      '<html lang="fr"><body><img src="/a.jpg"><p lang="ja"><img src="/b.jpg" alt=""></p></body></html>',
      page,
    );
    expect(reading.images.map((image) => image.language)).toEqual(['fr', 'ja']);
  });
});
