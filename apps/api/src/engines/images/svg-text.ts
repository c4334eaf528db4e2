/**
 * Text drawn onto images through SVG overlays (sharp renders them with librsvg). Every piece of
 * user text is escaped: a caption is words, never markup.
 */

/** Fonts present on most Linux servers (DejaVu, Liberation) before the generic fallback. */
export const FONT_STACK = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif";

/** Average advance of a character in FONT_STACK, as a share of the font size (bold is wider). */
const CHAR_WIDTH = 0.56;
const BOLD_CHAR_WIDTH = 0.62;

export function escapeXml(text: string): string {
  // XML 1.0 cannot hold control characters other than tab and newlines, even escaped.
  const printable = [...text]
    .filter((char) => {
      const code = char.codePointAt(0) ?? 0;
      return code === 9 || code === 10 || code === 13 || (code >= 32 && code !== 127);
    })
    .join('');
  return printable
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Splits text into lines of at most `maxChars` characters, breaking at spaces (long words are cut). */
export function wrapText(text: string, maxChars: number): string[] {
  const limit = Math.max(4, Math.floor(maxChars));
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const rawWord of paragraph.split(/\s+/).filter(Boolean)) {
      let word = rawWord;
      while (word.length > limit) {
        if (line) {
          lines.push(line);
          line = '';
        }
        lines.push(word.slice(0, limit));
        word = word.slice(limit);
      }
      if (!line) line = word;
      else if (line.length + 1 + word.length <= limit) line += ` ${word}`;
      else {
        lines.push(line);
        line = word;
      }
    }
    if (line) lines.push(line);
  }
  return lines;
}

/** How many characters of text at `fontSize` fit in `width` pixels. */
export function charsThatFit(width: number, fontSize: number, bold = false): number {
  return Math.floor(width / (fontSize * (bold ? BOLD_CHAR_WIDTH : CHAR_WIDTH)));
}

/**
 * Picks the largest font size (≤ maxSize, ≥ minSize) at which the text wraps into at most
 * `maxLines` lines of `width` pixels; at minSize the lines are cut to maxLines with an ellipsis.
 */
export function fitText(
  text: string,
  options: { width: number; maxSize: number; minSize: number; maxLines: number; bold?: boolean },
): { fontSize: number; lines: string[] } {
  for (let size = options.maxSize; size >= options.minSize; size -= Math.max(1, Math.round(size * 0.08))) {
    const lines = wrapText(text, charsThatFit(options.width, size, options.bold));
    if (lines.length <= options.maxLines) return { fontSize: size, lines };
  }
  const size = options.minSize;
  const chars = charsThatFit(options.width, size, options.bold);
  const lines = wrapText(text, chars);
  if (lines.length <= options.maxLines) return { fontSize: size, lines };
  const kept = lines.slice(0, options.maxLines);
  const last = kept[kept.length - 1] ?? '';
  kept[kept.length - 1] = `${last.slice(0, Math.max(0, chars - 1)).trimEnd()}…`;
  return { fontSize: size, lines: kept };
}

/** `<text>` with one `<tspan>` per line, centred on x, first baseline at y. */
export function textBlock(
  lines: string[],
  options: {
    x: number;
    y: number;
    fontSize: number;
    lineHeight: number;
    fill: string;
    weight?: number;
    anchor?: 'start' | 'middle';
    extra?: string;
  },
): string {
  const spans = lines
    .map(
      (line, i) =>
        `<tspan x="${options.x}" y="${Math.round(options.y + i * options.lineHeight)}">${escapeXml(line)}</tspan>`,
    )
    .join('');
  return `<text font-family="${FONT_STACK}" font-size="${options.fontSize}" font-weight="${options.weight ?? 700}" fill="${options.fill}" text-anchor="${options.anchor ?? 'middle'}" ${options.extra ?? ''}>${spans}</text>`;
}

/**
 * An overlay as wide as the image with the text on a semi-opaque band at the top or bottom: used
 * by the editor's captions and by the styled social captions.
 */
export function captionBandSvg(
  text: string,
  options: {
    width: number;
    height: number;
    position: 'top' | 'bottom';
    /** Band colour and opacity. */
    band?: { fill: string; opacity: number };
    textFill?: string;
    maxLines?: number;
  },
): Buffer {
  const { width, height } = options;
  const short = Math.min(width, height);
  const padding = Math.max(8, Math.round(short * 0.04));
  const maxSize = Math.max(12, Math.round(short * 0.075));
  const minSize = Math.max(10, Math.round(short * 0.035));
  const { fontSize, lines } = fitText(text, {
    width: width - padding * 2,
    maxSize,
    minSize,
    maxLines: options.maxLines ?? 4,
    bold: true,
  });
  const lineHeight = Math.round(fontSize * 1.25);
  const bandHeight = Math.min(height, lines.length * lineHeight + padding * 2);
  const bandY = options.position === 'top' ? 0 : height - bandHeight;
  // The first baseline sits one ascent (≈0.8 em) below the band's inner top edge.
  const firstBaseline =
    bandY + padding + Math.round(fontSize * 0.85) + Math.round((lineHeight - fontSize) / 2);
  const band = options.band ?? { fill: '#000000', opacity: 0.55 };
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect x="0" y="${bandY}" width="${width}" height="${bandHeight}" fill="${band.fill}" fill-opacity="${band.opacity}"/>` +
    textBlock(lines, {
      x: Math.round(width / 2),
      y: firstBaseline,
      fontSize,
      lineHeight,
      fill: options.textFill ?? '#ffffff',
    }) +
    '</svg>';
  return Buffer.from(svg);
}
