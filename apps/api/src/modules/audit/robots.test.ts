import { describe, expect, it } from 'vitest';
import { MAX_AUDIT_LINKS_PER_PAGE, readPage } from './extract-page.ts';
import { parseRobots } from './robots.ts';
import { readSitemap } from './sitemap.ts';

describe('parseRobots', () => {
  it.each([
    ['User-agent: *\nDisallow: /private/', '/private/x', false],
    ['User-agent: *\nDisallow: /private/', '/public', true],
    ['User-agent: *\nDisallow:', '/anything', true],
    ['User-agent: *\nDisallow: /\nAllow: /blog/', '/blog/post', true],
    ['User-agent: *\nDisallow: /\nAllow: /blog/', '/shop', false],
    // The longest rule wins; Allow wins a tie.
    ['User-agent: *\nAllow: /a\nDisallow: /a/b', '/a/b/c', false],
    ['User-agent: *\nDisallow: /a\nAllow: /a', '/a', true],
    ['User-agent: *\nDisallow: /*.pdf$', '/files/price.pdf', false],
    ['User-agent: *\nDisallow: /*.pdf$', '/files/price.pdf?x=1', true],
    ['User-agent: *\nDisallow: /search?q=', '/search?q=boats', false],
    // Our own group replaces the * group.
    ['User-agent: *\nDisallow: /\n\nUser-agent: AltwiseBot\nDisallow: /tmp/', '/page', true],
    ['User-agent: *\nDisallow: /\n\nUser-agent: AltwiseBot\nDisallow: /tmp/', '/tmp/x', false],
    // Another crawler's group is not ours.
    ['User-agent: Googlebot\nDisallow: /', '/page', true],
    // Two agents sharing one group.
    ['User-agent: Googlebot\nUser-agent: *\nDisallow: /x # comment', '/x/y', false],
  ])('%j: %s allowed = %s', (text, path, allowed) => {
    expect(parseRobots(text).allows(path)).toBe(allowed);
  });

  it('knows when every page is disallowed', () => {
    expect(parseRobots('User-agent: *\nDisallow: /').disallowsAll).toBe(true);
    expect(parseRobots('User-agent: *\r\nDisallow: /*').disallowsAll).toBe(true);
    expect(parseRobots('User-agent: *\nDisallow: /\nAllow: /blog/').disallowsAll).toBe(false);
    expect(parseRobots('User-agent: Googlebot\nDisallow: /').disallowsAll).toBe(false);
    expect(parseRobots('').disallowsAll).toBe(false);
  });
});

describe('readSitemap', () => {
  it('reads a urlset, an index, and refuses what is not XML', () => {
    expect(
      readSitemap('<urlset><url><loc> https://a.test/x </loc></url><url><loc>/y</loc></url></urlset>', ''),
    ).toEqual({ kind: 'urlset', locations: ['https://a.test/x', '/y'] });
    expect(
      readSitemap(
        '<?xml version="1.0"?><sitemapindex><sitemap><loc>/s1.xml</loc></sitemap></sitemapindex>',
        '',
      ),
    ).toEqual({ kind: 'index', locations: ['/s1.xml'] });
    expect(readSitemap('<html><body>Hi</body></html>', 'text/html')).toEqual({ kind: 'not-xml' });
    expect(readSitemap('<?xml version="1.0"?><rss></rss>', 'application/xml')).toEqual({ kind: 'not-xml' });
  });
});

describe('readPage', () => {
  const page = new URL('https://shop.test/boats/');

  it('reads img, input type=image and role=img with alt absent vs empty, labels and sizes', () => {
    const { images } = readPage(
      `<h1>Boats</h1>
       <img src="a.jpg">
       <img src="b.jpg" alt="" width="1" height="1px">
       <img src="c.jpg" alt="  " aria-labelledby="cap">
       <p id="cap">The red boat</p>
       <form><input type="IMAGE" src="/go.png" alt="Search"></form>
       <svg role="img" aria-label="Five stars"><img src="inner.png"></svg>
       <template><img src="inert.jpg"></template>`,
      page,
    );
    expect(images).toEqual([
      {
        pageUrl: page.href,
        src: 'https://shop.test/boats/a.jpg',
        alt: null,
        element: 'img',
        role: 'content',
        heading: 'Boats',
      },
      {
        pageUrl: page.href,
        src: 'https://shop.test/boats/b.jpg',
        alt: '',
        element: 'img',
        role: 'content',
        heading: 'Boats',
        width: 1,
        height: 1,
      },
      {
        pageUrl: page.href,
        src: 'https://shop.test/boats/c.jpg',
        alt: '  ',
        ariaLabel: 'The red boat',
        element: 'img',
        role: 'content',
        heading: 'Boats',
      },
      {
        pageUrl: page.href,
        src: 'https://shop.test/go.png',
        alt: 'Search',
        element: 'input-image',
        role: 'button',
        heading: 'Boats',
      },
      {
        pageUrl: page.href,
        src: 'https://shop.test/boats/#svg-5',
        alt: null,
        ariaLabel: 'Five stars',
        element: 'role-img',
        role: 'content',
        heading: 'Boats',
      },
    ]);
  });

  it('keeps two images with one source apart and lists same-origin page links once', () => {
    const { images, links } = readPage(
      `<a href="/about#team"><img src="/logo.png" alt="Home"></a><img src="/logo.png" alt="Home">
       <a href="/about">About</a><a href="https://other.test/">Other</a><a href="/price.pdf">Prices</a>
       <a href="mailto:x@shop.test">Mail</a><a href="#top">Top</a>`,
      page,
    );
    expect(images.map((image) => [image.role, image.linkTarget])).toEqual([
      ['link', 'https://shop.test/about#team'],
      ['content', undefined],
    ]);
    expect(links).toEqual(['https://shop.test/about']);
  });

  it('reads at most MAX_AUDIT_LINKS_PER_PAGE links of a page', () => {
    const html = Array.from(
      { length: MAX_AUDIT_LINKS_PER_PAGE + 500 },
      (_, i) => `<a href="/p/${i}">${i}</a>`,
    ).join('');
    const { links } = readPage(html, page);
    expect(links).toHaveLength(MAX_AUDIT_LINKS_PER_PAGE);
    expect(links[0]).toBe('https://shop.test/p/0');
  });
});
