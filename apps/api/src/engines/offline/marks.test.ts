import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { describe, expect, it } from 'vitest';
import { prepareImage } from '../prepare-image.ts';
import { decideRole } from '../role.ts';
import type { PageContext } from '../types.ts';
import { brandForHost } from './brands.ts';
import { composeAltText } from './compose.ts';
import { pictogramConcepts } from './icons.ts';
import { markIndex, recogniseMark } from './marks.ts';

/**
 * ADR 063: logos and pictograms recognised offline. Each case draws a mark with sharp the way a
 * site would show it (its own colour, white on dark, cut out of a tile, at another size), runs the
 * engine's matcher on the prepared pixels, and asks the role and the composer for the alt text.
 */

/** The sets' own SVGs, copied into the fixtures (test/fixtures/README.md), drawn here as a site would. */
const fixtures = path.join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'marks');
const svgOf = (set: 'brand' | 'lucide' | 'material', name: string) =>
  readFileSync(path.join(fixtures, `${set === 'brand' ? 'simple-icons' : set}-${name}.svg`), 'utf8');

interface Look {
  size: number;
  colour: string;
  background: string;
  /** A rounded tile in this colour behind the mark (a social button). */
  tile?: string;
  format?: 'png' | 'jpeg';
}

async function draw(svg: string, look: Look): Promise<Buffer> {
  const coloured = svg.includes('currentColor')
    ? svg.replace(/currentColor/g, look.colour)
    : svg.replace('<svg ', `<svg fill="${look.colour}" `);
  const inner = Math.round(look.size * (look.tile ? 0.6 : 0.75));
  const mark = await sharp(Buffer.from(coloured), { density: 300 })
    .resize(inner, inner, { fit: 'contain', background: '#0000' })
    .png()
    .toBuffer();
  const layers: OverlayOptions[] = [];
  if (look.tile) {
    const s = look.size;
    layers.push({
      input: Buffer.from(
        `<svg width="${s}" height="${s}"><rect x="${s * 0.05}" y="${s * 0.05}" width="${s * 0.9}" height="${s * 0.9}" rx="${s * 0.18}" fill="${look.tile}"/></svg>`,
      ),
    });
  }
  layers.push({ input: mark, gravity: 'centre' });
  const canvas = sharp({
    create: { width: look.size, height: look.size, channels: 3, background: look.background },
  }).composite(layers);
  return look.format === 'jpeg' ? canvas.jpeg({ quality: 80 }).toBuffer() : canvas.png().toBuffer();
}

async function recognise(image: Buffer) {
  const prepared = await prepareImage(image);
  return recogniseMark(prepared.rgb, prepared.width, prepared.height);
}

describe('brands from simple-icons, by shape and colour', () => {
  it.each<{ what: string; slug: string; look: Look; name: string }>([
    {
      what: 'YouTube in its red, 48 px',
      slug: 'youtube',
      look: { size: 48, colour: '#FF0000', background: '#fff' },
      name: 'YouTube',
    },
    {
      what: 'YouTube white on a dark footer (inverted), 64 px',
      slug: 'youtube',
      look: { size: 64, colour: '#fff', background: '#1f2937' },
      name: 'YouTube',
    },
    {
      what: 'Facebook cut out of its blue tile, 96 px',
      slug: 'facebook',
      look: { size: 96, colour: '#fff', background: '#fff', tile: '#0866FF' },
      name: 'Facebook',
    },
    {
      what: 'Instagram in its pink, 128 px JPEG',
      slug: 'instagram',
      look: { size: 128, colour: '#FF0069', background: '#fff', format: 'jpeg' },
      name: 'Instagram',
    },
    {
      what: 'HTML5 in its orange, 48 px',
      slug: 'html5',
      look: { size: 48, colour: '#E34F26', background: '#fff' },
      name: 'HTML5',
    },
    {
      what: 'Mastodon white on dark, 64 px',
      slug: 'mastodon',
      look: { size: 64, colour: '#fff', background: '#111' },
      name: 'Mastodon',
    },
    {
      what: 'GitHub cut out of a black tile, 96 px',
      slug: 'github',
      look: { size: 96, colour: '#fff', background: '#fff', tile: '#181717' },
      name: 'GitHub',
    },
  ])('$what → $name', async ({ slug, look, name }) => {
    const mark = await recognise(await draw(svgOf('brand', slug), look));
    expect(mark).toMatchObject({ set: 'brand', name });
  });

  it('claims no brand for a brand’s shape in another brand’s colour (a red Facebook is not Facebook)', async () => {
    const mark = await recognise(
      await draw(svgOf('brand', 'facebook'), { size: 64, colour: '#E00000', background: '#fff' }),
    );
    expect(mark?.name).not.toBe('Facebook');
  });
});

describe('pictograms from Lucide and Material Symbols', () => {
  it.each<{ what: string; set: 'lucide' | 'material'; icon: string; look: Look; concept: string }>([
    {
      what: 'Lucide house, navy, 48 px',
      set: 'lucide',
      icon: 'house',
      look: { size: 48, colour: '#1e3a8a', background: '#fff' },
      concept: 'home',
    },
    {
      what: 'Lucide search, white on teal, 64 px',
      set: 'lucide',
      icon: 'search',
      look: { size: 64, colour: '#fff', background: '#0f766e' },
      concept: 'search',
    },
    {
      what: 'Lucide menu, black, 48 px',
      set: 'lucide',
      icon: 'menu',
      look: { size: 48, colour: '#000', background: '#fff' },
      concept: 'menu',
    },
    {
      what: 'Lucide shopping cart, grey, 48 px',
      set: 'lucide',
      icon: 'shopping-cart',
      look: { size: 48, colour: '#374151', background: '#fff' },
      concept: 'cart',
    },
    {
      what: 'Lucide close (x), white on red, 64 px',
      set: 'lucide',
      icon: 'x',
      look: { size: 64, colour: '#fff', background: '#b91c1c' },
      concept: 'close',
    },
    {
      what: 'Lucide chevron left, 48 px',
      set: 'lucide',
      icon: 'chevron-left',
      look: { size: 48, colour: '#111', background: '#f3f4f6' },
      concept: 'previous',
    },
    {
      what: 'Material filled phone, orange, 48 px',
      set: 'material',
      icon: 'call-fill',
      look: { size: 48, colour: '#ea580c', background: '#fff' },
      concept: 'phone',
    },
    {
      what: 'Material print, on a dark tile, 96 px',
      set: 'material',
      icon: 'print',
      look: { size: 96, colour: '#fff', background: '#fff', tile: '#334155' },
      concept: 'print',
    },
  ])('$what → $concept', async ({ set, icon, look, concept }) => {
    const mark = await recognise(await draw(svgOf(set, icon), look));
    expect(mark).toMatchObject({ set: 'pictogram', name: concept });
  });
});

describe('pictograms a site drew itself, in the sets’ style but not from them', () => {
  const drawn = (size: number, body: string, background = '#fff') =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24"><rect width="24" height="24" fill="${background}"/>${body}</svg>`,
    );
  it.each<{ what: string; image: Buffer; concept: string }>([
    {
      what: 'a hamburger with its lines closer together, 48 px',
      image: drawn(
        48,
        '<path d="M4 6h16M4 12h16M4 18h16" stroke="#111" stroke-width="2" stroke-linecap="round"/>',
      ),
      concept: 'menu',
    },
    {
      what: 'a solid blue house with a door, 48 px',
      image: drawn(48, '<path d="M3 11 L12 3 L21 11 V21 H15 V15 H9 V21 H3 Z" fill="#1d4ed8"/>'),
      concept: 'home',
    },
    {
      what: 'a thick square-capped X, 40 px',
      image: drawn(40, '<path d="M5 5L19 19M19 5L5 19" stroke="#333" stroke-width="3"/>'),
      concept: 'close',
    },
  ])('$what → $concept', async ({ image, concept }) => {
    expect(await recognise(image)).toMatchObject({ set: 'pictogram', name: concept });
  });
});

describe('say less when nothing matches', () => {
  it('claims nothing for a shape that is no known mark (a lopsided blob with a notch)', async () => {
    const blob = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#fff"/><path d="M8 40 C 4 10, 30 2, 44 12 L 36 28 L 58 30 C 62 50, 30 62, 8 40 Z" fill="#7c3aed"/></svg>',
    );
    expect(await recognise(blob)).toBeUndefined();
  });

  it('claims nothing for a photograph-like picture (no plain background)', async () => {
    const noise = Buffer.alloc(96 * 96 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + (i >> 5) * 104729) % 251;
    const image = await sharp(noise, { raw: { width: 96, height: 96, channels: 3 } })
      .png()
      .toBuffer();
    expect(await recognise(image)).toBeUndefined();
  });

  it('claims nothing for a mark drawn under 20 px (too few pixels to tell marks apart)', async () => {
    expect(
      await recognise(
        await draw(svgOf('brand', 'youtube'), { size: 16, colour: '#FF0000', background: '#fff' }),
      ),
    ).toBeUndefined();
  });
});

describe('the alt text a recognised mark gets, in its context', () => {
  const stats = {
    greyscale: false,
    brightness: 'bright' as const,
    meanLuma: 220,
    lumaStd: 50,
    colours: ['white', 'orange'],
    distinctColoursPerK: 5,
    topColourShare: 0.8,
    flatShare: 0.97,
    edgeShare: 0.05,
    uniform: false,
    meanSaturation: 0.3,
  };
  const compose = (mark: Parameters<typeof composeAltText>[0]['mark'], context: PageContext = {}) =>
    composeAltText({
      stats,
      objects: [],
      faces: [],
      ocr: { text: '', confidence: 0, words: 0, numbers: 0 },
      width: 48,
      height: 48,
      transparentShare: 0,
      context,
      minDetectionScore: 0.4,
      ...(mark ? { mark } : {}),
    });
  const site = 'https://www.riverside.example/';

  it.each<{
    what: string;
    context: PageContext;
    mark?: { set: 'brand' | 'pictogram'; name: string; score: number };
    altText: string;
  }>([
    {
      what: 'a hamburger pictogram as the only content of a button → "Open menu"',
      context: { role: 'button', pageUrl: site },
      mark: { set: 'pictogram', name: 'menu', score: 0.85 },
      altText: 'Open menu',
    },
    {
      what: 'a magnifier in a link to "#" → "Search"',
      context: { role: 'link', linkTarget: '#', pageUrl: site },
      mark: { set: 'pictogram', name: 'search', score: 0.85 },
      altText: 'Search',
    },
    {
      what: 'a house pictogram linking to the home page → the site’s home, not the picture',
      context: { role: 'link', linkTarget: '/', pageUrl: `${site}news/`, pageTitle: 'News | Riverside' },
      mark: { set: 'pictogram', name: 'home', score: 0.85 },
      altText: 'Riverside home',
    },
    {
      what: 'a LinkedIn icon linking to a company page → "Acme on LinkedIn" (the brand spelled as it spells itself)',
      context: { role: 'link', linkTarget: 'https://www.linkedin.com/company/acme', pageUrl: site },
      altText: 'Acme on LinkedIn',
    },
    {
      what: 'a YouTube icon linking to youtube.com → "YouTube"',
      context: { role: 'link', linkTarget: 'https://youtube.com/', pageUrl: site },
      mark: { set: 'brand', name: 'YouTube', score: 0.95 },
      altText: 'YouTube',
    },
    {
      what: 'a brand mark in a button with no other name → the brand',
      context: { role: 'button', pageUrl: site },
      mark: { set: 'brand', name: 'Mastodon', score: 0.95 },
      altText: 'Mastodon',
    },
    {
      what: 'a new-window icon inside link text → "New window"',
      context: {
        role: 'link',
        linkText: 'W3C Homepage',
        linkTarget: 'https://www.w3.org/',
        fileName: 'new-window.png',
        pageUrl: site,
      },
      altText: 'New window',
    },
    {
      what: 'a PDF icon inside link text that does not say PDF → "PDF"',
      context: {
        role: 'link',
        linkText: 'Annual report 2025 (2 MB)',
        linkTarget: '/report',
        fileName: 'icon_pdf.gif',
        pageUrl: site,
      },
      altText: 'PDF',
    },
  ])('$what', ({ context, mark, altText }) => {
    const decision = decideRole(context, mark ? { mark } : {});
    expect(decision).toMatchObject({ kind: 'functional', altText });
  });

  it('an icon inside link text that already says its format stays decorative', () => {
    const decision = decideRole({
      role: 'link',
      linkText: 'Annual report (PDF, 2 MB)',
      linkTarget: '/report.pdf',
      fileName: 'pdf-icon.png',
      pageUrl: site,
    });
    expect(decision.kind).toBe('decorative');
  });

  it('an unlinked phone pictogram beside a number → "Telephone"; a brand → its name, no "logo"', () => {
    expect(
      compose({ set: 'pictogram', name: 'phone', score: 0.8 }, { surroundingText: '0123 456 7890' }),
    ).toMatchObject({ altText: 'Telephone', decorative: false });
    expect(compose({ set: 'brand', name: 'HTML5', score: 0.9 })).toMatchObject({
      altText: 'HTML5',
      kind: 'logo',
      decorative: false,
    });
  });

  it('a pictogram whose name the short text beside it already gives is decorative ("Captions")', () => {
    expect(
      compose({ set: 'pictogram', name: 'captions', score: 0.8 }, { surroundingText: 'Select "Captions".' }),
    ).toMatchObject({ altText: '', decorative: true });
  });
});

describe('brand domains', () => {
  it.each([
    ['www.linkedin.com', 'LinkedIn'],
    ['uk.linkedin.com', 'LinkedIn'],
    ['youtu.be', 'YouTube'],
    ['twitter.com', 'X'],
    ['apps.apple.com', 'App Store'],
    ['www.amazon.co.uk', 'Amazon'],
  ])('%s → %s', (host, brand) => {
    expect(brandForHost(host)).toBe(brand);
  });

  it('names no brand for a site hosted under a brand’s domain of another kind (acme.github.io)', () => {
    expect(brandForHost('acme.github.io')).toBeUndefined();
    expect(brandForHost('riverside.example')).toBeUndefined();
  });
});

describe('the index', () => {
  it('holds the sets’ versions and thousands of brands plus every pictogram concept', () => {
    const { header } = markIndex();
    expect(Object.keys(header.sources)).toEqual([
      'simple-icons',
      'lucide-static',
      '@material-symbols/svg-400',
    ]);
    expect(header.entries.filter((entry) => entry.set === 'brand').length).toBeGreaterThan(3000);
    expect(new Set(header.entries.filter((entry) => entry.set === 'pictogram').map((e) => e.name)).size).toBe(
      pictogramConcepts.length,
    );
  });
});
