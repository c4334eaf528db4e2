import { fitLongDescription } from '../long-description.ts';

/**
 * Charts from their text (point 5; ADR 050): given the lines an OCR read, with their
 * boxes, decide whether the image looks like a chart (several numbers aligned on an axis, or
 * percentages that add up to a whole, beside short labels) and, if so, write a short alt ("Bar
 * chart: visitors per month, January to June") and a long description (the title, then each label
 * with its value in reading order, at most 1,000 characters). Pure: no pixels are read here; what
 * the pixels say about the shape (bars, a line, wedges) comes in as an optional hint.
 */

export interface ChartTextLine {
  text: string;
  /** In pixels of the image the OCR read. */
  box: { x: number; y: number; width: number; height: number };
}

export interface ChartInput {
  lines: readonly ChartTextLine[];
  width: number;
  height: number;
  /** What the pixels show, when something has looked: bars, a line or wedges. */
  hints?: { shape?: 'bars' | 'line' | 'wedges' };
}

export type ChartKind = 'bar' | 'line' | 'pie' | 'chart';

export interface ChartDescription {
  kind: ChartKind;
  /** The chart's own title as read (sentence case when it was all caps); null when it has none. */
  title: string | null;
  alt: string;
  longDescription: string;
}

/** More lines than a chart has are not looked at (a page of text is no chart). */
const MAX_LINES = 400;
/** A label longer than this is a sentence, not a label. */
const MAX_LABEL_CHARS = 32;
const MAX_LABEL_WORDS = 4;
/** Fewest labelled values that make a chart. */
const MIN_ENTRIES = 3;
const MIN_PIE_PARTS = 2;

type Line = {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  cx: number;
  cy: number;
  numeric: boolean;
  /** A year such as 2024: numeric, but on a time axis it is a category. */
  year: boolean;
};

type Entry = { label: string; value: string | null; x: number; y: number };

// A number as charts write it: signs, currency, thousands separators, decimals, a unit suffix.
const numberPattern = /^[-−+]?[$€£¥]?\s?\d[\d,.\s]*(?:%|\s?[kKmMbB](?:n)?|\s?[€$£])?$/;
const percentPattern = /^[-−+]?\d[\d.,]*\s?%$/;
const yearPattern = /^(?:19|20)\d{2}$/;
// "Chrome 64%", "Chrome: 64 %", "64% Chrome": a label and its value on one line (pie legends).
const labelThenPercent = /^(.*?[\p{L}][^:]*?)[:\s–-]+([-−+]?\d[\d.,]*\s?%)$/u;
const percentThenLabel = /^([-−+]?\d[\d.,]*\s?%)[:\s–-]+(.*[\p{L}].*)$/u;

const months: Record<string, string> = {
  jan: 'January',
  feb: 'February',
  mar: 'March',
  apr: 'April',
  may: 'May',
  jun: 'June',
  jul: 'July',
  aug: 'August',
  sep: 'September',
  sept: 'September',
  oct: 'October',
  nov: 'November',
  dec: 'December',
};

function toLine(raw: ChartTextLine): Line | undefined {
  const text = raw.text.replace(/\s+/g, ' ').trim();
  const { x, y, width, height } = raw.box;
  if (!text || ![x, y, width, height].every(Number.isFinite) || width <= 0 || height <= 0) return undefined;
  const numeric = numberPattern.test(text) && text.length <= 16;
  return {
    text,
    x,
    y,
    width,
    height,
    cx: x + width / 2,
    cy: y + height / 2,
    numeric,
    year: yearPattern.test(text),
  };
}

const isLabel = (line: Line) =>
  !line.numeric &&
  /\p{L}/u.test(line.text) &&
  line.text.length <= MAX_LABEL_CHARS &&
  line.text.split(' ').length <= MAX_LABEL_WORDS;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Lines whose `key` lies within `tolerance` of their group's first member, largest groups first. */
function groupBy(lines: Line[], key: (line: Line) => number, tolerance: number): Line[][] {
  const sorted = [...lines].sort((a, b) => key(a) - key(b));
  const groups: Line[][] = [];
  let current: Line[] = [];
  for (const line of sorted) {
    const first = current[0];
    if (first && key(line) - key(first) > tolerance) {
      groups.push(current);
      current = [];
    }
    current.push(line);
  }
  if (current.length) groups.push(current);
  return groups.sort((a, b) => b.length - a.length);
}

/** The title: the largest text in the top quarter, that is no number (topmost of equals). */
function findTitle(lines: Line[], imageHeight: number): Line | undefined {
  const candidates = lines.filter(
    (line) => !line.numeric && /\p{L}{2}/u.test(line.text) && line.y < imageHeight * 0.25,
  );
  return candidates.sort((a, b) => b.height - a.height || a.y - b.y)[0];
}

/**
 * Categories along a horizontal axis (vertical bars, points of a line): a row of at least three
 * labels, each paired with the number nearest above it within half the spacing of the labels.
 */
function readColumns(labels: Line[], numbers: Line[], lineHeight: number): Entry[] {
  let best: Entry[] = [];
  for (const row of groupBy(labels, (line) => line.cy, lineHeight * 0.6)) {
    if (row.length < MIN_ENTRIES) break;
    const categories = [...row].sort((a, b) => a.cx - b.cx);
    const gaps = categories.slice(1).map((line, index) => line.cx - (categories[index]?.cx ?? 0));
    const reach = Math.max(median(gaps) / 2, lineHeight);
    const used = new Set<Line>();
    const entries = categories.map((category) => {
      const value = numbers
        .filter(
          (number) =>
            !used.has(number) && number.cy < category.cy && Math.abs(number.cx - category.cx) <= reach,
        )
        .sort((a, b) => Math.abs(a.cx - category.cx) - Math.abs(b.cx - category.cx) || b.cy - a.cy)[0];
      if (value) used.add(value);
      return { label: category.text, value: value?.text ?? null, x: category.cx, y: category.cy };
    });
    if (better(entries, best)) best = entries;
  }
  return best;
}

/**
 * Categories along a vertical axis (horizontal bars): a column of at least three labels (aligned on
 * their right or left edge), each paired with the nearest number to its right on the same line.
 */
function readRows(labels: Line[], numbers: Line[], lineHeight: number): Entry[] {
  let best: Entry[] = [];
  const columns = [
    ...groupBy(labels, (line) => line.x + line.width, lineHeight),
    ...groupBy(labels, (line) => line.x, lineHeight),
  ];
  for (const column of columns) {
    if (column.length < MIN_ENTRIES) continue;
    const categories = [...column].sort((a, b) => a.cy - b.cy);
    const used = new Set<Line>();
    const entries = categories.map((category) => {
      const value = numbers
        .filter(
          (number) =>
            !used.has(number) &&
            number.cx > category.cx &&
            Math.abs(number.cy - category.cy) <= Math.max(category.height, number.height) * 0.6,
        )
        .sort((a, b) => a.cx - b.cx)[0];
      if (value) used.add(value);
      return { label: category.text, value: value?.text ?? null, x: category.cx, y: category.cy };
    });
    if (better(entries, best)) best = entries;
  }
  return best;
}

const valued = (entries: Entry[]) => entries.filter((entry) => entry.value !== null).length;
/** More labelled values wins; with as many, more labels. */
const better = (a: Entry[], b: Entry[]) =>
  valued(a) > valued(b) || (valued(a) === valued(b) && a.length > b.length);

/** A run of at least three numbers one above the other: the value axis's ticks, lowest and highest. */
function readValueAxis(numbers: Line[], lineHeight: number): { from: string; to: string } | undefined {
  const [column] = groupBy(numbers, (line) => line.x + line.width, lineHeight);
  if (!column || column.length < MIN_ENTRIES) return undefined;
  const sorted = [...column].sort((a, b) => b.cy - a.cy);
  const from = sorted[0];
  const to = sorted.at(-1);
  return from && to ? { from: from.text, to: to.text } : undefined;
}

const percentOf = (text: string) => Number.parseFloat(text.replace(/[−]/g, '-').replace(',', '.'));

/**
 * A pie's parts: "label value%" on one line (a legend), or a percentage with the nearest label
 * beside it. A pie's parts add up to about 100 %.
 */
function readPie(lines: Line[], title: Line | undefined, lineHeight: number): Entry[] {
  const entries: Entry[] = [];
  const usedLabels = new Set<Line>();
  const loose: Line[] = [];
  for (const line of lines) {
    if (line === title) continue;
    const before = labelThenPercent.exec(line.text);
    const after = before ? null : percentThenLabel.exec(line.text);
    if (before?.[1] && before[2]) {
      entries.push({ label: before[1].trim(), value: before[2].replace(/\s/g, ''), x: line.cx, y: line.cy });
    } else if (after?.[1] && after[2]) {
      entries.push({ label: after[2].trim(), value: after[1].replace(/\s/g, ''), x: line.cx, y: line.cy });
    } else if (percentPattern.test(line.text)) {
      loose.push(line);
    }
  }
  const labels = lines.filter((line) => line !== title && isLabel(line) && !percentPattern.test(line.text));
  for (const percent of loose) {
    const label = labels
      .filter((line) => !usedLabels.has(line))
      .map((line) => ({ line, distance: Math.hypot(line.cx - percent.cx, line.cy - percent.cy) }))
      .filter(({ distance }) => distance <= lineHeight * 6)
      .sort((a, b) => a.distance - b.distance)[0]?.line;
    if (!label) continue;
    usedLabels.add(label);
    entries.push({ label: label.text, value: percent.text.replace(/\s/g, ''), x: label.cx, y: label.cy });
  }
  return entries;
}

/** Top to bottom, then left to right, for entries on the same line. */
function inReadingOrder<T extends { x: number; y: number }>(items: T[], lineHeight: number): T[] {
  return [...items].sort((a, b) => (Math.abs(a.y - b.y) > lineHeight / 2 ? a.y - b.y : a.x - b.x));
}

/** ALL CAPS text in sentence case ("VISITORS PER MONTH" → "Visitors per month"). */
function sentenceCase(text: string): string {
  if (/\p{Ll}/u.test(text)) return text;
  const lower = text.toLowerCase();
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/** A title inside a sentence: its first letter in lower case unless the first word is an acronym. */
function inSentence(title: string): string {
  const [first = ''] = title.split(' ');
  if (first.length > 1 && first === first.toUpperCase()) return title;
  return title.charAt(0).toLowerCase() + title.slice(1);
}

const spokenLabel = (label: string) => months[label.toLowerCase().replace(/\.$/, '')] ?? label;

const kindNames: Record<ChartKind, string> = {
  bar: 'Bar chart',
  line: 'Line chart',
  pie: 'Pie chart',
  chart: 'Chart',
};

function kindFromHint(hints: ChartInput['hints']): ChartKind | undefined {
  if (hints?.shape === 'bars') return 'bar';
  if (hints?.shape === 'line') return 'line';
  if (hints?.shape === 'wedges') return 'pie';
  return undefined;
}

function write(kind: ChartKind, title: string | null, entries: Entry[], notes: string[], axis?: string) {
  const first = entries[0];
  const last = entries.at(-1);
  let subject: string;
  if (kind === 'pie') {
    subject = title ? inSentence(title) : entries.map((entry) => entry.label).join(', ');
  } else {
    const span = first && last ? `${spokenLabel(first.label)} to ${spokenLabel(last.label)}` : '';
    subject = [title ? inSentence(title) : '', span].filter(Boolean).join(', ');
  }
  const parts = entries.map((entry) => (entry.value ? `${entry.label}: ${entry.value}` : entry.label));
  const body = [
    title ? `${title}.` : '',
    `${parts.join('; ')}.`,
    axis ?? '',
    ...notes.map((note) => (/[.!?]$/.test(note) ? note : `${note}.`)),
  ]
    .filter(Boolean)
    .join(' ');
  return {
    kind,
    title,
    alt: `${kindNames[kind]}: ${subject}`,
    longDescription: fitLongDescription(body) ?? '',
  };
}

/** A chart's alt and long description from its OCR lines, or null when the text is not a chart's. */
export function describeChart(input: ChartInput): ChartDescription | null {
  if (!(input.width > 0 && input.height > 0)) return null;
  const lines = input.lines.slice(0, MAX_LINES).flatMap((raw) => toLine(raw) ?? []);
  if (lines.length < MIN_PIE_PARTS) return null;
  const lineHeight = median(lines.map((line) => line.height));
  const titleLine = findTitle(lines, input.height);
  const title = titleLine ? sentenceCase(titleLine.text) : null;
  const hinted = kindFromHint(input.hints);
  const rest = lines.filter((line) => line !== titleLine);
  // Years name the points of a time axis: categories, not values.
  const labels = rest.filter((line) => isLabel(line) || line.year);
  const numbers = rest.filter((line) => line.numeric && !line.year);
  const noteOf = (used: Set<string>) =>
    inReadingOrder(
      rest.filter((line) => !line.numeric && !used.has(line.text) && /\p{L}{2}/u.test(line.text)),
      lineHeight,
    )
      .map((line) => line.text)
      .slice(0, 3);

  if (hinted !== 'pie') {
    const columns = readColumns(labels, numbers, lineHeight);
    const rows = readRows(labels, numbers, lineHeight);
    const entries = better(rows, columns) ? rows : columns;
    const axis = readValueAxis(numbers, lineHeight);
    // Several values that each sit at a label, or a row of labels along an axis of numbers.
    if (valued(entries) >= MIN_ENTRIES || (entries.length >= MIN_ENTRIES && axis)) {
      const axisNote =
        valued(entries) < MIN_ENTRIES && axis ? `Values from ${axis.from} to ${axis.to}.` : undefined;
      const used = new Set(entries.flatMap((entry) => [entry.label, entry.value ?? '']));
      return write(hinted ?? 'chart', title, entries, noteOf(used), axisNote);
    }
  }

  const parts = readPie(lines, titleLine, lineHeight);
  const total = parts.reduce((sum, part) => sum + percentOf(part.value ?? ''), 0);
  const whole = total >= 95 && total <= 105;
  if (parts.length >= MIN_PIE_PARTS && (whole || (hinted === 'pie' && parts.length >= MIN_ENTRIES))) {
    const ordered = inReadingOrder(parts, lineHeight);
    const used = new Set(lines.filter((line) => /%/.test(line.text)).map((line) => line.text));
    for (const part of ordered) used.add(part.label);
    return write(hinted ?? 'pie', title, ordered, noteOf(used));
  }
  return null;
}

/** Fewest bars that make a bar chart's shape. */
const MIN_BARS = 3;

/**
 * Whether the pixels show bars (point 5): three or more solid blocks of one colour, not the
 * background's, standing on one baseline (vertical bars) or starting from one edge (horizontal bars),
 * each at least a tenth of the image long and of even thickness. Linear in the pixels: one pass per
 * column and per row. `rgb` is 3 bytes a pixel, row after row. Consulted only for a picture whose
 * text already reads as a chart, where letters are small beside bars: the stems of a large bold
 * heading would count as bars.
 */
export function barsIn(rgb: Uint8Array, width: number, height: number): boolean {
  if (width < 16 || height < 16 || rgb.length < width * height * 3) return false;
  const background = commonColour(rgb, width * height);
  const at = (x: number, y: number) => (y * width + x) * 3;
  const same = (a: number, b: number) =>
    Math.abs((rgb[a] ?? 0) - (rgb[b] ?? 0)) +
      Math.abs((rgb[a + 1] ?? 0) - (rgb[b + 1] ?? 0)) +
      Math.abs((rgb[a + 2] ?? 0) - (rgb[b + 2] ?? 0)) <=
    24;
  const isBackground = (p: number) =>
    Math.abs((rgb[p] ?? 0) - background[0]) +
      Math.abs((rgb[p + 1] ?? 0) - background[1]) +
      Math.abs((rgb[p + 2] ?? 0) - background[2]) <=
    24;
  // The longest run of one non-background colour along each column (or row): where it ends and how long.
  const runs = (count: number, length: number, pixel: (i: number, j: number) => number) => {
    const found: { end: number; length: number; colour: number }[] = [];
    for (let i = 0; i < count; i++) {
      let best = { end: 0, length: 0, colour: -1 };
      let start = 0;
      for (let j = 1; j <= length; j++) {
        const continues = j < length && same(pixel(i, j), pixel(i, j - 1)) && !isBackground(pixel(i, j));
        if (!continues) {
          if (j - start > best.length && !isBackground(pixel(i, start))) {
            best = { end: j - 1, length: j - start, colour: pixel(i, start) };
          }
          start = j;
        }
      }
      found.push(best);
    }
    return found;
  };
  return (
    countBars(
      runs(width, height, (x, y) => at(x, y)),
      height,
      same,
    ) >= MIN_BARS ||
    countBars(
      runs(height, width, (y, x) => at(width - 1 - x, y)),
      width,
      same,
    ) >= MIN_BARS
  );
}

/**
 * Bars among the runs: groups of neighbouring lines whose long runs share an end (the baseline) and
 * a length (a flat top), each group a bar; bars share one baseline.
 */
function countBars(
  runs: { end: number; length: number; colour: number }[],
  length: number,
  same: (a: number, b: number) => boolean,
): number {
  const minimum = Math.max(4, length * 0.1);
  // Thicker than a letter's stem: at least 3 px and 2 % of the image across.
  const thickness = Math.max(3, Math.round(runs.length * 0.02));
  const bars: { end: number }[] = [];
  let group: { end: number; length: number; colour: number }[] = [];
  const close = () => {
    const first = group[0];
    // A bar is thicker than a stroke of text and its top is flat.
    if (
      first &&
      group.length >= thickness &&
      group.every((run) => Math.abs(run.length - first.length) <= 2)
    ) {
      bars.push({ end: first.end });
    }
    group = [];
  };
  for (const run of runs) {
    const previous = group.at(-1);
    const long = run.length >= minimum;
    if (long && previous && Math.abs(run.end - previous.end) <= 1 && same(run.colour, previous.colour)) {
      group.push(run);
    } else {
      close();
      if (long) group.push(run);
    }
  }
  close();
  // The bars that stand on the most common baseline.
  const byBaseline = new Map<number, number>();
  for (const bar of bars) {
    const key = Math.round(bar.end / 2);
    byBaseline.set(key, (byBaseline.get(key) ?? 0) + 1);
  }
  let most = 0;
  for (const [key, n] of byBaseline) most = Math.max(most, n + (byBaseline.get(key + 1) ?? 0));
  return most;
}

/** The most common colour (quantised to 16 levels a channel): a chart's background. */
function commonColour(rgb: Uint8Array, pixels: number): [number, number, number] {
  const counts = new Map<number, number>();
  const step = Math.max(1, Math.floor(pixels / 20_000));
  let best = 0;
  let bestCount = 0;
  for (let i = 0; i < pixels; i += step) {
    const key =
      ((rgb[i * 3] ?? 0) >> 4) * 256 + ((rgb[i * 3 + 1] ?? 0) >> 4) * 16 + ((rgb[i * 3 + 2] ?? 0) >> 4);
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    if (n > bestCount) {
      best = key;
      bestCount = n;
    }
  }
  return [((best >> 8) << 4) + 8, (((best >> 4) & 15) << 4) + 8, ((best & 15) << 4) + 8];
}
