import sharp from 'sharp';

/**
 * Synthetic web graphics with known text, for the OCR bench and tests: nav buttons, banners,
 * display headings, badges, phone numbers, prices and bar/line/pie charts, rendered from SVG by
 * sharp (librsvg) with the DejaVu fonts Debian ships, at many sizes, colours and backgrounds,
 * some JPEG-compressed. Deterministic: the same seed gives the same images and texts.
 */

export type GraphicKind = 'button' | 'banner' | 'heading' | 'badge' | 'phone' | 'price' | 'chart';

export interface SyntheticGraphic {
  id: string;
  kind: GraphicKind;
  /** Encoded image (PNG, or JPEG where `jpeg` is set). */
  image: Buffer;
  jpeg: boolean;
  width: number;
  height: number;
  /** The visible text in reading order, one entry per line (see readingOrder). */
  lines: string[];
}

/** One text item drawn on the graphic, with the box it occupies (for the reference order). */
export interface TextItem {
  text: string;
  x: number;
  y: number;
  size: number;
  font: Font;
  fill: string;
  anchor?: 'start' | 'middle' | 'end';
  weight?: 'bold' | 'normal';
  italic?: boolean;
}

export interface Font {
  family: string;
  weight?: 'bold' | 'normal' | '200';
  style?: 'italic' | 'normal';
  /** Average advance per character in ems, to place and order items. */
  advance: number;
}

export const fonts = {
  sans: { family: 'DejaVu Sans', advance: 0.62 },
  sansBold: { family: 'DejaVu Sans', weight: 'bold', advance: 0.68 },
  condensed: { family: 'DejaVu Sans Condensed', advance: 0.56 },
  condensedBold: { family: 'DejaVu Sans Condensed', weight: 'bold', advance: 0.62 },
  serif: { family: 'DejaVu Serif', advance: 0.62 },
  serifBold: { family: 'DejaVu Serif', weight: 'bold', advance: 0.7 },
  serifItalic: { family: 'DejaVu Serif', style: 'italic', advance: 0.6 },
  mono: { family: 'DejaVu Sans Mono', advance: 0.6 },
  light: { family: 'DejaVu Sans', weight: '200', advance: 0.6 },
} satisfies Record<string, Font>;

/** mulberry32: small, fast and the same on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const between = (random: Random, min: number, max: number) => min + random() * (max - min);
const int = (random: Random, min: number, max: number) => Math.floor(between(random, min, max + 1));

const navWords = [
  'HOME',
  'NEWS',
  'ABOUT US',
  'CONTACT',
  'SHOP',
  'EVENTS',
  'LOGIN',
  'SIGN UP',
  'DONATE',
  'BLOG',
  'CAREERS',
  'SERVICES',
  'GALLERY',
  'MENU',
  'SEARCH',
  'PRODUCTS',
  'SUPPORT',
  'MEMBERS',
  'TICKETS',
  'FAQ',
];
const headings = [
  'Welcome to Riverside',
  'Summer Collection',
  'Our Services',
  'Meet the Team',
  'Fresh from the Bakery',
  'Annual Report 2025',
  'Join Our Community',
  'Spring Open Day',
  'Handmade in Bristol',
  'The Garden Centre',
  'Latest Projects',
  'Book Your Table',
];
const taglines = [
  'Free delivery on orders over $50',
  'Open every day from 9am',
  'Since 1987',
  'Quality you can trust',
  'Now taking bookings',
  'Up to 40% off selected lines',
];
const badges = [
  'NEW',
  'SALE',
  '-20%',
  'FREE SHIPPING',
  'BEST SELLER',
  'v2.4.1',
  'LIMITED',
  'IN STOCK',
  '4.8/5',
];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const chartTitles = [
  'Visitors per month',
  'Sales by region',
  'Energy use (kWh)',
  'Members 2020-2025',
  'Survey results',
  'Orders per week',
];
const regions = ['North', 'South', 'East', 'West', 'Online', 'Retail'];
const pieLabels = ['Apples', 'Pears', 'Plums', 'Grapes', 'Other'];

const darks = ['#1b1b1b', '#1a3c6e', '#5a1020', '#0b4f3c', '#33245e', '#3d3d3d', '#00508f', '#7a2e00'];
const lights = ['#ffffff', '#f4f1e8', '#e8f1fb', '#fff6d6', '#eef7ee', '#f2f2f2'];
const accents = ['#d62828', '#0077b6', '#2a9d8f', '#e76f51', '#6a4c93', '#1d3557', '#b5179e'];

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function textElement(item: TextItem): string {
  const weight = item.weight ?? item.font.weight ?? 'normal';
  const style = item.italic || item.font.style === 'italic' ? 'italic' : 'normal';
  return `<text x="${item.x.toFixed(1)}" y="${item.y.toFixed(1)}" font-family="${item.font.family}" font-weight="${weight}" font-style="${style}" font-size="${item.size.toFixed(1)}" fill="${item.fill}" text-anchor="${item.anchor ?? 'start'}">${escapeXml(item.text)}</text>`;
}

/** The horizontal extent an item occupies, from its anchor and an average advance. */
function itemBox(item: TextItem): [number, number, number, number] {
  const width = item.text.length * item.size * item.font.advance;
  const left =
    item.anchor === 'middle' ? item.x - width / 2 : item.anchor === 'end' ? item.x - width : item.x;
  return [left, item.y - item.size * 0.75, width, item.size * 0.95];
}

/**
 * The reference reading order, by the rule the OCR promises: items that share most of their
 * height form a line, lines top to bottom, items in a line left to right.
 */
export function readingOrder(items: TextItem[]): string[] {
  const boxed = items.map((item) => ({ text: item.text, box: itemBox(item) }));
  boxed.sort((a, b) => a.box[1] + a.box[3] / 2 - (b.box[1] + b.box[3] / 2));
  const lines: Array<{ items: typeof boxed; top: number; bottom: number }> = [];
  for (const item of boxed) {
    const top = item.box[1];
    const bottom = top + item.box[3];
    const line = lines.find(
      (l) =>
        Math.min(l.bottom, bottom) - Math.max(l.top, top) >= 0.5 * Math.min(l.bottom - l.top, bottom - top),
    );
    if (line) {
      line.items.push(item);
      line.top = Math.min(line.top, top);
      line.bottom = Math.max(line.bottom, bottom);
    } else lines.push({ items: [item], top, bottom });
  }
  return lines
    .sort((a, b) => a.top - b.top)
    .map((l) =>
      l.items
        .sort((a, b) => a.box[0] - b.box[0])
        .map((i) => i.text)
        .join(' '),
    );
}

interface Drawing {
  kind: GraphicKind;
  width: number;
  height: number;
  /** SVG elements under the text (backgrounds, bars, slices). */
  shapes: string;
  items: TextItem[];
}

function background(random: Random, width: number, height: number, colour: string): string {
  const style = random();
  if (style < 0.6) return `<rect width="${width}" height="${height}" fill="${colour}"/>`;
  if (style < 0.85) {
    // A gentle vertical gradient, as buttons and banners often have.
    return `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${colour}" stop-opacity="0.8"/><stop offset="1" stop-color="${colour}"/></linearGradient></defs><rect width="${width}" height="${height}" fill="#000"/><rect width="${width}" height="${height}" fill="url(#g)"/>`;
  }
  // Rounded button on a page-coloured surround.
  const r = Math.min(height / 2, 8);
  return `<rect width="${width}" height="${height}" fill="#ffffff"/><rect x="1" y="1" width="${width - 2}" height="${height - 2}" rx="${r}" fill="${colour}"/>`;
}

function drawButton(random: Random): Drawing {
  const text = pick(random, navWords);
  const height = int(random, 22, 36);
  const font = pick(random, [fonts.sansBold, fonts.condensedBold, fonts.sans, fonts.condensed]);
  const size = height * between(random, 0.42, 0.55);
  const width = Math.max(int(random, 80, 150), Math.ceil(text.length * size * font.advance + 16));
  const dark = random() < 0.75;
  const fill = dark ? '#ffffff' : pick(random, darks);
  const shapes = background(random, width, height, dark ? pick(random, darks) : pick(random, lights));
  return {
    kind: 'button',
    width,
    height,
    shapes,
    items: [{ text, x: width / 2, y: height / 2 + size * 0.36, size, font, fill, anchor: 'middle' }],
  };
}

function drawBanner(random: Random): Drawing {
  const [width, height] = pick(random, [
    [468, 60],
    [728, 90],
    [300, 100],
    [600, 120],
  ] as const);
  const title = pick(random, headings);
  const tagline = pick(random, taglines);
  const dark = random() < 0.5;
  const fill = dark ? '#ffffff' : pick(random, darks);
  const titleSize = height * between(random, 0.3, 0.36);
  const taglineSize = Math.max(11, height * between(random, 0.16, 0.2));
  const font = pick(random, [fonts.sansBold, fonts.serifBold, fonts.condensedBold]);
  const fitTitle = Math.min(titleSize, (width - 20) / (title.length * font.advance));
  const fitTagline = Math.min(taglineSize, (width - 20) / (tagline.length * fonts.sans.advance));
  return {
    kind: 'banner',
    width,
    height,
    shapes: background(
      random,
      width,
      height,
      dark ? pick(random, [...darks, ...accents]) : pick(random, lights),
    ),
    items: [
      { text: title, x: width / 2, y: height * 0.46, size: fitTitle, font, fill, anchor: 'middle' },
      {
        text: tagline,
        x: width / 2,
        y: height * 0.46 + fitTitle * 0.4 + fitTagline * 1.15,
        size: fitTagline,
        font: fonts.sans,
        fill,
        anchor: 'middle',
      },
    ],
  };
}

function drawHeading(random: Random): Drawing {
  const font = pick(random, [
    fonts.serifBold,
    fonts.serifItalic,
    fonts.light,
    fonts.condensedBold,
    fonts.mono,
  ]);
  const size = between(random, 18, 44);
  const twoLines = random() < 0.4;
  const first = pick(random, headings);
  const second = twoLines ? pick(random, taglines) : undefined;
  const secondSize = size * 0.6;
  const width = Math.ceil(
    Math.max(first.length * size * font.advance, (second?.length ?? 0) * secondSize * font.advance) + 24,
  );
  const height = Math.ceil(size * 1.5 + (second ? secondSize * 1.4 : 0));
  const dark = random() < 0.4;
  const fill = dark ? pick(random, ['#ffffff', '#ffd166', '#e0f2ff']) : pick(random, [...darks, ...accents]);
  const items: TextItem[] = [{ text: first, x: 12, y: size * 1.1, size, font, fill }];
  if (second)
    items.push({ text: second, x: 12, y: size * 1.1 + secondSize * 1.45, size: secondSize, font, fill });
  return {
    kind: 'heading',
    width,
    height,
    shapes: `<rect width="${width}" height="${height}" fill="${dark ? pick(random, darks) : pick(random, lights)}"/>`,
    items,
  };
}

function drawBadge(random: Random): Drawing {
  const text = pick(random, badges);
  const size = between(random, 10, 16);
  const font = pick(random, [fonts.sansBold, fonts.condensedBold]);
  const width = Math.ceil(text.length * size * font.advance + size * 1.6);
  const height = Math.ceil(size * 1.9);
  const colour = pick(random, accents);
  const shapes = `<rect width="${width}" height="${height}" fill="#ffffff"/><rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="${height / 2}" fill="${colour}"/>`;
  return {
    kind: 'badge',
    width,
    height,
    shapes,
    items: [
      { text, x: width / 2, y: height / 2 + size * 0.36, size, font, fill: '#ffffff', anchor: 'middle' },
    ],
  };
}

function phoneNumber(random: Random): string {
  const d = (n: number) => Array.from({ length: n }, () => int(random, 0, 9)).join('');
  return pick(random, [
    () => `+44 20 ${d(4)} ${d(4)}`,
    () => `0800 ${d(3)} ${d(4)}`,
    () => `(555) ${d(3)}-${d(4)}`,
    () => `+1 415 ${d(3)} ${d(4)}`,
    () => `01632 ${d(6)}`,
  ])();
}

function drawPhone(random: Random): Drawing {
  const label = pick(random, ['Call us:', 'Tel:', 'Phone', 'Call', 'Hotline:']);
  const text = `${label} ${phoneNumber(random)}`;
  const size = between(random, 12, 26);
  const font = pick(random, [fonts.sans, fonts.sansBold, fonts.serif, fonts.condensed]);
  const width = Math.ceil(text.length * size * font.advance + 20);
  const height = Math.ceil(size * 1.8);
  const dark = random() < 0.5;
  return {
    kind: 'phone',
    width,
    height,
    shapes: background(random, width, height, dark ? pick(random, darks) : pick(random, lights)),
    items: [
      { text, x: 10, y: height / 2 + size * 0.36, size, font, fill: dark ? '#ffffff' : pick(random, darks) },
    ],
  };
}

function drawPrice(random: Random): Drawing {
  const amount = int(random, 1, 1999);
  const cents = int(random, 0, 99).toString().padStart(2, '0');
  const text = pick(random, [
    `$${amount}.${cents}`,
    `£${amount}`,
    `€${amount},${cents}`,
    `From $${int(random, 5, 99)}/mo`,
    `Only £${amount}.99`,
  ]);
  const size = between(random, 14, 40);
  const font = pick(random, [fonts.sansBold, fonts.serifBold, fonts.condensedBold, fonts.sans]);
  const width = Math.ceil(text.length * size * font.advance + 24);
  const height = Math.ceil(size * 1.6);
  const dark = random() < 0.4;
  return {
    kind: 'price',
    width,
    height,
    shapes: background(random, width, height, dark ? pick(random, accents) : pick(random, lights)),
    items: [
      {
        text,
        x: 12,
        y: height / 2 + size * 0.36,
        size,
        font,
        fill: dark ? '#ffffff' : pick(random, accents),
      },
    ],
  };
}

function drawChart(random: Random): Drawing {
  const type = pick(random, ['bar', 'line', 'pie'] as const);
  const width = int(random, 320, 520);
  const height = Math.round(width * between(random, 0.6, 0.75));
  const title = pick(random, chartTitles);
  const titleSize = between(random, 14, 18);
  const labelSize = between(random, 10, 13);
  const ink = pick(random, ['#222222', '#333333', '#1d3557']);
  const font = pick(random, [fonts.sans, fonts.condensed, fonts.serif]);
  const items: TextItem[] = [
    {
      text: title,
      x: width / 2,
      y: titleSize * 1.5,
      size: titleSize,
      font: fonts.sansBold,
      fill: ink,
      anchor: 'middle',
    },
  ];
  const colour = pick(random, accents);
  let shapes = `<rect width="${width}" height="${height}" fill="${pick(random, lights)}"/>`;
  const top = titleSize * 2.6;
  const bottom = height - labelSize * 2.2;
  const left = 24;
  const right = width - 16;
  if (type === 'pie') {
    const n = int(random, 3, 4);
    const labels = pieLabels.slice(0, n);
    const shares = labels.map(() => between(random, 1, 4));
    const total = shares.reduce((a, b) => a + b, 0);
    const percents = shares.map((s) => Math.round((100 * s) / total));
    const cx = width * 0.32;
    const cy = (top + height) / 2;
    const r = Math.min(width * 0.25, (height - top) / 2 - 8);
    let angle = -Math.PI / 2;
    labels.forEach((label, i) => {
      const sweep = ((percents[i] ?? 0) / 100) * Math.PI * 2;
      const x1 = cx + r * Math.cos(angle);
      const y1 = cy + r * Math.sin(angle);
      const x2 = cx + r * Math.cos(angle + sweep);
      const y2 = cy + r * Math.sin(angle + sweep);
      shapes += `<path d="M${cx},${cy} L${x1},${y1} A${r},${r} 0 ${sweep > Math.PI ? 1 : 0} 1 ${x2},${y2} Z" fill="${accents[(i + 2) % accents.length]}"/>`;
      angle += sweep;
      // Legend to the right, one row per slice.
      const ly = top + 10 + i * labelSize * 2.2;
      shapes += `<rect x="${width * 0.64}" y="${ly - labelSize * 0.8}" width="${labelSize}" height="${labelSize}" fill="${accents[(i + 2) % accents.length]}"/>`;
      items.push({
        text: `${label} ${percents[i]}%`,
        x: width * 0.64 + labelSize * 1.6,
        y: ly,
        size: labelSize,
        font,
        fill: ink,
      });
    });
    return { kind: 'chart', width, height, shapes, items };
  }
  const n = int(random, 4, 6);
  const useMonths = random() < 0.6;
  const start = int(random, 0, 12 - n);
  const labels = useMonths ? months.slice(start, start + n) : regions.slice(0, n);
  const max = pick(random, [50, 100, 200, 1000]);
  const values = labels.map(() => int(random, Math.round(max * 0.15), max));
  const slot = (right - left) / n;
  shapes += `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="${ink}" stroke-width="1"/>`;
  const points: string[] = [];
  labels.forEach((label, i) => {
    const cx = left + slot * (i + 0.5);
    const v = values[i] ?? 0;
    const y = bottom - ((bottom - top - labelSize * 1.5) * v) / max;
    items.push({
      text: label,
      x: cx,
      y: bottom + labelSize * 1.4,
      size: labelSize,
      font,
      fill: ink,
      anchor: 'middle',
    });
    if (type === 'bar') {
      shapes += `<rect x="${cx - slot * 0.3}" y="${y}" width="${slot * 0.6}" height="${bottom - y}" fill="${colour}"/>`;
    } else {
      points.push(`${cx},${y}`);
      shapes += `<circle cx="${cx}" cy="${y}" r="3" fill="${colour}"/>`;
    }
    items.push({ text: String(v), x: cx, y: y - 9, size: labelSize, font, fill: ink, anchor: 'middle' });
  });
  if (points.length > 0)
    shapes += `<polyline points="${points.join(' ')}" fill="none" stroke="${colour}" stroke-width="2"/>`;
  return { kind: 'chart', width, height, shapes, items };
}

const drawers: Record<GraphicKind, (random: Random) => Drawing> = {
  button: drawButton,
  banner: drawBanner,
  heading: drawHeading,
  badge: drawBadge,
  phone: drawPhone,
  price: drawPrice,
  chart: drawChart,
};

export const graphicKinds = Object.keys(drawers) as GraphicKind[];

export function svgOf(drawing: Drawing): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${drawing.width}" height="${drawing.height}" viewBox="0 0 ${drawing.width} ${drawing.height}">${drawing.shapes}${drawing.items.map(textElement).join('')}</svg>`;
}

/** Renders one graphic of a kind; `jpeg` forces (true) or forbids (false) JPEG compression. */
export async function renderGraphic(
  kind: GraphicKind,
  seed: number,
  options: { jpeg?: boolean } = {},
): Promise<SyntheticGraphic> {
  const random = seededRandom(seed);
  const drawing = drawers[kind](random);
  const jpeg = options.jpeg ?? random() < 0.3;
  const quality = int(random, 60, 88);
  const rendered = sharp(Buffer.from(svgOf(drawing)));
  const image = jpeg
    ? await rendered.flatten({ background: '#ffffff' }).jpeg({ quality }).toBuffer()
    : await rendered.png().toBuffer();
  return {
    id: `${kind}-${seed}`,
    kind,
    image,
    jpeg,
    width: drawing.width,
    height: drawing.height,
    lines: readingOrder(drawing.items),
  };
}

/** `count` graphics cycling through the kinds, from one seed. */
export async function syntheticSet(count: number, seed = 19): Promise<SyntheticGraphic[]> {
  const set: SyntheticGraphic[] = [];
  for (let i = 0; i < count; i++) {
    const kind = graphicKinds[i % graphicKinds.length] as GraphicKind;
    set.push(await renderGraphic(kind, seed * 100_003 + i));
  }
  return set;
}
