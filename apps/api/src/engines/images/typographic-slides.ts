import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { FONT_STACK, fitText, textBlock } from './svg-text.ts';

/**
 * Without an image model the offline engine cannot paint pictures. It renders honest text slides
 * instead: the prompt set in large type on a designed gradient, 1080×1920 (a reel's frame), one
 * palette per slide so a reel of several still changes from image to image.
 */

export const SLIDE_WIDTH = 1080;
export const SLIDE_HEIGHT = 1920;

type Palette = { from: string; to: string; accent: string; text: string };

const palettes: Palette[] = [
  { from: '#312e81', to: '#0f172a', accent: '#818cf8', text: '#ffffff' },
  { from: '#9d174d', to: '#4c0519', accent: '#f9a8d4', text: '#ffffff' },
  { from: '#065f46', to: '#022c22', accent: '#6ee7b7', text: '#ffffff' },
  { from: '#c2410c', to: '#431407', accent: '#fdba74', text: '#ffffff' },
  { from: '#1e3a8a', to: '#082f49', accent: '#7dd3fc', text: '#ffffff' },
  { from: '#6b21a8', to: '#1e1b4b', accent: '#d8b4fe', text: '#ffffff' },
  { from: '#fef3c7', to: '#fde68a', accent: '#b45309', text: '#1c1917' },
];

function slideSvg(prompt: string, index: number, count: number): string {
  const seed = createHash('sha256').update(prompt).digest()[0] ?? 0;
  const palette = palettes[(seed + index) % palettes.length] as Palette;
  const margin = 110;
  const { fontSize, lines } = fitText(prompt, {
    width: SLIDE_WIDTH - margin * 2,
    maxSize: 104,
    minSize: 44,
    maxLines: 14,
    bold: true,
  });
  const lineHeight = Math.round(fontSize * 1.22);
  const blockHeight = lines.length * lineHeight;
  const firstBaseline = Math.round((SLIDE_HEIGHT - blockHeight) / 2 + fontSize * 0.85);
  const angle = (seed * 7 + index * 53) % 360;
  const counter =
    count > 1
      ? `<text x="${SLIDE_WIDTH - margin}" y="${SLIDE_HEIGHT - 120}" font-family="${FONT_STACK}" font-size="40" font-weight="700" fill="${palette.text}" fill-opacity="0.7" text-anchor="end">${index + 1} / ${count}</text>`
      : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SLIDE_WIDTH}" height="${SLIDE_HEIGHT}" viewBox="0 0 ${SLIDE_WIDTH} ${SLIDE_HEIGHT}">` +
    '<defs>' +
    `<linearGradient id="bg" gradientTransform="rotate(${angle} 0.5 0.5)"><stop offset="0" stop-color="${palette.from}"/><stop offset="1" stop-color="${palette.to}"/></linearGradient>` +
    `<radialGradient id="glow"><stop offset="0" stop-color="${palette.accent}" stop-opacity="0.45"/><stop offset="1" stop-color="${palette.accent}" stop-opacity="0"/></radialGradient>` +
    '</defs>' +
    `<rect width="${SLIDE_WIDTH}" height="${SLIDE_HEIGHT}" fill="url(#bg)"/>` +
    `<circle cx="${180 + ((seed * 13 + index * 97) % 720)}" cy="${260 + ((seed * 5 + index * 61) % 300)}" r="520" fill="url(#glow)"/>` +
    `<circle cx="${900 - ((seed * 3 + index * 41) % 700)}" cy="${1650 - ((seed * 11 + index * 29) % 300)}" r="440" fill="url(#glow)"/>` +
    `<rect x="${margin}" y="${firstBaseline - fontSize - 70}" width="120" height="12" rx="6" fill="${palette.accent}"/>` +
    textBlock(lines, {
      x: margin,
      y: firstBaseline,
      fontSize,
      lineHeight,
      fill: palette.text,
      anchor: 'start',
    }) +
    counter +
    '</svg>'
  );
}

/** `count` PNG slides of the prompt, 1080×1920. */
export async function renderTypographicSlides(prompt: string, count: number): Promise<Buffer[]> {
  const text = prompt.replace(/\s+/g, ' ').trim();
  const slides: Buffer[] = [];
  for (let index = 0; index < count; index++) {
    slides.push(
      await sharp(Buffer.from(slideSvg(text, index, count)))
        .resize(SLIDE_WIDTH, SLIDE_HEIGHT, { fit: 'fill' })
        .png({ compressionLevel: 6 })
        .toBuffer(),
    );
  }
  return slides;
}
