import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { barsIn, type ChartTextLine, describeChart } from './chart.ts';

/** A line of OCR'd text at (x, y), `height` px tall, about 8 px per character wide. */
const at = (text: string, x: number, y: number, height = 14): ChartTextLine => ({
  text,
  box: { x, y, width: Math.max(8, text.length * 8), height },
});

/** Text centred on cx. */
const centred = (text: string, cx: number, y: number, height = 14): ChartTextLine => {
  const line = at(text, 0, y, height);
  return { ...line, box: { ...line.box, x: cx - line.box.width / 2 } };
};

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'];
const visitors = ['1,200', '1,450', '1,800', '2,100', '2,400', '2,650'];

/** 600×400 bar chart: title, y-axis ticks on the left, a value above each bar, months below. */
const barChart: ChartTextLine[] = [
  centred('Visitors per month', 300, 12, 24),
  ...['3,000', '2,000', '1,000', '0'].map((tick, n) => ({
    ...at(tick, 0, 60 + n * 90),
    box: { x: 48 - tick.length * 8, y: 60 + n * 90, width: tick.length * 8, height: 14 },
  })),
  ...visitors.map((value, n) => centred(value, 100 + n * 85, 330 - (n + 2) * 35)),
  ...months.map((month, n) => centred(month, 100 + n * 85, 345)),
  centred('Source: site analytics', 300, 380, 12),
];

describe('describeChart', () => {
  it('reads a bar chart: title, months along the axis and the value above each bar', () => {
    const chart = describeChart({ lines: barChart, width: 600, height: 400, hints: { shape: 'bars' } });
    expect(chart).toEqual({
      kind: 'bar',
      title: 'Visitors per month',
      alt: 'Bar chart: visitors per month, January to June',
      longDescription:
        'Visitors per month. Jan: 1,200; Feb: 1,450; Mar: 1,800; Apr: 2,100; May: 2,400; Jun: 2,650. Source: site analytics.',
    });
  });

  it('says "Chart" without a pixel hint, and reads the lines in any order the OCR gives them', () => {
    const shuffled = [...barChart].reverse();
    const chart = describeChart({ lines: shuffled, width: 600, height: 400 });
    expect(chart?.kind).toBe('chart');
    expect(chart?.alt).toBe('Chart: visitors per month, January to June');
    expect(chart?.longDescription).toContain('Jan: 1,200; Feb: 1,450');
  });

  it('reads a line chart of years with only an axis of numbers, naming the axis range', () => {
    const lines = [
      centred('REVENUE BY YEAR', 300, 10, 22),
      ...['€40k', '€20k', '€0'].map((tick, n) => ({
        text: tick,
        box: { x: 50 - tick.length * 8, y: 60 + n * 120, width: tick.length * 8, height: 14 },
      })),
      ...['2021', '2022', '2023', '2024'].map((year, n) => centred(year, 120 + n * 130, 360)),
    ];
    expect(describeChart({ lines, width: 640, height: 400, hints: { shape: 'line' } })).toEqual({
      kind: 'line',
      title: 'Revenue by year',
      alt: 'Line chart: revenue by year, 2021 to 2024',
      longDescription: 'Revenue by year. 2021; 2022; 2023; 2024. Values from €0 to €40k.',
    });
  });

  it('reads horizontal bars: labels down the left, each value at the end of its bar', () => {
    const countries = ['Germany', 'France', 'Italy', 'Spain'];
    const lines = [
      at('Exports in 2024', 20, 5, 22),
      ...countries.map((country, n) => ({
        text: country,
        box: { x: 120 - country.length * 8, y: 60 + n * 50, width: country.length * 8, height: 14 },
      })),
      ...['42%', '31%', '18%', '9%'].map((share, n) => at(share, 140 + (4 - n) * 80, 60 + n * 50)),
    ];
    const chart = describeChart({ lines, width: 600, height: 300, hints: { shape: 'bars' } });
    expect(chart?.alt).toBe('Bar chart: exports in 2024, Germany to Spain');
    expect(chart?.longDescription).toBe('Exports in 2024. Germany: 42%; France: 31%; Italy: 18%; Spain: 9%.');
  });

  it('reads a pie chart from its legend of labels with percentages', () => {
    const lines = [
      centred('Browser share', 200, 8, 22),
      at('Chrome 64%', 300, 80),
      at('Safari 19%', 300, 110),
      at('Firefox 9%', 300, 140),
      at('Other 8%', 300, 170),
    ];
    expect(describeChart({ lines, width: 420, height: 300 })).toEqual({
      kind: 'pie',
      title: 'Browser share',
      alt: 'Pie chart: browser share',
      longDescription: 'Browser share. Chrome: 64%; Safari: 19%; Firefox: 9%; Other: 8%.',
    });
  });

  it('reads a pie chart whose percentages sit on the wedges beside their labels', () => {
    const lines = [
      centred('Tea', 100, 100),
      centred('55%', 100, 118),
      centred('Coffee', 260, 150),
      centred('35 %', 260, 168),
      centred('Water', 180, 240),
      centred('10%', 180, 258),
    ];
    const chart = describeChart({ lines, width: 360, height: 320 });
    expect(chart).toMatchObject({ kind: 'pie', title: null, alt: 'Pie chart: Tea, Coffee, Water' });
    expect(chart?.longDescription).toBe('Tea: 55%; Coffee: 35%; Water: 10%.');
  });

  it.each([
    ['a navigation button', [at('HOME', 10, 5, 16)], 120, 30],
    ['a phone number', [at('Call 0800 123 456', 10, 10, 20)], 300, 40],
    [
      'a paragraph of running text',
      [
        at('We opened our new shop in March and sold more than', 10, 10),
        at('1,200 bags in the first week, thanks to all of you who', 10, 30),
        at('came by. See you again in 2025!', 10, 50),
      ],
      500,
      80,
    ],
    [
      'a price list with two prices',
      [at('Latte', 10, 10), at('3.50', 200, 10), at('Espresso', 10, 40), at('2.20', 200, 40)],
      260,
      70,
    ],
    ['percentages that are no whole', [at('Save 20%', 10, 10), at('Members 10%', 10, 40)], 200, 70],
  ])('is null for %s', (_name, lines, width, height) => {
    expect(describeChart({ lines, width, height })).toBeNull();
  });

  it.each([
    ['no lines at all', [], 600, 400],
    ['an image of zero size', barChart, 0, 0],
    [
      'boxes that are not numbers',
      barChart.map((line) => ({ ...line, box: { ...line.box, x: Number.NaN } })),
      600,
      400,
    ],
    ['empty and blank texts', barChart.map((line) => ({ ...line, text: '   ' })), 600, 400],
  ])('is null for hostile input: %s', (_name, lines, width, height) => {
    expect(describeChart({ lines, width, height })).toBeNull();
  });

  it('keeps the long description within 1,000 characters for a chart with 120 bars, ending in "…"', () => {
    const lines = [
      centred('Daily orders', 3000, 5, 24),
      ...Array.from({ length: 120 }, (_, n) => centred(`Day ${n + 1}`, 40 + n * 50, 500)),
      ...Array.from({ length: 120 }, (_, n) => centred(String(100 + n), 40 + n * 50, 400)),
    ];
    const chart = describeChart({ lines, width: 6100, height: 540, hints: { shape: 'bars' } });
    expect(chart?.alt).toBe('Bar chart: daily orders, Day 1 to Day 120');
    expect(chart?.longDescription.length).toBeLessThanOrEqual(1000);
    expect(chart?.longDescription).toMatch(/^Daily orders\. Day 1: 100; Day 2: 101; .*\d…$/);
  });

  it('looks at no more than 400 lines of a huge OCR result and still answers quickly', () => {
    const lines = Array.from({ length: 50_000 }, (_, n) =>
      at(`word${n}`, (n % 100) * 60, Math.floor(n / 100) * 20),
    );
    const started = performance.now();
    describeChart({ lines, width: 6000, height: 10_000 });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('barsIn: the pixels of a bar chart', () => {
  const font = 'DejaVu Sans, sans-serif';
  const pixels = async (svg: string) => {
    const { data, info } = await sharp(Buffer.from(svg))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return barsIn(new Uint8Array(data), info.width, info.height);
  };
  const verticalBars = (values: number[], fill = '#2e86c1', background = '#fff') =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="${background}"/>${values
      .map((v, i) => `<rect x="${40 + i * 60}" y="${260 - v}" width="36" height="${v}" fill="${fill}"/>`)
      .join('')}<line x1="30" y1="261" x2="390" y2="261" stroke="#333"/></svg>`;

  it('finds vertical bars on one baseline, in any colour on any background', async () => {
    expect(await pixels(verticalBars([120, 150, 180, 170, 210, 240]))).toBe(true);
    expect(await pixels(verticalBars([40, 200, 90], '#f5b041', '#1c2833'))).toBe(true);
  });

  it('finds horizontal bars starting from one axis', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="240"><rect width="400" height="240" fill="#fff"/>${[
      300, 180, 240, 90,
    ]
      .map((w, i) => `<rect x="60" y="${20 + i * 55}" width="${w}" height="30" fill="#27ae60"/>`)
      .join('')}</svg>`;
    expect(await pixels(svg)).toBe(true);
  });

  // Only consulted for a picture whose text already reads as a chart: its text is chart-sized.
  it('sees no bars in a chart’s bold title and labels, a line chart, two bars or an empty picture', async () => {
    const text = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#1f2a44"/><text x="200" y="40" font-family="${font}" font-size="24" font-weight="bold" fill="#fff" text-anchor="middle">HOME NEWS MENU</text><text x="200" y="280" font-family="${font}" font-size="16" font-weight="bold" fill="#fff" text-anchor="middle">Jan Feb Mar Apr</text></svg>`;
    const line = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#fff"/><polyline points="40,250 100,200 160,220 220,120 280,140 340,60" fill="none" stroke="#c0392b" stroke-width="4"/></svg>`;
    expect(await pixels(text)).toBe(false);
    expect(await pixels(line)).toBe(false);
    expect(await pixels(verticalBars([120, 200]))).toBe(false);
    expect(await pixels(verticalBars([]))).toBe(false);
    expect(barsIn(new Uint8Array(0), 0, 0)).toBe(false);
  });
});
