import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AUDIT_LINKS_PER_PAGE, readPage } from '../../pages/extract-page.ts';
import { MAX_RULE_LENGTH, parseRobots } from './robots.ts';
import { MAX_SITEMAP_DEPTH, readSitemap, SitemapReader } from './sitemap.ts';

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

  it.each([
    // Percent-encoding is normalised on both sides: unreserved octets decoded, the rest upper-case.
    ['User-agent: *\nDisallow: /caf%C3%A9', '/café/menu', false],
    ['User-agent: *\nDisallow: /café', '/caf%c3%a9', false],
    ['User-agent: *\nDisallow: /%7Ejoe/', '/~joe/index.html', false],
    ['User-agent: *\nDisallow: /~joe/', '/%7ejoe/index.html', false],
    // An encoded slash is not a slash.
    ['User-agent: *\nDisallow: /a/b', '/a%2Fb', true],
    ['User-agent: *\nDisallow: /a%2fb', '/a%2Fb', false],
    ['User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*b', `/${'a'.repeat(12)}b`, false],
    ['User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*b', `/${'a'.repeat(12)}`, true],
    ['User-agent: *\nDisallow: /x*$', '/x/anything', false],
    ['User-agent: *\nDisallow: /x$', '/x/', true],
    ['User-agent: *\nDisallow: /*ab*ab$', '/abab', false],
    ['User-agent: *\nDisallow: /*ab*ab$', '/ab', true],
  ])('%j: %s allowed = %s', (text, path, allowed) => {
    expect(parseRobots(text).allows(path)).toBe(allowed);
  });

  it('cuts an over-long Disallow (it refuses more) and drops an over-long Allow', () => {
    const long = `/${'x'.repeat(MAX_RULE_LENGTH + 100)}`;
    const rules = parseRobots(`User-agent: *\nDisallow: ${long}q\nAllow: ${long}`);
    expect(rules.allows(long)).toBe(false);
    expect(rules.allows(`${long}z`)).toBe(false);
    expect(rules.allows('/x')).toBe(true);
  });

  /** The obvious meaning of a rule, by memoised recursion over (rule position, path position). */
  const referenceMatch = (pattern: string, path: string) => {
    const anchored = pattern.endsWith('$');
    const body = anchored ? pattern.slice(0, -1) : pattern;
    const memo = new Map<number, boolean>();
    const match = (i: number, j: number): boolean => {
      const key = i * (path.length + 1) + j;
      const known = memo.get(key);
      if (known !== undefined) return known;
      let result: boolean;
      if (i === body.length) result = !anchored || j === path.length;
      else if (body[i] === '*') result = match(i + 1, j) || (j < path.length && match(i, j + 1));
      else result = j < path.length && body[i] === path[j] && match(i + 1, j + 1);
      memo.set(key, result);
      return result;
    };
    return match(0, 0);
  };
  /** RFC 9309 §2.2.2: the longest matching rule decides, Allow on a tie, nothing matching allows. */
  const referenceAllows = (rules: { allow: boolean; pattern: string }[], path: string) => {
    const matching = rules.filter((rule) => referenceMatch(rule.pattern, path));
    if (matching.length === 0) return true;
    const longest = Math.max(...matching.map((rule) => rule.pattern.length));
    return matching.some((rule) => rule.allow && rule.pattern.length === longest);
  };

  it('agrees with the obvious reference on random rules with * and $ and random paths', () => {
    const rule = fc.record({
      allow: fc.boolean(),
      pattern: fc
        .array(fc.constantFrom('a', 'b', '/', '.', '*', '$'), { minLength: 1, maxLength: 12 })
        .map((chars) => `/${chars.join('')}`),
    });
    const path = fc
      .array(fc.constantFrom('a', 'b', '/', '.', '$', '*'), { maxLength: 24 })
      .map((chars) => `/${chars.join('')}`);
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 6 }),
        fc.array(path, { maxLength: 8 }),
        (rules, paths) => {
          const text = `User-agent: *\n${rules.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.pattern}`).join('\n')}`;
          const parsed = parseRobots(text);
          for (const p of paths) expect(parsed.allows(p), `${text}\n${p}`).toBe(referenceAllows(rules, p));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads a rule and a path alike however their characters are percent-encoded', () => {
    const char = fc.constantFrom('a', 'B', '~', '/', 'é', '?', '=');
    const written = (chars: string[], encode: boolean[]) =>
      chars
        .map((c, i) => {
          if (!encode[i % encode.length] || c === '/' || c === '?' || c === '=') return c;
          const hexed =
            encodeURIComponent(c) === c ? `%${c.charCodeAt(0).toString(16)}` : encodeURIComponent(c);
          return i % 2 ? hexed.toLowerCase() : hexed.toUpperCase();
        })
        .join('');
    fc.assert(
      fc.property(
        fc.array(char, { minLength: 1, maxLength: 8 }),
        fc.array(char, { maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (ruleChars, pathChars, encodeRule, encodePath, anchored) => {
          const pattern = `/${ruleChars.join('')}${anchored ? '$' : ''}`;
          const path = `/${pathChars.join('')}`;
          const rules = parseRobots(
            `User-agent: *\nDisallow: /${written(ruleChars, encodeRule)}${anchored ? '$' : ''}`,
          );
          expect(rules.allows(`/${written(pathChars, encodePath)}`)).toBe(
            referenceAllows([{ allow: false, pattern }], path),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('matches the 24-byte backtracking rule /*a*a*a*a*a*a*a*a*a*a*a*b against long paths in time', async () => {
    // In a worker, so that a matcher that backtracks (13 s for 41 characters before) is stopped at
    // the bound instead of freezing the test run.
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       import(workerData.module).then(({ parseRobots }) => {
         const rules = parseRobots('User-agent: *\\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*b');
         const started = performance.now();
         const answers = [];
         for (const length of [41, 60, 500, 5000, 50000]) answers.push(rules.allows('/' + 'a'.repeat(length)));
         parentPort.postMessage({ answers, ms: performance.now() - started });
       });`,
      { eval: true, workerData: { module: new URL('./robots.ts', import.meta.url).href } },
    );
    try {
      const outcome = await Promise.race([
        new Promise<{ answers: boolean[]; ms: number }>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
        new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 10_000)),
      ]);
      expect(outcome, 'the rule was still being matched after 10 s').not.toBe('timeout');
      expect(outcome).toMatchObject({ answers: [true, true, true, true, true] });
      expect((outcome as { ms: number }).ms).toBeLessThan(1000);
    } finally {
      await worker.terminate();
    }
  }, 20_000);

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
      readSitemap('<urlset><url><loc> https://a.test/x </loc></url><url><loc>/y</loc></url></urlset>'),
    ).toEqual({ kind: 'urlset', locations: ['https://a.test/x', '/y'] });
    expect(
      readSitemap('<?xml version="1.0"?><sitemapindex><sitemap><loc>/s1.xml</loc></sitemap></sitemapindex>'),
    ).toEqual({ kind: 'index', locations: ['/s1.xml'] });
    expect(readSitemap('<html><body>Hi</body></html>')).toEqual({ kind: 'not-xml' });
    expect(readSitemap('<?xml version="1.0"?><rss></rss>')).toEqual({ kind: 'not-xml' });
    expect(readSitemap('Not found <urlset><url><loc>/x</loc></url></urlset>')).toEqual({ kind: 'not-xml' });
    expect(readSitemap('')).toEqual({ kind: 'not-xml' });
    expect(
      readSitemap(
        '\uFEFF <sm:urlset xmlns:sm="x"><sm:url><sm:loc>/a?b=1&amp;c=2</sm:loc></sm:url></sm:urlset>',
      ),
    ).toEqual({ kind: 'urlset', locations: ['/a?b=1&c=2'] });
  });

  it('reads a sitemap cut into pieces anywhere, a character split across two pieces included', () => {
    const bytes = Buffer.from(
      '<?xml version="1.0"?><urlset><url><loc>/café</loc></url><url><loc>/naïve</loc></url></urlset>',
    );
    for (let cut = 1; cut < bytes.length; cut++) {
      const found: string[] = [];
      const reader = new SitemapReader((_kind, location) => {
        found.push(location);
        return 'more';
      });
      reader.write(bytes.subarray(0, cut));
      reader.write(bytes.subarray(cut));
      expect(reader.end(), `cut at ${cut}`).toBe('urlset');
      expect(found, `cut at ${cut}`).toEqual(['/café', '/naïve']);
    }
  });

  it('refuses a nesting bomb (a million nested elements) at MAX_SITEMAP_DEPTH, in time', () => {
    const bomb = `<urlset>${'<a>'.repeat(1_000_000)}<loc>/x</loc>${'</a>'.repeat(1_000_000)}</urlset>`;
    const started = performance.now();
    expect(readSitemap(bomb)).toEqual({
      kind: 'refused',
      why: `it nests elements more than ${MAX_SITEMAP_DEPTH} deep, which no sitemap does`,
    });
    expect(performance.now() - started).toBeLessThan(1000);
    // Real sitemaps with extensions are a few levels deep; an image's <image:loc> is not a page.
    expect(
      readSitemap(
        '<urlset><url><loc>/p</loc><image:image><image:loc>/i.png</image:loc></image:image></url><loc>/stray</loc></urlset>',
      ),
    ).toEqual({ kind: 'urlset', locations: ['/p'] });
  });

  it('stops reading once the caller has enough', () => {
    const found: string[] = [];
    const reader = new SitemapReader((_kind, location) => {
      found.push(location);
      return found.length === 2 ? 'enough' : 'more';
    });
    reader.write('<urlset><url><loc>/1</loc></url><url><loc>/2</loc></url><url><loc>/3</loc></url>');
    expect(reader.done).toBe(true);
    reader.write('<url><loc>/4</loc></url></urlset>');
    expect(reader.end()).toBe('urlset');
    expect(found).toEqual(['/1', '/2']);
  });
});

describe('readPage', () => {
  const page = new URL('https://shop.test/boats/');

  it('reads img, input type=image and svg role=img with alt absent vs empty, labels and sizes', () => {
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
        name: null,
        nameSource: 'none',
        role: 'content',
        heading: 'Boats',
      },
      {
        pageUrl: page.href,
        src: 'https://shop.test/boats/b.jpg',
        alt: '',
        element: 'img',
        name: null,
        nameSource: 'none',
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
        name: 'The red boat',
        nameSource: 'aria-labelledby',
        role: 'content',
        heading: 'Boats',
      },
      {
        pageUrl: page.href,
        src: 'https://shop.test/go.png',
        alt: 'Search',
        element: 'input-image',
        name: 'Search',
        nameSource: 'alt',
        role: 'button',
        heading: 'Boats',
      },
      {
        pageUrl: page.href,
        src: 'https://shop.test/boats/#svg-5',
        alt: null,
        ariaLabel: 'Five stars',
        element: 'svg',
        name: 'Five stars',
        nameSource: 'aria-label',
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
