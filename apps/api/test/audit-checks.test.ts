import { readFile } from 'node:fs/promises';
import {
  type AuditProblemCode,
  auditProblemCodes,
  auditProblemRules,
} from '@altwise/contracts/audit-problems';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEngineOptions } from '../src/engines/engine-options.ts';
import { createOfflineEngine } from '../src/engines/offline/offline-engine.ts';
import type { AltTextEngine } from '../src/engines/types.ts';
import { evidenceOf, planPixelChecks } from '../src/modules/audit/pixel-check.ts';
import {
  type AuditImageFacts,
  auditScore,
  checkPageImages,
  type ImageVerdict,
  pixelCheckNeed,
} from '../src/rules/checks.ts';

/**
 * The audit's checks (ADR 025): for every problem code, pages where it applies and pages
 * where it must not, with the evidence the message has to name. One image per row unless the row
 * gives a whole page (`repeated` compares images).
 */

const pageUrl = 'https://shop.example/en/blog/spring-sale';

function image(facts: Partial<AuditImageFacts>): AuditImageFacts {
  return {
    pageUrl,
    src: 'https://shop.example/media/tulips.jpg',
    alt: 'Red tulips in a glass vase',
    element: 'img',
    role: 'content',
    ...facts,
  };
}

const checkOne = (facts: Partial<AuditImageFacts>): ImageVerdict => {
  const [verdict] = checkPageImages([image(facts)]);
  if (!verdict) throw new Error('no verdict');
  return verdict;
};
const codesOf = (verdict: ImageVerdict) => verdict.problems.map((problem) => problem.code);

type Row = {
  what: string;
  facts?: Partial<AuditImageFacts>;
  page?: Array<Partial<AuditImageFacts>>;
  evidence?: string;
};

/** [code, rows where it applies, rows where it must not]. */
const table: Array<[AuditProblemCode, Row[], Row[]]> = [
  [
    'missing',
    [
      {
        what: 'no alt attribute',
        facts: { alt: null, src: 'https://shop.example/IMG_2041.jpg' },
        evidence: '“IMG_2041.jpg”',
      },
      {
        what: 'role=img without a label',
        facts: { alt: null, element: 'role-img', src: `${pageUrl}#sales-chart` },
        evidence: 'role="img" element “https://shop.example/en/blog/spring-sale#sales-chart”',
      },
      { what: 'a blank aria-label does not count', facts: { alt: null, ariaLabel: '   ' } },
    ],
    [
      { what: 'alt="" is present', facts: { alt: '' } },
      { what: 'an aria-label names it', facts: { alt: null, ariaLabel: 'Red tulips in a glass vase' } },
      {
        what: 'aria-labelledby text names it',
        facts: { alt: null, element: 'role-img', ariaLabel: 'Sales by month, 2026' },
      },
    ],
  ],
  [
    'file-name',
    [
      { what: 'a camera file name', facts: { alt: 'IMG_2041.jpg' }, evidence: '“IMG_2041.jpg”' },
      { what: 'a slug with a version', facts: { alt: 'hero-banner-v2' }, evidence: '“hero-banner-v2”' },
      { what: 'a camera number', facts: { alt: 'DSC0042' } },
      { what: 'a camera number with a hyphen', facts: { alt: 'IMG-2041' } },
      { what: 'the src’s own stem', facts: { alt: 'golden-retriever', src: '/img/golden-retriever.jpg' } },
      { what: 'a path', facts: { alt: '/uploads/2023/05/tulips' }, evidence: '“/uploads/2023/05/tulips”' },
      { what: 'a URL', facts: { alt: 'https://cdn.example/a.webp' } },
      { what: 'a snake_case identifier', facts: { alt: 'hero_banner' } },
      // The rulebook merged the engine's and the audit's extension lists (ADR 054): .ico counts too.
      { what: 'an icon file name (favicon.ico)', facts: { alt: 'favicon.ico' }, evidence: '“favicon.ico”' },
      {
        what: 'an aria-label that is a file name',
        facts: { alt: null, ariaLabel: 'chart_final.png' },
        evidence: 'ARIA label',
      },
    ],
    [
      { what: 'a description', facts: { alt: 'Red tulips in a glass vase' } },
      { what: 'one slash between words', facts: { alt: 'TCP/IP' } },
      { what: 'a designation with a number', facts: { alt: 'F-16' } },
      { what: 'a disease’s name', facts: { alt: 'COVID-19' } },
      {
        what: 'a plain word that is also the stem: judged by its wording',
        facts: { alt: 'logo', src: '/logo.svg' },
      },
      { what: 'a button named like its file', facts: { alt: 'Go', src: '/go.png', element: 'input-image' } },
      { what: 'a hyphenated word in prose', facts: { alt: 'A T-shirt with a tulip print' } },
      {
        what: 'a descriptive file name used as words',
        facts: { alt: 'Golden retriever', src: '/img/golden-retriever.jpg' },
      },
    ],
  ],
  [
    'placeholder',
    [
      { what: 'todo', facts: { alt: 'TODO' }, evidence: '“TODO”' },
      { what: 'tbd with punctuation', facts: { alt: 'TBD.' } },
      { what: '"alt text"', facts: { alt: 'Alt text' } },
      { what: '"insert alt"', facts: { alt: 'insert alt' } },
      { what: 'an instruction', facts: { alt: 'Insert alt text here' } },
      { what: '"image"', facts: { alt: 'image' } },
      { what: '"photo"', facts: { alt: 'Photo' } },
      { what: '"picture"', facts: { alt: 'picture' } },
      { what: '"graphic"', facts: { alt: 'graphic' } },
      { what: 'a dash', facts: { alt: '-' }, evidence: '“-”' },
      { what: 'a bracketed word', facts: { alt: '[image]' } },
      {
        what: '"spacer" on an image that is not a spacer',
        facts: { alt: 'spacer', width: 640, height: 480 },
      },
    ],
    [
      { what: 'a description', facts: { alt: 'Tulip field at sunrise' } },
      { what: 'a description that starts with "photo"', facts: { alt: 'Photo booth at the spring party' } },
      {
        what: '"spacer" on a spacer (decorative-with-alt instead)',
        facts: { alt: 'spacer', src: '/spacer.gif' },
      },
    ],
  ],
  [
    'vague',
    [
      { what: '"logo"', facts: { alt: 'logo' }, evidence: '(logo)' },
      { what: '"icon"', facts: { alt: 'Icon' } },
      { what: '"a photo of"', facts: { alt: 'a photo of' } },
      { what: '"banner"', facts: { alt: 'banner' } },
      { what: '"logo" on logo.svg', facts: { alt: 'Logo', src: '/img/logo.svg' } },
      { what: '"our company logo"', facts: { alt: 'Our company logo' } },
      { what: '"hero image"', facts: { alt: 'hero image' } },
    ],
    [
      { what: 'says whose logo', facts: { alt: 'Shop Example logo' } },
      { what: 'says what the photo shows', facts: { alt: 'A photo of red tulips' } },
      { what: 'a placeholder is not also vague', facts: { alt: 'image' } },
    ],
  ],
  [
    'link-without-purpose',
    [
      {
        what: 'only content of a link, alt missing',
        facts: { role: 'link', linkTarget: '/pricing', alt: null },
        evidence: '“/pricing”',
      },
      { what: 'only content of a link, alt=""', facts: { role: 'link', linkTarget: '/pricing', alt: '' } },
      {
        what: 'only content of a link, vague alt',
        facts: { role: 'link', linkTarget: '/', alt: 'logo' },
        evidence: '“logo”',
      },
      {
        what: 'only content of a link, file-name alt',
        facts: { role: 'link', linkTarget: '/', alt: 'logo_final.svg' },
      },
      {
        what: 'a picture description for a link that goes elsewhere',
        facts: {
          role: 'link',
          linkTarget: 'https://shop.example/pricing',
          alt: 'A smiling woman at a laptop',
        },
        evidence: '“A smiling woman at a laptop”',
      },
      {
        what: 'a picture description for a page whose one segment reads as words',
        facts: { role: 'link', linkTarget: '/spring-sale-2026', alt: 'A woman in a garden' },
      },
      {
        what: 'a picture description for a home link',
        facts: { role: 'link', linkTarget: '/en/index.html', alt: 'A tulip in a pot' },
      },
      {
        what: 'a picture description for a same-page link',
        facts: { role: 'link', linkTarget: '#opening-hours', alt: 'A clock on a wall' },
      },
      {
        what: 'a picture description for a link to another site',
        facts: { role: 'link', linkTarget: 'https://x.example/shopexample', alt: 'A blue bird' },
      },
      {
        what: 'only content of a button, placeholder alt',
        facts: { role: 'button', alt: 'icon' },
        evidence: 'button does',
      },
      { what: 'an image button without alt', facts: { element: 'input-image', role: 'content', alt: null } },
    ],
    [
      { what: 'says where the link goes', facts: { role: 'link', linkTarget: '/pricing', alt: 'Pricing' } },
      { what: 'a short link name', facts: { role: 'link', linkTarget: '/faq', alt: 'FAQ' } },
      {
        what: 'a home link named after the site',
        facts: { role: 'link', linkTarget: '/', alt: 'Shop Example home' },
      },
      {
        what: 'a picture of the home page’s subject',
        facts: { role: 'link', linkTarget: '/', alt: 'A shop example' },
      },
      {
        what: 'a description that shares a word with the target',
        facts: { role: 'link', linkTarget: '/tulips/red', alt: 'A bunch of red tulips' },
      },
      {
        what: 'a product card linking to its product page',
        facts: { role: 'link', linkTarget: '/products/blue-vase-123', alt: 'A blue ceramic vase' },
      },
      {
        what: 'a link to a page whose address is an id',
        facts: { role: 'link', linkTarget: '/p123', alt: 'A blue ceramic vase' },
      },
      {
        what: 'a link to the full-size picture is described',
        facts: { role: 'link', linkTarget: '/media/tulips-large.jpg', alt: 'A field of tulips at sunrise' },
      },
      {
        what: 'the link has its own text',
        facts: { role: 'link', linkTarget: '/pricing', linkText: 'See our prices', alt: '' },
      },
      { what: 'a button named by its action', facts: { role: 'button', alt: 'Search' } },
      {
        what: 'a figure, not a link',
        facts: { role: 'figure', caption: 'Spring 2026', alt: 'A smiling woman at a laptop' },
      },
    ],
  ],
  [
    'redundant',
    [
      {
        what: 'repeats the figure caption (case, punctuation, spaces)',
        facts: {
          role: 'figure',
          caption: 'Red tulips, in a glass vase.',
          alt: 'red tulips in a  glass vase',
        },
        evidence: 'the caption',
      },
      {
        what: 'repeats the link text',
        facts: { role: 'link', linkTarget: '/tulips', linkText: 'Red tulips', alt: 'Red tulips!' },
        evidence: 'the link text',
      },
      {
        what: 'repeats a sentence of the adjacent text',
        facts: { adjacentText: 'Red tulips in a glass vase. Delivered every Friday.' },
        evidence: 'the adjacent text',
      },
    ],
    [
      {
        what: 'adds to the figure caption',
        facts: {
          role: 'figure',
          caption: 'Red tulips',
          alt: 'Red tulips in a glass vase on a kitchen table',
        },
      },
      {
        what: 'only a part of the adjacent text',
        facts: { alt: 'Tulips', adjacentText: 'Tulips are in season.' },
      },
      { what: 'alt="" repeats nothing', facts: { alt: '', caption: '' } },
    ],
  ],
  [
    'repeated',
    [
      {
        what: 'the same alt on two different images',
        page: [
          { src: '/a.jpg', alt: 'Tulip bouquet' },
          { src: '/b.jpg', alt: 'tulip bouquet.' },
        ],
        evidence: '“b.jpg”',
      },
    ],
    [
      {
        what: 'the same image twice',
        page: [
          { src: '/a.jpg', alt: 'Tulip bouquet' },
          { src: '/a.jpg', alt: 'Tulip bouquet' },
        ],
      },
      {
        what: 'different alts',
        page: [
          { src: '/a.jpg', alt: 'Red tulip bouquet' },
          { src: '/b.jpg', alt: 'Yellow tulip bouquet' },
        ],
      },
      {
        what: 'two empty alts',
        page: [
          { src: '/a.jpg', alt: '' },
          { src: '/b.jpg', alt: '' },
        ],
      },
      {
        what: 'two logos linking to the same home page',
        page: [
          { src: '/logo-dark.svg', alt: 'Shop Example home', role: 'link', linkTarget: '/' },
          {
            src: '/logo-light.svg',
            alt: 'Shop Example home',
            role: 'link',
            linkTarget: 'https://shop.example/',
          },
        ],
      },
    ],
  ],
  [
    'too-long',
    [{ what: '151 characters', facts: { alt: `Tulips ${'a'.repeat(144)}` }, evidence: '151 characters' }],
    [{ what: 'exactly 150 characters', facts: { alt: `Tulips ${'a'.repeat(143)}` } }],
  ],
  [
    'decorative-with-alt',
    [
      {
        what: 'a 1×1 tracking pixel',
        facts: { alt: 'tracking', width: 1, height: 1 },
        evidence: '1×1 pixels',
      },
      { what: 'a 2 px spacer line', facts: { alt: 'line', width: 600, height: 2 } },
      { what: 'spacer.gif', facts: { alt: 'spacer', src: '/img/spacer.gif' }, evidence: '“spacer.gif”' },
      { what: 'blank_1x1.png', facts: { alt: 'Tulips', src: '/blank_1x1.png' } },
      {
        what: 'the pixels show nothing',
        facts: { alt: 'Tulips', informative: false },
        evidence: 'pixels show no content',
      },
      // ADR 060: decorative words on an image that looks like a decoration.
      {
        what: 'alt="bullet" on a list bullet',
        facts: { alt: 'bullet', src: '/img/b.gif', listMarker: true },
        evidence: 'it marks a list item',
      },
      { what: 'alt="bullet" on bullet.gif', facts: { alt: 'Bullet', src: '/img/bullet.gif' } },
      {
        what: '"blue arrow" on a 12×12 image',
        facts: { alt: 'blue arrow', src: '/i/a7.png', width: 12, height: 12 },
        evidence: '12×12 pixels',
      },
      { what: '"divider line" on divider.png', facts: { alt: 'divider line', src: '/divider.png' } },
      { what: '"corner" on corner_tl.gif', facts: { alt: 'corner', src: '/corner_tl.gif' } },
      { what: '"dot" on dot-red.png', facts: { alt: 'red dot', src: '/dot-red.png' } },
      { what: '"border" on a 20×20 image', facts: { alt: 'border', width: 20, height: 20 } },
    ],
    [
      { what: 'a decorative image with alt=""', facts: { alt: '', width: 1, height: 1 } },
      {
        what: 'pixel-art.png is not a spacer',
        facts: { alt: 'Pixel art of a tulip', src: '/pixel-art.png' },
      },
      {
        what: 'a role=img element on a page named like a spacer',
        facts: {
          alt: null,
          ariaLabel: 'Sales by month',
          element: 'role-img',
          src: 'https://shop.example/blank#chart',
        },
      },
      {
        what: 'a transparent logo is not a spacer',
        facts: { alt: 'Shop Example', src: '/transparent-logo.png' },
      },
      { what: 'the pixels show content', facts: { alt: 'Tulips', src: '/spacer.gif', informative: true } },
      {
        what: 'the only content of a link is not decorative',
        facts: { alt: 'Home', role: 'link', linkTarget: '/', width: 1, height: 1 },
      },
      {
        what: '"bullet" on a large photo without decorative markup',
        facts: { alt: 'bullet', src: '/photos/p1.jpg', width: 800, height: 600 },
      },
      {
        what: 'a real description on a list bullet image',
        facts: { alt: 'Tulip', src: '/img/b.gif', listMarker: true },
      },
      {
        what: '"Arrow Lake at dawn" on arrow-lake.jpg: not only decorative words',
        facts: { alt: 'Arrow Lake at dawn', src: '/arrow-lake.jpg' },
      },
      {
        what: '"arrow" as the only content of a link (link-without-purpose instead)',
        facts: { alt: 'arrow', src: '/arrow.png', role: 'link', linkTarget: '/next' },
      },
    ],
  ],
  [
    'empty-but-informative',
    [
      { what: 'the pixels show content', facts: { alt: '', informative: true } },
      {
        what: 'the OCR read text in the image',
        facts: { alt: '', informative: true, imageText: 'Summer sale\n50% off' },
        evidence: 'The empty alt="" hides the text “Summer sale 50% off” that the image shows.',
      },
      {
        what: 'the only content of a link',
        facts: { alt: '', role: 'link', linkTarget: '/pricing' },
        evidence: '“/pricing”',
      },
      { what: 'an image button', facts: { alt: '', element: 'input-image' } },
      {
        what: 'the only content of a link: the link has no name',
        facts: { alt: '', role: 'link', linkTarget: '/shop' },
        evidence: 'so the link has no name',
      },
      {
        what: 'a chart by its file name',
        facts: { alt: '', src: '/media/sales-chart-2026.png' },
        evidence: 'its file name “sales-chart-2026.png” says it is a chart',
      },
      {
        what: 'a chart by its class',
        facts: { alt: '', src: '/media/q3.png', classNames: 'wp-image-12 bar-graph' },
        evidence: 'class or id “wp-image-12 bar-graph”',
      },
      {
        what: 'a chart found by the OCR: only numbers on its axis',
        facts: { alt: '', informative: true, imageText: '0 10 20 30 40' },
        evidence: '“0 10 20 30 40”',
      },
    ],
    [
      { what: 'unknown pixels', facts: { alt: '' } },
      {
        what: 'beside the link’s own text',
        facts: { alt: '', role: 'link', linkTarget: '/pricing', linkText: 'Pricing' },
      },
      {
        what: 'a figure whose caption says it all',
        facts: { alt: '', role: 'figure', caption: 'Red tulips' },
      },
      { what: 'missing is not empty', facts: { alt: null, informative: true } },
      { what: 'the pixels show nothing', facts: { alt: '', informative: false } },
      {
        what: 'a chart-named file whose pixels are one colour',
        facts: { alt: '', src: '/chart.png', informative: false },
      },
      { what: 'a file name with "photograph" is not a graph', facts: { alt: '', src: '/photograph-1.jpg' } },
      { what: 'a chart with a text alt', facts: { alt: 'Sales rose 20% in 2026', src: '/sales-chart.png' } },
    ],
  ],
  [
    'whitespace-alt',
    [
      { what: 'alt=" " (a space)', facts: { alt: ' ' }, evidence: 'only whitespace' },
      { what: 'alt of tabs and a newline', facts: { alt: '\t\n ' } },
      { what: 'alt of a no-break space', facts: { alt: '\u00a0' } },
    ],
    [
      { what: 'alt=""', facts: { alt: '' } },
      { what: 'words with spaces around them', facts: { alt: '  Red tulips  ' } },
      { what: 'spaces beside an aria-label that names it', facts: { alt: ' ', ariaLabel: 'Red tulips' } },
    ],
  ],
  [
    'empty-alt-with-title',
    [
      {
        what: 'alt="" with a title (HTML_CodeSniffer H67.1)',
        facts: { alt: '', title: 'Opening hours: 9 to 5' },
        evidence: '“Opening hours: 9 to 5”',
      },
      { what: 'alt of spaces with a title', facts: { alt: '  ', title: 'Tulips' } },
    ],
    [
      { what: 'alt="" with an empty title', facts: { alt: '', title: '' } },
      { what: 'alt="" with a title of spaces', facts: { alt: '', title: '   ' } },
      { what: 'a text alt with a title', facts: { alt: 'Red tulips', title: 'Tulips' } },
      { what: 'alt="" with no title', facts: { alt: '' } },
    ],
  ],
  [
    'title-only',
    [
      {
        what: 'no alt, a title',
        facts: { alt: null, title: 'Red tulips in a glass vase' },
        evidence: 'named only by its title “Red tulips in a glass vase”',
      },
      {
        what: 'role=img named by its title',
        facts: { alt: null, element: 'role-img', src: `${pageUrl}#map`, title: 'Map of the shop' },
      },
    ],
    [
      { what: 'an alt and a title', facts: { alt: 'Red tulips', title: 'Red tulips' } },
      { what: 'an aria-label and a title', facts: { alt: null, ariaLabel: 'Tulips', title: 'Tulips' } },
      { what: 'no alt and a blank title (missing instead)', facts: { alt: null, title: '  ' } },
    ],
  ],
  [
    'label-contradicts-alt',
    [
      {
        what: 'aria-label and alt share no word',
        facts: { alt: 'Red tulips in a glass vase', ariaLabel: 'Search the shop' },
        evidence:
          'The ARIA label “Search the shop” and the alt text “Red tulips in a glass vase” share no word',
      },
      {
        what: 'aria-labelledby text against the alt',
        facts: { alt: 'Sales chart', ariaLabel: 'Opening hours' },
      },
    ],
    [
      { what: 'they share a word', facts: { alt: 'Red tulips', ariaLabel: 'Tulips in a vase' } },
      { what: 'a plural and a singular', facts: { alt: 'Tulip', ariaLabel: 'Tulips on sale' } },
      { what: 'alt="" beside an aria-label', facts: { alt: '', ariaLabel: 'Tulips on sale' } },
      { what: 'no alt beside an aria-label', facts: { alt: null, ariaLabel: 'Tulips on sale' } },
      { what: 'an alt of function words only', facts: { alt: 'of the', ariaLabel: 'Tulips on sale' } },
    ],
  ],
  [
    'text-mismatch',
    [
      {
        what: 'the image shows a different phone number',
        facts: {
          alt: 'Call us on 555-0199',
          imageText: 'CALL US TODAY\n555-0142',
          imageTextConfidence: 92,
          informative: true,
        },
        evidence:
          'The image shows the phone number “555-0142” but the alt text “Call us on 555-0199” does not state it.',
      },
      {
        what: 'the image shows a price the alt leaves out',
        facts: {
          alt: 'Spring sale on tulips',
          imageText: 'Spring sale\nTulips $12.99',
          imageTextConfidence: 90,
        },
        evidence: 'price “$12.99”',
      },
      {
        what: 'the image shows another date',
        facts: { alt: 'Concert on 13 March 2026', imageText: 'Concert\n12.03.2026', imageTextConfidence: 90 },
        evidence: 'date “12.03.2026”',
      },
      {
        what: 'an image link shows a heading its name shares no word with (label in name)',
        facts: {
          role: 'link',
          linkTarget: '/sale',
          alt: 'A woman in a straw hat',
          imageText: 'SUMMER SALE\n50% OFF',
          imageTextConfidence: 91,
        },
        evidence: 'heading “SUMMER SALE”',
      },
    ],
    [
      {
        what: 'the same phone number in other separators',
        facts: { alt: 'Call us: 555 0142', imageText: 'CALL US\n555-0142', imageTextConfidence: 92 },
      },
      {
        what: 'a price paraphrased',
        facts: { alt: 'Tulips for 12.99 dollars', imageText: 'Tulips $12.99', imageTextConfidence: 90 },
      },
      {
        what: 'a date paraphrased with the month’s name',
        facts: { alt: 'Concert on 12 March 2026', imageText: 'Concert\n12.03.2026', imageTextConfidence: 90 },
      },
      {
        what: 'the heading’s words in the alt',
        facts: { alt: 'Summer sale: half price', imageText: 'SUMMER SALE\n50% OFF', imageTextConfidence: 91 },
      },
      {
        what: 'a diagram’s words that its description does not transcribe (experts do not)',
        facts: {
          alt: 'Illustration showing how components relate',
          imageText: 'evaluation tools browsers, media players',
          imageTextConfidence: 99,
        },
      },
      {
        what: 'a sponsor’s name on a player’s shirt',
        facts: { alt: 'Shane Williams', imageText: 'JOHN WEST', imageTextConfidence: 89 },
      },
      {
        what: 'low OCR confidence is never a fail',
        facts: { alt: 'Call us on 555-0199', imageText: 'CALL US\n555-0142', imageTextConfidence: 80 },
      },
      {
        what: 'no confidence recorded',
        facts: { alt: 'Call us on 555-0199', imageText: 'CALL US\n555-0142' },
      },
      {
        what: 'alt="" (empty-but-informative instead)',
        facts: { alt: '', imageText: 'SUMMER SALE', imageTextConfidence: 95, informative: true },
      },
      {
        what: 'an axis of years is not a phone number',
        facts: { alt: 'Revenue by year', imageText: 'Revenue\n2021 2022 2023 2024', imageTextConfidence: 90 },
      },
    ],
  ],
  [
    'describes-appearance',
    [
      {
        what: 'a 440-character description of a logo',
        facts: {
          src: '/img/site-logo.svg',
          alt: `A circular emblem in navy blue and gold showing a stylized tulip above the words Shop Example, ${'with thin lines radiating from the centre like the rays of a rising sun, '.repeat(5)}`.trim(),
        },
        evidence: 'describes how the picture looks',
      },
      {
        what: 'a logo by its class in the header’s home link, two sentences',
        facts: {
          src: '/img/a.svg',
          role: 'link',
          linkTarget: '/',
          inHeader: true,
          alt: 'A red circle. Inside it a white star shows.',
        },
        evidence: 'instead of naming the site',
      },
      {
        what: 'an image link whose long alt describes the picture',
        facts: {
          role: 'link',
          linkTarget: '/spring-sale',
          alt: 'The picture shows a smiling woman in a yellow coat holding a bunch of red tulips in front of a green wall.',
        },
        evidence: 'instead of saying where the link goes',
      },
    ],
    [
      {
        what: 'a logo named after the site',
        facts: { src: '/img/site-logo.svg', alt: 'Shop Example' },
      },
      {
        what: 'a long description of a content photo (too-long instead)',
        facts: {
          alt: `A smiling woman in a yellow coat holds red tulips in front of a green wall ${'at the market '.repeat(6)}`,
        },
      },
      {
        what: 'a long link name without appearance words',
        facts: {
          role: 'link',
          linkTarget: '/spring-sale',
          alt: 'Spring sale: every tulip bulb and bouquet in the shop at half price until the end of April, delivered free',
        },
      },
      {
        what: 'a product card’s picture linking to its product page, described',
        facts: {
          role: 'link',
          linkTarget: '/products/red-shoe-123',
          alt: 'A red leather running shoe with white laces and a blue rubber sole, shown from the side on a grey floor',
        },
      },
      {
        what: 'a long description that names the link’s destination',
        facts: {
          role: 'link',
          linkTarget: '/tulips',
          alt: 'Red and yellow tulips in a white vase. Our tulips arrive fresh every Friday from the growers.',
        },
      },
      {
        what: 'a short logo alt with a colour',
        facts: { src: '/logo.png', alt: 'Blue Bottle Coffee, red and white' },
      },
    ],
  ],
  [
    'redundant-link',
    [
      {
        what: 'an image link beside a text link to the same address (H2.EG3)',
        facts: {
          role: 'link',
          linkTarget: 'https://shop.example/tulips',
          alt: 'Red tulips',
          besideTextLink: 'Red tulips',
        },
        evidence: 'beside the text link “Red tulips”',
      },
      {
        what: 'an empty image link beside its text link (H2.EG4)',
        facts: { role: 'link', linkTarget: '/tulips', alt: '', besideTextLink: 'Tulips' },
      },
    ],
    [
      { what: 'an image link alone', facts: { role: 'link', linkTarget: '/tulips', alt: 'Red tulips' } },
      {
        what: 'an image in a link with its own text',
        facts: { role: 'link', linkTarget: '/tulips', linkText: 'Tulips', alt: '', besideTextLink: 'Tulips' },
      },
    ],
  ],
  [
    'announces-medium',
    [
      { what: '"Image of"', facts: { alt: 'Image of red tulips' }, evidence: 'starts with “Image of”' },
      { what: '"Picture of"', facts: { alt: 'Picture of a tulip field' } },
      { what: '"photo of"', facts: { alt: 'photo of tulips in a vase' } },
      { what: '"Graphic of"', facts: { alt: 'Graphic of a tulip bulb' } },
      {
        what: '"Link to" on an image link',
        facts: { alt: 'Link to pricing', role: 'link', linkTarget: '/pricing' },
        evidence: '“Link to”',
      },
      { what: '"This image shows"', facts: { alt: 'This image shows red tulips' } },
    ],
    [
      {
        what: '"Photograph of": the kind is information',
        facts: { alt: 'Photograph of a tulip field in 1920' },
      },
      { what: '"Chart of"', facts: { alt: 'Chart of tulip sales by month' } },
      { what: 'a word starting like it', facts: { alt: 'Imagery of spring' } },
      { what: '"a photo of" alone is vague, not this', facts: { alt: 'a photo of' } },
    ],
  ],
  [
    'keyword-stuffing',
    [
      {
        what: 'the same word three times',
        facts: { alt: 'Tulips, tulip bulbs and a tulip field' },
        evidence: 'the word “tulip” 3 times',
      },
      {
        what: 'a list of keywords',
        facts: { alt: 'Spring flowers, cheap roses, buy roses online, garden shop' },
        evidence: 'a list of 4 keywords',
      },
      {
        what: 'keywords split by bars',
        facts: { alt: 'tulips | tulip bulbs | roses | bouquets' },
        evidence: '4 keywords',
      },
    ],
    [
      { what: 'a word twice', facts: { alt: 'Tulips and more tulips' } },
      { what: 'an English list with "and"', facts: { alt: 'Red, white, blue and green flags' } },
      { what: 'three items', facts: { alt: 'Tulips, roses, lilies' } },
      {
        what: 'names and titles of an org chart',
        facts: { alt: 'Davy Jones, Chairman, Carole Brewster, Company Secretary, Henry Brown' },
      },
      {
        what: 'a colour three times in a long description (an expert’s alt)',
        facts: {
          alt: 'Painting of a white woman with short light brown hair, facing to the right. She is wearing a dark brown coat with a brown scarf and a golden broach at her throat.',
        },
      },
      {
        what: 'a list of different things (an expert’s alt)',
        facts: {
          alt: 'Jonathan Wilson - musician, songwriter, record producer, guitar builder, guitarist, drummer, singer',
        },
      },
      {
        what: 'a short word three times in instructions',
        facts: { alt: 'Apple: cut in half. Orange: cut out segments. Pear: cut thin slices.' },
      },
      {
        what: 'a sentence with commas',
        facts: { alt: 'A vase of tulips, set on a table, by a window, in the morning sun' },
      },
    ],
  ],
  [
    'css-image-to-check',
    [
      {
        what: 'a block’s CSS background without any name (a hero)',
        facts: {
          element: 'css-background',
          src: 'https://harbour.test/hero.jpg',
          alt: null,
          nameSource: 'none',
        },
        evidence: '“hero.jpg”',
      },
    ],
    [
      {
        what: 'a CSS background named by its title',
        facts: {
          element: 'css-background',
          alt: null,
          title: 'Boats at night',
          name: 'Boats at night',
          nameSource: 'title',
        },
      },
      {
        what: 'a CSS background that is the only content of a link (a missing name, a failure)',
        facts: { element: 'css-background', alt: null, role: 'link', linkTarget: '/', nameSource: 'none' },
      },
      { what: 'an <img> without alt (missing, a failure)', facts: { alt: null } },
    ],
  ],
];

describe('audit checks: every problem code', () => {
  it('covers every code of the contract', () => {
    expect(table.map(([code]) => code).sort()).toEqual([...auditProblemCodes].sort());
  });

  for (const [code, yes, no] of table) {
    describe(code, () => {
      it.each(yes)('applies: $what', ({ facts, page, evidence }) => {
        const verdicts = page ? checkPageImages(page.map(image)) : [checkOne(facts ?? {})];
        const verdict = verdicts[0] as ImageVerdict;
        const problem = verdict.problems.find((found) => found.code === code);
        expect(problem, JSON.stringify(verdict.problems)).toBeDefined();
        expect(problem?.severity).toBe(auditProblemRules[code].severity);
        expect(problem?.wcag).toEqual(auditProblemRules[code].wcag);
        // One sentence naming the evidence.
        expect(problem?.message).toMatch(/^[A-Z].*[.]$/);
        expect(problem?.message.replace(/“[^”]*”/g, '“…”').match(/[.!?](\s|$)/g)?.length).toBe(1);
        if (evidence) expect(problem?.message).toContain(evidence);
      });
      it.each(no)('does not apply: $what', ({ facts, page }) => {
        const verdicts = page ? checkPageImages(page.map(image)) : [checkOne(facts ?? {})];
        for (const verdict of verdicts) expect(codesOf(verdict)).not.toContain(code);
      });
    });
  }
});

describe('verdicts', () => {
  it.each<{ what: string; facts: Partial<AuditImageFacts>; verdict: string; codes: AuditProblemCode[] }>([
    { what: 'a good description passes', facts: {}, verdict: 'pass', codes: [] },
    { what: 'a correct alt="" is decorative', facts: { alt: '' }, verdict: 'decorative', codes: [] },
    {
      what: 'a spacer with alt="" is decorative',
      facts: { alt: '', src: '/spacer.gif' },
      verdict: 'decorative',
      codes: [],
    },
    {
      what: 'a warning alone is a warning',
      facts: { alt: 'spacer', src: '/spacer.gif' },
      verdict: 'warning',
      codes: ['decorative-with-alt'],
    },
    {
      what: 'a fail beats a warning',
      facts: { role: 'figure', caption: 'logo', alt: 'Logo' },
      verdict: 'fail',
      codes: ['vague', 'redundant'],
    },
    {
      what: 'an image link without alt fails twice, in the contract’s order',
      facts: { role: 'link', linkTarget: '/', alt: null },
      verdict: 'fail',
      codes: ['missing', 'link-without-purpose'],
    },
    {
      what: 'an empty image link fails twice',
      facts: { role: 'link', linkTarget: '/', alt: '' },
      verdict: 'fail',
      codes: ['link-without-purpose', 'empty-but-informative'],
    },
    {
      what: 'a name from the title alone is a warning, not missing',
      facts: { alt: null, title: 'Red tulips in a glass vase' },
      verdict: 'warning',
      codes: ['title-only'],
    },
    {
      what: 'an alt of spaces fails',
      facts: { alt: '   ' },
      verdict: 'fail',
      codes: ['whitespace-alt'],
    },
    {
      what: 'alt="bullet" on a list bullet no longer passes',
      facts: { alt: 'bullet', src: '/img/b.gif', listMarker: true },
      verdict: 'warning',
      codes: ['decorative-with-alt'],
    },
    {
      what: 'a long logo description fails instead of being too long',
      facts: {
        src: '/logo.svg',
        alt: 'A blue circle with a gold tulip in the middle, surrounded by a thin ring of green leaves and the name of the shop written underneath in white capital letters on a dark background',
      },
      verdict: 'fail',
      codes: ['describes-appearance'],
    },
    {
      what: 'a good image link passes',
      facts: { role: 'link', linkTarget: '/pricing', alt: 'Pricing' },
      verdict: 'pass',
      codes: [],
    },
    {
      what: 'a too-long figure description is a warning',
      facts: {
        role: 'figure',
        caption: 'Spring',
        alt: 'Tulips in a field at sunrise with a windmill, a canal, two cyclists on a dyke, grey clouds over the dunes and a row of poplars bending in the wind by a farm',
      },
      verdict: 'warning',
      codes: ['too-long'],
    },
  ])('$what', ({ facts, verdict, codes }) => {
    const result = checkOne(facts);
    expect(result.verdict).toBe(verdict);
    expect(codesOf(result)).toEqual(codes);
  });

  it('marks every image that shares an alt with an image elsewhere on the page, and keeps the order', () => {
    const verdicts = checkPageImages(
      [
        { src: '/a.jpg', alt: 'Tulip bouquet' },
        { src: '/b.jpg', alt: 'Daffodils in the sun' },
        { src: '/c.jpg', alt: 'Tulip bouquet' },
        { src: '/d.jpg', alt: 'TULIP  bouquet' },
      ].map(image),
    );
    expect(verdicts.map((verdict) => verdict.verdict)).toEqual(['warning', 'pass', 'warning', 'warning']);
    expect(verdicts[0]?.problems[0]?.message).toBe(
      'The alt text “Tulip bouquet” is also used for “c.jpg” and 1 other image on this page, so the images cannot be told apart.',
    );
  });

  it('does not count images of other pages: each call is one page', () => {
    const [first] = checkPageImages([image({ src: '/a.jpg', alt: 'Tulip bouquet' })]);
    const [second] = checkPageImages([image({ src: '/b.jpg', alt: 'Tulip bouquet' })]);
    expect([first?.verdict, second?.verdict]).toEqual(['pass', 'pass']);
  });
});

/**
 * The pixel check (ADR 037) end to end on real pixels: the offline engine's OCR and pixel stats
 * (`readImageText`) → evidence → the checks. Text and blank images are drawn with sharp here; the
 * photo is the engine tests' coffee fixture.
 */
describe('pixel evidence', () => {
  let engine: AltTextEngine;
  const read = (bytes: Uint8Array) => {
    if (!engine.readImageText) throw new Error('the offline engine reads pixels');
    return engine.readImageText(bytes);
  };
  const svg = (body: string) =>
    sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="160"><rect width="100%" height="100%" fill="#fff"/>${body}</svg>`,
      ),
    )
      .png()
      .toBuffer();
  const checkWith = async (bytes: Uint8Array, facts: Partial<AuditImageFacts>) => {
    const pixels = evidenceOf(await read(bytes));
    return checkOne({
      ...facts,
      ...(pixels.informative !== undefined ? { informative: pixels.informative } : {}),
      ...(pixels.text ? { imageText: pixels.text } : {}),
      ...(pixels.confidence !== undefined ? { imageTextConfidence: pixels.confidence } : {}),
    });
  };

  beforeAll(async () => {
    engine = createOfflineEngine(defaultEngineOptions());
    await engine.warmUp();
  }, 60_000);
  afterAll(() => engine.close());

  it('fails alt="" on an image with big clear text, quoting the text', async () => {
    const banner = await svg(
      '<text x="240" y="70" font-family="DejaVu Sans, sans-serif" font-size="44" font-weight="bold" text-anchor="middle">SUMMER SALE</text><text x="240" y="130" font-family="DejaVu Sans, sans-serif" font-size="40" text-anchor="middle">50% OFF</text>',
    );
    const result = await checkWith(banner, { alt: '' });
    expect(result.verdict).toBe('fail');
    expect(codesOf(result)).toEqual(['empty-but-informative']);
    expect(result.problems[0]?.message).toMatch(
      /^The empty alt="" hides the text “SUMMER SALE 50% OFF” that the image shows\.$/,
    );
  });

  it('finds no problem in a photo without text with alt="" (a decorative photo is legitimate)', async () => {
    const photo = await readFile(new URL('./fixtures/images/coffee.jpg', import.meta.url));
    const result = await checkWith(photo, { alt: '' });
    expect(result).toEqual({ verdict: 'decorative', problems: [] });
  });

  it('calls a blank image with alt="" decorative, and a blank image with text alt decorative-with-alt', async () => {
    const blank = await sharp({ create: { width: 300, height: 120, channels: 3, background: '#f4f4f4' } })
      .png()
      .toBuffer();
    expect(await checkWith(blank, { alt: '' })).toEqual({ verdict: 'decorative', problems: [] });
    const named = await checkWith(blank, { alt: 'Summer collection' });
    expect(named.verdict).toBe('warning');
    expect(codesOf(named)).toEqual(['decorative-with-alt']);
    expect(named.problems[0]?.message).toContain('pixels show no content');
  });

  it('fails a text alt whose phone number differs from the one the image shows, read by the real OCR', async () => {
    const card = await svg(
      '<text x="240" y="65" font-family="DejaVu Sans, sans-serif" font-size="40" font-weight="bold" text-anchor="middle">CALL US</text><text x="240" y="130" font-family="DejaVu Sans, sans-serif" font-size="44" text-anchor="middle">555-0142</text>',
    );
    const wrong = await checkWith(card, { alt: 'Call us on 555-0199' });
    expect(codesOf(wrong)).toEqual(['text-mismatch']);
    expect(wrong.problems[0]?.message).toBe(
      'The image shows the phone number “555-0142” but the alt text “Call us on 555-0199” does not state it.',
    );
    const right = await checkWith(card, { alt: 'Call us on 555 0142' });
    expect(right).toEqual({ verdict: 'pass', problems: [] });
  });

  it('needs two confident words: one word or numbers alone are not evidence', () => {
    const reading = { blank: false, text: '', words: 0, letterWords: 0, confidence: 0, timedOut: false };
    expect(evidenceOf({ ...reading, text: 'SALE', words: 1, letterWords: 1, confidence: 95 })).toEqual({});
    expect(evidenceOf({ ...reading, text: '3 8', words: 2, letterWords: 0, confidence: 78 })).toEqual({});
    expect(evidenceOf({ ...reading, text: 'Big sale', words: 2, letterWords: 2, confidence: 72 })).toEqual(
      {},
    );
    expect(
      evidenceOf({ ...reading, text: 'Big sale', words: 2, letterWords: 2, confidence: 90, timedOut: true }),
    ).toEqual({});
    expect(evidenceOf({ ...reading, text: 'Big sale', words: 2, letterWords: 2, confidence: 90 })).toEqual({
      informative: true,
      text: 'Big sale',
      confidence: 90,
    });
    // ADR 060: a phone number, price or date is text on its own, and so are a chart's numbers.
    expect(evidenceOf({ ...reading, text: '555-0142', words: 1, letterWords: 0, confidence: 88 })).toEqual({
      informative: true,
      text: '555-0142',
      confidence: 88,
    });
    expect(
      evidenceOf({ ...reading, text: '0 10 20 30 40', words: 5, letterWords: 0, confidence: 86 }),
    ).toMatchObject({ informative: true });
    expect(evidenceOf({ ...reading, text: '3 8 12', words: 3, letterWords: 0, confidence: 90 })).toEqual({});
  });

  it('plans each address once, alt="" first, skips what a run before a restart looked at, and cuts at the cap', () => {
    const row = (src: string, alt: string | null, pageUrl: string, position: number, depth = 0) => ({
      src,
      alt,
      role: 'content' as const,
      facts: { element: 'img' as const },
      pageUrl,
      position,
      depth,
    });
    const rows = [
      row('https://a.example/logo.png', 'Acme', 'https://a.example/', 0),
      row('https://a.example/hero.png', '', 'https://a.example/', 1),
      row('https://a.example/boat.jpg', 'A boat at dawn', 'https://a.example/', 2),
      row('https://a.example/logo.png', 'Acme', 'https://a.example/b', 0, 1),
      row('https://a.example/sale.png', '', 'https://a.example/b', 1, 1),
      row('https://a.example/logo.png', '', 'https://a.example/c', 0, 1),
      row('https://a.example/none.png', null, 'https://a.example/c', 1, 1),
    ];
    const plan = planPixelChecks(rows);
    expect(plan).toEqual({
      sources: [
        // Used with alt="" on page c: read for text, ordered by where it first appears.
        { src: 'https://a.example/logo.png', need: 'empty-alt', done: false },
        { src: 'https://a.example/hero.png', need: 'empty-alt', done: false },
        { src: 'https://a.example/sale.png', need: 'empty-alt', done: false },
        // A text alt: only a blank image would change its verdict; after every alt="".
        { src: 'https://a.example/boat.jpg', need: 'text-alt', done: false },
      ],
      over: 0,
    });
    // The same plan whatever order the pages landed in.
    expect(planPixelChecks([...rows].reverse())).toEqual(plan);
    const looked = rows.map((r) =>
      r.src.endsWith('hero.png') ? { ...r, facts: { ...r.facts, pixels: {} } } : r,
    );
    expect(planPixelChecks(looked).sources.filter((source) => source.done)).toEqual([
      { src: 'https://a.example/hero.png', need: 'empty-alt', done: true },
    ]);
    expect(planPixelChecks(rows, 2)).toMatchObject({
      sources: [{ src: 'https://a.example/logo.png' }, { src: 'https://a.example/hero.png' }],
      over: 2,
    });
  });

  it.each<[string, Partial<AuditImageFacts>, 'empty-alt' | 'text-alt' | undefined]>([
    ['alt="" on content', { alt: '' }, 'empty-alt'],
    ['a text alt', { alt: 'Red tulips' }, 'text-alt'],
    ['the only content of a link', { alt: '', role: 'link', linkTarget: '/pricing' }, undefined],
    ['a 1×1 tracking pixel', { alt: '', width: 1, height: 1 }, undefined],
    ['spacer.gif', { alt: 'spacer', src: '/img/spacer.gif' }, undefined],
    ['no alt (already missing)', { alt: null }, undefined],
    ['role=img has no pixels to fetch', { alt: null, ariaLabel: 'Chart', element: 'role-img' }, undefined],
    ['a data: URL', { alt: '', src: 'data:image/png;base64,AAAA' }, undefined],
  ])('looks at the pixels of %s: %s', (_what, facts, need) => {
    expect(pixelCheckNeed(image(facts))).toBe(need);
  });
});

describe('auditScore', () => {
  it.each<{ verdicts: Array<'pass' | 'fail' | 'warning' | 'decorative'>; score: number | null }>([
    { verdicts: [], score: null },
    { verdicts: ['decorative', 'decorative'], score: null },
    { verdicts: ['pass', 'pass'], score: 1 },
    { verdicts: ['pass', 'fail', 'warning', 'decorative'], score: 1 / 3 },
    { verdicts: ['fail', 'warning'], score: 0 },
  ])('$verdicts → $score', ({ verdicts, score }) => {
    expect(auditScore(verdicts)).toBe(score);
  });
});

describe('properties', () => {
  const words = [
    'tulip',
    'logo',
    'image',
    'IMG_2041.jpg',
    'spacer',
    'A',
    'red',
    'todo',
    '-',
    'pricing',
    'photo of',
    '',
    // ADR 060's evidence words.
    'bullet',
    'Image of',
    'blue',
    'circle',
    'shows',
    '555-0199',
    'tulips,',
    '\u00a0',
  ];
  const text = fc.array(fc.constantFrom(...words), { maxLength: 5 }).map((parts) => parts.join(' '));
  const facts = fc.record(
    {
      pageUrl: fc.constant(pageUrl),
      src: fc.oneof(
        fc.constantFrom(
          '/a.jpg',
          '/b.png',
          '/spacer.gif',
          'https://cdn.example/IMG_1.jpg',
          'data:image/png;base64,AA',
          '/%E0%A4%A.png',
        ),
        fc.string({ maxLength: 30 }),
      ),
      alt: fc.option(fc.oneof(text, fc.string({ maxLength: 200 })), { nil: null }),
      ariaLabel: fc.option(text, { nil: undefined }),
      element: fc.constantFrom('img' as const, 'input-image' as const, 'role-img' as const),
      role: fc.constantFrom('content' as const, 'link' as const, 'button' as const, 'figure' as const),
      linkTarget: fc.option(
        fc.oneof(
          fc.constantFrom(
            '/',
            '/pricing',
            'https://x.example/a',
            'mailto:a@b.c',
            '#top',
            'http://[',
            '/%E0%A4%A',
          ),
          fc.string({ maxLength: 30 }),
        ),
        {
          nil: undefined,
        },
      ),
      linkText: fc.option(text, { nil: undefined }),
      caption: fc.option(text, { nil: undefined }),
      adjacentText: fc.option(text, { nil: undefined }),
      width: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: undefined }),
      height: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: undefined }),
      informative: fc.option(fc.boolean(), { nil: undefined }),
      // ADR 060's facts, with hostile text: OCR garbage, digits, huge titles, separators only.
      imageText: fc.option(
        fc.oneof(
          fc.constantFrom('CALL US\n555-0142', 'SALE $12.99', '12.03.2026', '0 10 20 30', '|||,,,;;;'),
          fc.string({ maxLength: 300 }),
        ),
        { nil: undefined },
      ),
      imageTextConfidence: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
      title: fc.option(fc.oneof(text, fc.string({ maxLength: 2000 })), { nil: undefined }),
      classNames: fc.option(fc.constantFrom('site-logo', 'bar-graph', 'x'), { nil: undefined }),
      inHeader: fc.option(fc.boolean(), { nil: undefined }),
      listMarker: fc.option(fc.boolean(), { nil: undefined }),
      besideTextLink: fc.option(text, { nil: undefined }),
    },
    { requiredKeys: ['pageUrl', 'src', 'alt', 'element', 'role'] },
  );
  const page = fc.array(facts, { maxLength: 8 });

  it('gives the same verdicts for the same page, and fail exactly when a problem is a fail', () => {
    fc.assert(
      fc.property(page, (images) => {
        const first = checkPageImages(images);
        const again = checkPageImages(structuredClone(images));
        expect(again).toEqual(first);
        expect(first).toHaveLength(images.length);
        for (const [index, result] of first.entries()) {
          const fails = result.problems.some((problem) => problem.severity === 'fail');
          expect(result.verdict === 'fail').toBe(fails);
          if (!fails) expect(result.verdict === 'warning').toBe(result.problems.length > 0);
          if (result.verdict === 'decorative')
            expect(images[index]?.ariaLabel?.trim() || images[index]?.alt?.trim()).toBeFalsy();
          for (const problem of result.problems) {
            expect(problem.severity).toBe(auditProblemRules[problem.code].severity);
            expect(problem.message.length).toBeGreaterThan(0);
          }
        }
      }),
      { seed: 13, numRuns: 500 },
    );
  });
});
