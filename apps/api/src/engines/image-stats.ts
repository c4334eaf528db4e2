import sharp from 'sharp';
import type { PreparedImage } from './prepare-image.ts';

/** Cheap pixel statistics that every engine can use: colours, tone and cues for the kind of image. */
export interface PixelStats {
  greyscale: boolean;
  brightness: 'dark' | 'medium' | 'bright';
  meanLuma: number;
  /** Standard deviation of luminance: contrast across the whole image. */
  lumaStd: number;
  /** Colour names covering at least ~12% of the image, most common first. */
  colours: string[];
  /** Distinct colours after 4-bit-per-channel quantisation, per 1,000 pixels of the thumbnail. */
  distinctColoursPerK: number;
  /** Share of the most common quantised colour: a flat background scores high. */
  topColourShare: number;
  /** Share of pixels in the 8 most common 6-bit colours: flat graphics score high, photographs low. */
  flatShare: number;
  /** Share of neighbouring pixel pairs with a hard edge. */
  edgeShare: number;
  /** The whole image is (almost) one colour. */
  uniform: boolean;
  meanSaturation: number;
}

const THUMB = 96;

export async function measurePixels(image: PreparedImage): Promise<PixelStats> {
  const { data, info } = await sharp(image.rgb, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .resize(THUMB, THUMB, { fit: 'inside', kernel: 'nearest' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return pixelStatsFromRgb(data, info.width, info.height);
}

export function pixelStatsFromRgb(rgb: Uint8Array, width: number, height: number): PixelStats {
  const pixels = width * height;
  const quantised = new Map<number, number>();
  const fine = new Map<number, number>();
  const colourCounts = new Map<string, number>();
  let lumaSum = 0;
  let lumaSqSum = 0;
  let chromaSum = 0;
  let saturationSum = 0;
  let edges = 0;
  let pairs = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const r = rgb[i] ?? 0;
      const g = rgb[i + 1] ?? 0;
      const b = rgb[i + 2] ?? 0;
      const luma = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      lumaSum += luma;
      lumaSqSum += luma * luma;
      chromaSum += Math.max(r, g, b) - Math.min(r, g, b);
      const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
      quantised.set(key, (quantised.get(key) ?? 0) + 1);
      const fineKey = ((r >> 2) << 12) | ((g >> 2) << 6) | (b >> 2);
      fine.set(fineKey, (fine.get(fineKey) ?? 0) + 1);
      const [hue, saturation, lightness] = rgbToHsl(r, g, b);
      saturationSum += saturation;
      const name = nameColour(hue, saturation, lightness);
      colourCounts.set(name, (colourCounts.get(name) ?? 0) + 1);
      if (x + 1 < width) {
        pairs++;
        if (Math.abs(luma - lumaAt(rgb, i + 3)) > 48) edges++;
      }
      if (y + 1 < height) {
        pairs++;
        if (Math.abs(luma - lumaAt(rgb, i + width * 3)) > 48) edges++;
      }
    }
  }
  const meanLuma = lumaSum / pixels;
  const lumaStd = Math.sqrt(Math.max(0, lumaSqSum / pixels - meanLuma * meanLuma));
  const topColourShare = Math.max(...quantised.values()) / pixels;
  const flatShare =
    [...fine.values()]
      .sort((a, b) => b - a)
      .slice(0, 8)
      .reduce((sum, count) => sum + count, 0) / pixels;
  const colours = [...colourCounts.entries()]
    .filter(([, count]) => count / pixels >= 0.12)
    .sort((a, b) => b[1] - a[1])
    .map(([name]) => name)
    .slice(0, 3);
  return {
    greyscale: chromaSum / pixels < 8,
    brightness: meanLuma < 70 ? 'dark' : meanLuma > 185 ? 'bright' : 'medium',
    meanLuma,
    lumaStd,
    colours,
    distinctColoursPerK: (quantised.size / pixels) * 1000,
    topColourShare,
    flatShare,
    edgeShare: pairs ? edges / pairs : 0,
    uniform: lumaStd < 4 && topColourShare > 0.9,
    meanSaturation: saturationSum / pixels,
  };
}

function lumaAt(rgb: Uint8Array, i: number): number {
  return 0.2126 * (rgb[i] ?? 0) + 0.7152 * (rgb[i + 1] ?? 0) + 0.0722 * (rgb[i + 2] ?? 0);
}

export function rgbToHsl(r: number, g: number, b: number): [number, number, number] {
  const rn = r / 255;
  const gn = g / 255;
  const bn = b / 255;
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const lightness = (max + min) / 2;
  if (max === min) return [0, 0, lightness];
  const d = max - min;
  const saturation = lightness > 0.5 ? d / (2 - max - min) : d / (max + min);
  let hue: number;
  if (max === rn) hue = (gn - bn) / d + (gn < bn ? 6 : 0);
  else if (max === gn) hue = (bn - rn) / d + 2;
  else hue = (rn - gn) / d + 4;
  return [hue * 60, saturation, lightness];
}

/** A plain colour word a person would use; deliberately coarse. */
export function nameColour(hue: number, saturation: number, lightness: number): string {
  if (lightness < 0.13) return 'black';
  if (lightness > 0.9 && saturation < 0.5) return 'white';
  if (saturation < 0.15 || (saturation < 0.25 && lightness < 0.3)) {
    if (lightness > 0.78) return 'white';
    return 'grey';
  }
  if (hue < 10 || hue >= 340) return lightness > 0.7 ? 'pink' : lightness < 0.3 ? 'dark red' : 'red';
  if (hue < 45) {
    if (lightness < 0.45 || saturation < 0.45) return 'brown';
    return lightness > 0.8 ? 'beige' : 'orange';
  }
  if (hue < 68) return lightness < 0.35 ? 'olive' : 'yellow';
  if (hue < 165) return 'green';
  if (hue < 195) return 'teal';
  if (hue < 255) return lightness < 0.3 ? 'navy' : 'blue';
  if (hue < 290) return 'purple';
  return 'pink';
}

/**
 * The dominant colour name inside a box given in fractions of the image, with its share of the box.
 * Used for the clothing below a face: "a smiling person wearing orange".
 */
export function dominantColourIn(
  rgb: Uint8Array,
  width: number,
  height: number,
  box: [number, number, number, number],
): { colour: string; share: number } | undefined {
  const x0 = Math.max(0, Math.floor(box[0] * width));
  const y0 = Math.max(0, Math.floor(box[1] * height));
  const x1 = Math.min(width, Math.ceil((box[0] + box[2]) * width));
  const y1 = Math.min(height, Math.ceil((box[1] + box[3]) * height));
  if (x1 - x0 < 4 || y1 - y0 < 4) return undefined;
  // Shading splits one garment into neighbouring names (orange, brown); count them as one family.
  const families = new Map<string, Map<string, number>>();
  let total = 0;
  const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 4096)));
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const i = (y * width + x) * 3;
      const name = nameColour(...rgbToHsl(rgb[i] ?? 0, rgb[i + 1] ?? 0, rgb[i + 2] ?? 0));
      const family = colourFamily[name] ?? name;
      const members = families.get(family) ?? new Map<string, number>();
      members.set(name, (members.get(name) ?? 0) + 1);
      families.set(family, members);
      total++;
    }
  }
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const members = [...families.values()].sort((a, b) => sum(b) - sum(a))[0];
  if (!members || total === 0) return undefined;
  const colour = [...members.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  return colour ? { colour, share: sum(members) / total } : undefined;
}

const colourFamily: Record<string, string> = {
  red: 'red',
  'dark red': 'red',
  pink: 'red',
  orange: 'orange',
  brown: 'orange',
  beige: 'orange',
  yellow: 'yellow',
  olive: 'yellow',
  blue: 'blue',
  navy: 'blue',
  teal: 'blue',
};
