import { describe, expect, it } from 'vitest';
import type { PixelStats } from '../../src/engines/image-stats.ts';
import { composeAltText, type TextReading } from '../../src/engines/offline/compose.ts';
import { decideRole } from '../../src/engines/role.ts';
import type { PageContext } from '../../src/engines/types.ts';
import { contextOf as auditContextOf } from '../../src/modules/audit/fix.ts';
import { readImages } from '../../src/pages/extract-images.ts';
import { readPage } from '../../src/pages/extract-page.ts';

/**
 * The site's own logo is the site's name. A page's HTML read by the product's
 * scraper, a logo whose pixels gave no words (what the OCR read is given directly) → the alt text.
 */

const pageUrl = new URL('https://www.riverside-times.example/local/');
const graphicStats: PixelStats = {
  greyscale: false,
  brightness: 'bright',
  meanLuma: 200,
  lumaStd: 60,
  colours: ['navy', 'white'],
  distinctColoursPerK: 6,
  topColourShare: 0.7,
  flatShare: 0.95,
  edgeShare: 0.05,
  uniform: false,
  meanSaturation: 0.4,
};
const nothingRead: TextReading = { text: '', confidence: 0, words: 0, numbers: 0 };

function contextFor(head: string, body: string, target: string): PageContext {
  const html = `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
  const image = readImages(html, pageUrl, 100).images.find((found) => found.src.endsWith(target));
  if (!image) throw new Error(`no image ${target}`);
  return { ...image.context, pageUrl: pageUrl.href, fileName: target.replace(/^.*\//, '') };
}

function altFor(context: PageContext, ocr: TextReading = nothingRead): string {
  const composed = composeAltText({
    stats: graphicStats,
    objects: [],
    faces: [],
    ocr,
    width: 180,
    height: 60,
    transparentShare: 0,
    context,
    minDetectionScore: 0.4,
  });
  return composed.decorative ? '(decorative)' : composed.altText;
}

const ogSiteName = '<meta property="og:site_name" content="Riverside Times">';
const title = (text: string) => `<title>${text}</title>`;

describe('an unlinked site logo without readable words gets the site’s name', () => {
  it.each<{ what: string; head: string; body: string; target: string; ocr?: TextReading; expected: string }>([
    {
      what: 'a logo (file name says logo) in the page’s <header>, og:site_name given → the site name',
      head: `${title('Local news')}${ogSiteName}`,
      body: '<header><img src="/img/logo.svg"></header><main><h1>Local news</h1></main>',
      target: '/img/logo.svg',
      expected: 'Riverside Times',
    },
    {
      what: 'class="site-logo" in role=banner, no og:site_name, the title’s site part names the host → that part',
      head: title('Local news | Riverside Times'),
      body: '<div role="banner"><img class="site-logo" src="/img/mark.png"></div>',
      target: '/img/mark.png',
      expected: 'Riverside Times',
    },
    {
      what: 'a logo whose words were read says its words (an image of text), not og:site_name',
      head: `${title('Local news')}${ogSiteName}`,
      body: '<header><img src="/img/logo.png"></header>',
      target: '/img/logo.png',
      ocr: { text: 'RIVERSIDE TIMES', confidence: 95, words: 2, numbers: 0, coverage: 0.4 },
      expected: 'Riverside times',
    },
    {
      what: 'false row: the title does not name the host and there is no og:site_name → no guessed name',
      head: title('Local news | Best stories'),
      body: '<header><img src="/img/logo.png"></header>',
      target: '/img/logo.png',
      expected: 'not the site name',
    },
    {
      what: 'false row: a hero picture in the <header> (nothing says logo) is no site logo',
      head: `${title('Local news')}${ogSiteName}`,
      body: '<header><img src="/img/hero-river.jpg"></header>',
      target: '/img/hero-river.jpg',
      expected: 'not the site name',
    },
    {
      what: 'false row: a sponsor’s logo in an article’s own <header> is not the site’s',
      head: `${title('Local news')}${ogSiteName}`,
      body: '<article><header><img src="/img/sponsor-logo.png"></header><p>Sponsored.</p></article>',
      target: '/img/sponsor-logo.png',
      expected: 'not the site name',
    },
  ])('$what', ({ head, body, target, ocr, expected }) => {
    const alt = altFor(contextFor(head, body, target), ocr);
    if (expected === 'not the site name') expect(alt).not.toMatch(/Riverside Times/);
    else expect(alt).toBe(expected);
  });

  it('a linked logo to the home page is named "<og:site_name> home"', () => {
    const context = contextFor(
      `${title('Local news')}<meta property="og:site_name" content="The Riverside Times">`,
      '<header><a href="/"><img src="/img/logo.png"></a></header>',
      '/img/logo.png',
    );
    const decision = decideRole(context);
    expect(decision.kind === 'functional' && decision.altText).toBe('The Riverside Times home');
  });

  it('the audit reads the same: its fix tells the engine the site name for the site’s logo only', () => {
    const reading = readPage(
      `<html><head>${ogSiteName}</head><body><header><img src="/logo.png"></header><p><img src="/river.jpg"></p></body></html>`,
      pageUrl,
    );
    const contexts = reading.images.map((facts) =>
      auditContextOf({ pageUrl: facts.pageUrl, alt: facts.alt, role: facts.role, facts }),
    );
    expect(contexts.map((context) => [context.siteLogo, context.siteName])).toEqual([
      [true, 'Riverside Times'],
      [undefined, undefined],
    ]);
    expect(altFor({ ...contexts[0], fileName: 'logo.png' })).toBe('Riverside Times');
  });
});
