import { describe, expect, it } from 'vitest';
import { measurePixels } from '../image-stats.ts';
import { prepareImage } from '../prepare-image.ts';
import type { PageContext } from '../types.ts';
import { composeAltText, type TextReading } from './compose.ts';

/**
 * Decorative by kind (ADR 063): page furniture drawn with sharp as sites draw it, its
 * pixels measured as the engine measures them, and what the OCR read given directly. Spacers,
 * rules, ornamental dividers and bullets get alt=""; pictures whose labels the text beside them
 * already gives get alt=""; a strip with words in it, an icon that labels a number, a control's
 * image do not.
 */

const nothingRead: TextReading = { text: '', confidence: 0, words: 0, numbers: 0 };

async function composeFor(svg: string, context: PageContext = {}, ocr: TextReading = nothingRead) {
  const prepared = await prepareImage(Buffer.from(svg));
  const stats = await measurePixels(prepared);
  return composeAltText({
    stats,
    objects: [],
    faces: [],
    ocr,
    width: prepared.original.width,
    height: prepared.original.height,
    transparentShare: prepared.transparentShare,
    context,
    minDetectionScore: 0.4,
  });
}

const svg = (width: number, height: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`;

describe('page furniture is decorative', () => {
  it.each<{ what: string; image: string }>([
    { what: 'a 1×1 spacer', image: svg(1, 1, '<rect width="1" height="1" fill="#fff" fill-opacity="0"/>') },
    {
      what: 'a 600×6 gradient rule',
      image: svg(
        600,
        6,
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset=".5" stop-color="#94a3b8"/><stop offset="1" stop-color="#fff"/></linearGradient></defs><rect width="600" height="6" fill="url(#g)"/>',
      ),
    },
    {
      what: 'a 400×28 ornamental divider (a flourish with a diamond)',
      image: svg(
        400,
        28,
        '<rect width="400" height="28" fill="#fffdf5"/><path d="M10 14 C 100 2, 150 26, 190 14" stroke="#8b5e34" stroke-width="2" fill="none"/><path d="M210 14 C 250 2, 300 26, 390 14" stroke="#8b5e34" stroke-width="2" fill="none"/><path d="M200 6 L208 14 L200 22 L192 14 Z" fill="#8b5e34"/>',
      ),
    },
    {
      what: 'a 320×20 dotted border strip',
      image: svg(
        320,
        20,
        `<rect width="320" height="20" fill="#fff"/>${Array.from({ length: 32 }, (_, i) => `<circle cx="${5 + i * 10}" cy="10" r="3" fill="#0ea5e9"/>`).join('')}`,
      ),
    },
    { what: 'a 16×16 bullet disc', image: svg(16, 16, '<circle cx="8" cy="8" r="5" fill="#dc2626"/>') },
    {
      what: 'a flat 300×200 background panel',
      image: svg(300, 200, '<rect width="300" height="200" fill="#e0f2fe"/>'),
    },
  ])('$what → alt=""', async ({ image }) => {
    const result = await composeFor(image, { surroundingText: 'Opening hours: Monday to Friday, 9 to 5.' });
    expect(result).toMatchObject({ altText: '', decorative: true });
  });

  it('a thin strip with words in it is not furniture: it says its words', async () => {
    const strip = svg(480, 28, '<rect width="480" height="28" fill="#111827"/>');
    const result = await composeFor(
      strip,
      {},
      {
        text: 'FREE DELIVERY ON ORDERS OVER £50',
        confidence: 95,
        words: 6,
        numbers: 1,
        coverage: 0.5,
        lines: [{ text: 'FREE DELIVERY ON ORDERS OVER £50' }],
      },
    );
    expect(result.decorative).toBe(false);
    expect(result.altText).toMatch(/free delivery on orders over £50/i);
  });

  it('a thin strip that is the only content of a link still needs a name', async () => {
    const rule = svg(
      600,
      6,
      '<rect width="600" height="6" fill="#334155"/><rect x="200" width="200" height="6" fill="#f59e0b"/>',
    );
    const result = await composeFor(rule, { role: 'link', linkTarget: '/offers' });
    expect(result.decorative).toBe(false);
  });
});

describe('pictures whose labels the text beside them already gives', () => {
  const wireframe = svg(
    196,
    122,
    '<rect width="196" height="122" fill="#fff"/><rect x="2" y="2" width="192" height="22" fill="#fde2e2" stroke="#b91c1c"/><rect x="2" y="26" width="40" height="80" fill="none" stroke="#555"/><rect x="44" y="26" width="150" height="80" fill="none" stroke="#555"/><rect x="2" y="108" width="192" height="12" fill="none" stroke="#555"/>',
  );
  const label = (text: string): TextReading => ({
    text,
    confidence: 96,
    words: text.split(' ').length,
    numbers: 0,
    coverage: 0.04,
    lines: [{ text }],
  });

  it('a wireframe thumbnail labelled "PAGE HEADER" under the heading "Header", beside a paragraph on the page’s top region → alt=""', async () => {
    const result = await composeFor(
      wireframe,
      {
        heading: 'Header',
        surroundingText:
          'Most websites have a region at the top of every page that contains site-wide information.',
      },
      label('PAGE HEADER'),
    );
    expect(result).toMatchObject({ altText: '', decorative: true });
    expect(result.reasons[0]?.detail).toMatch(/all in the text beside it/);
  });

  it('the same thumbnail beside text that does not give its label is described, not hidden', async () => {
    const result = await composeFor(
      wireframe,
      { heading: 'Layouts', surroundingText: 'Sites differ in how they arrange their regions.' },
      label('PAGE HEADER'),
    );
    expect(result.decorative).toBe(false);
  });

  it('an image of text (the text is its content) stays text even when a paragraph repeats it', async () => {
    const banner = svg(
      300,
      80,
      '<rect width="300" height="80" fill="#1e3a8a"/><text x="150" y="52" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="30" fill="#fff">SUMMER SALE</text>',
    );
    const result = await composeFor(
      banner,
      { surroundingText: 'Our summer sale starts today.' },
      { ...label('SUMMER SALE'), coverage: 0.3 },
    );
    // Spelled as the page spells it (ADR 053).
    expect(result.decorative).toBe(false);
    expect(result.altText).toMatch(/^summer sale$/i);
  });
});
