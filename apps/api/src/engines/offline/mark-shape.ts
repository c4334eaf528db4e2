/**
 * The shape of a mark (a logo or a pictogram) as a small, comparable descriptor (ADR 063): the
 * mark's pixels, told from the background by colour distance rather than by lightness (so a white
 * mark on dark and a dark mark on white give the same shape), cropped to their bounding box and
 * averaged down to 32×32 coverage values, each axis stretched to the grid (the box's aspect is kept
 * beside it and compared apart). The index side (open icon sets rendered
 * by `scripts/build-mark-index.ts`) and the query side (an image in a page) go through the same
 * `normaliseMask`, so scale and position do not matter. Pure and synchronous: the engine worker
 * runs it, the unit tests run it without one.
 */

export const markSize = 32;
const cells = markSize * markSize;

export interface MarkShape {
  /** 32×32 coverage values, 0..1, row by row. */
  mask: Float32Array;
  /** The long side of the mark's box in the image, in pixels (after shrinking to 160 px). */
  side: number;
  /** Width over height of the mark's bounding box. */
  aspect: number;
  /** Share of the bounding box the mark covers. */
  fill: number;
}

export interface QueryShape extends MarkShape {
  /** The mark's colour (its mean), 0..255 per channel. */
  colour: [number, number, number];
  /** `mark`: the pixels that differ from the background; `inner`: the holes inside a filled tile. */
  source: 'mark' | 'inner';
}

/** Averages `length` samples (every `stride`) of `input` from `offset` into `out` of length `outLength`. */
function resample1d(
  input: Float32Array,
  offset: number,
  stride: number,
  length: number,
  out: Float32Array,
  outOffset: number,
  outStride: number,
  outLength: number,
): void {
  const scale = length / outLength;
  for (let i = 0; i < outLength; i++) {
    const start = i * scale;
    const end = start + scale;
    let sum = 0;
    for (let j = Math.floor(start); j < Math.ceil(end) && j < length; j++) {
      const overlap = Math.min(end, j + 1) - Math.max(start, j);
      if (overlap > 0) sum += (input[offset + j * stride] ?? 0) * overlap;
    }
    out[outOffset + i * outStride] = sum / scale;
  }
}

/**
 * Weights (0..1 per pixel) → the normalised shape: the box of pixels above one half, each axis
 * area-averaged to 32 cells. Undefined when nothing stands out.
 */
export function normaliseMask(weights: Float32Array, width: number, height: number): MarkShape | undefined {
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  let inside = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((weights[y * width + x] ?? 0) <= 0.5) continue;
      inside++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (maxX < 0) return undefined;
  const boxWidth = maxX - minX + 1;
  const boxHeight = maxY - minY + 1;
  const side = Math.max(boxWidth, boxHeight);
  // Each axis is stretched to the grid (the aspect is kept beside it): two hamburgers whose lines
  // stand a little closer or wider apart, or a house a little squatter, land on the same cells.
  const box = new Float32Array(boxWidth * boxHeight);
  for (let y = 0; y < boxHeight; y++)
    for (let x = 0; x < boxWidth; x++) box[y * boxWidth + x] = weights[(y + minY) * width + x + minX] ?? 0;
  const rows = new Float32Array(boxHeight * markSize);
  for (let y = 0; y < boxHeight; y++)
    resample1d(box, y * boxWidth, 1, boxWidth, rows, y * markSize, 1, markSize);
  const mask = new Float32Array(cells);
  for (let x = 0; x < markSize; x++) resample1d(rows, x, markSize, boxHeight, mask, x, markSize, markSize);
  return { mask, side, aspect: boxWidth / boxHeight, fill: inside / (boxWidth * boxHeight) };
}

/**
 * The holes inside a shape: pixels of the box that are not the shape and cannot reach the box's
 * edge without crossing it ("in" cut out of a tile, the "f" inside a circle). Undefined when the
 * shape encloses too little to be a tile with a mark in it.
 */
export function enclosedHoles(
  weights: Float32Array,
  width: number,
  height: number,
): Float32Array | undefined {
  const solid = (i: number) => (weights[i] ?? 0) > 0.5;
  const outside = new Uint8Array(width * height);
  const stack: number[] = [];
  for (let x = 0; x < width; x++) {
    stack.push(x, (height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    stack.push(y * width, y * width + width - 1);
  }
  while (stack.length) {
    const i = stack.pop() as number;
    if (outside[i] || solid(i)) continue;
    outside[i] = 1;
    const x = i % width;
    if (x > 0) stack.push(i - 1);
    if (x < width - 1) stack.push(i + 1);
    if (i >= width) stack.push(i - width);
    if (i + width < width * height) stack.push(i + width);
  }
  const holes = new Float32Array(width * height);
  let count = 0;
  let shape = 0;
  for (let i = 0; i < width * height; i++) {
    if (solid(i)) shape++;
    else if (!outside[i]) {
      holes[i] = 1;
      count++;
    }
  }
  return count >= 12 && count >= (count + shape) * 0.06 ? holes : undefined;
}

/** A box blur over a 32×32 mask: a pixel or two of tolerance for edges, strokes and drawing styles. */
export function blurMask(mask: Float32Array, radius = 1, out = new Float32Array(cells)): Float32Array {
  for (let y = 0; y < markSize; y++) {
    for (let x = 0; x < markSize; x++) {
      let sum = 0;
      let n = 0;
      for (let dy = -radius; dy <= radius; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= markSize) continue;
        for (let dx = -radius; dx <= radius; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= markSize) continue;
          sum += mask[yy * markSize + xx] ?? 0;
          n++;
        }
      }
      out[y * markSize + x] = sum / n;
    }
  }
  return out;
}

/**
 * How alike two blurred masks are, 0..1: the soft Jaccard overlap of the marks times that of the
 * space around them, as a geometric mean. The mark's overlap alone cannot tell two filled tiles
 * apart by the holes cut into them; the space's alone cannot tell two thin outlines apart. `full`
 * is the value of a fully covered cell (1, or 255 for masks kept in bytes).
 */
export function overlap(a: ArrayLike<number>, b: ArrayLike<number>, full = 1): number {
  let both = 0;
  let either = 0;
  let neither = 0;
  let notBoth = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    const low = x < y ? x : y;
    const high = x > y ? x : y;
    both += low;
    either += high;
    neither += full - high;
    notBoth += full - low;
  }
  if (either === 0 || notBoth === 0) return 0;
  return Math.sqrt((both / either) * (neither / notBoth));
}

/** A 32×32 byte mask averaged over 2×2 cells: the 16×16 sketch a first, cheap comparison uses. */
export function coarseMask(mask: Uint8Array): Uint8Array {
  const half = markSize / 2;
  const out = new Uint8Array(half * half);
  for (let y = 0; y < half; y++)
    for (let x = 0; x < half; x++) {
      const i = 2 * y * markSize + 2 * x;
      out[y * half + x] =
        ((mask[i] ?? 0) + (mask[i + 1] ?? 0) + (mask[i + markSize] ?? 0) + (mask[i + markSize + 1] ?? 0)) >>
        2;
    }
  return out;
}

/** A 0..1 mask as bytes (0..255): a quarter of the memory for an index of thousands of marks. */
export function toBytes(mask: Float32Array): Uint8Array {
  const bytes = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) bytes[i] = Math.round((mask[i] ?? 0) * 255);
  return bytes;
}

/** 32×32 mask → 128 bytes, one bit a cell (set where coverage is at least one half). */
export function packMask(mask: Float32Array): Uint8Array {
  const bytes = new Uint8Array(cells / 8);
  for (let i = 0; i < cells; i++)
    if ((mask[i] ?? 0) >= 0.5) bytes[i >> 3] = (bytes[i >> 3] ?? 0) | (1 << (i & 7));
  return bytes;
}

export function unpackMask(bytes: Uint8Array, offset = 0, mask = new Float32Array(cells)): Float32Array {
  for (let i = 0; i < cells; i++) mask[i] = ((bytes[offset + (i >> 3)] ?? 0) >> (i & 7)) & 1;
  return mask;
}

const maxQuerySide = 160;

/**
 * The shapes an image's mark may have: its pixels that differ from the background (taken from the
 * border), and, when those pixels form a filled tile, the holes inside it. None when the border has
 * no clear background colour (a photograph, a busy scene): such a picture is not a lone mark.
 */
export function queryShapes(rgb: Uint8Array, width: number, height: number): QueryShape[] {
  const small = shrink(rgb, width, height);
  const { data, w, h } = small;
  const background = borderColour(data, w, h);
  if (!background) return [];
  const weights = new Float32Array(w * h);
  let sumR = 0;
  let sumG = 0;
  let sumB = 0;
  let count = 0;
  for (let i = 0; i < w * h; i++) {
    const r = data[i * 3] ?? 0;
    const g = data[i * 3 + 1] ?? 0;
    const b = data[i * 3 + 2] ?? 0;
    const distance = Math.hypot(r - background[0], g - background[1], b - background[2]);
    const weight = Math.min(1, Math.max(0, (distance - 24) / 56));
    weights[i] = weight;
    if (weight > 0.5) {
      sumR += r;
      sumG += g;
      sumB += b;
      count++;
    }
  }
  const shape = normaliseMask(weights, w, h);
  if (!shape || count < 6) return [];
  const colour: [number, number, number] = [sumR / count, sumG / count, sumB / count];
  const shapes: QueryShape[] = [{ ...shape, colour, source: 'mark' }];
  // A tile is square or round (an app icon, a social button); a wide badge with holes in it is not one mark.
  const tile = shape.fill >= 0.45 && shape.aspect >= 0.7 && shape.aspect <= 1.45;
  const holes = tile ? enclosedHoles(weights, w, h) : undefined;
  const inner = holes ? normaliseMask(holes, w, h) : undefined;
  if (inner) shapes.push({ ...inner, colour, source: 'inner' });
  return shapes;
}

/** Area-averaged copy no larger than 160 px a side (a mark's shape needs no more). */
function shrink(rgb: Uint8Array, width: number, height: number): { data: Uint8Array; w: number; h: number } {
  const scale = Math.max(width, height) / maxQuerySide;
  if (scale <= 1) return { data: rgb, w: width, h: height };
  const w = Math.max(1, Math.round(width / scale));
  const h = Math.max(1, Math.round(height / scale));
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor((y * height) / h);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * height) / h));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor((x * width) / w);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * width) / w));
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let yy = y0; yy < y1; yy++) {
        for (let xx = x0; xx < x1; xx++) {
          const i = (yy * width + xx) * 3;
          r += rgb[i] ?? 0;
          g += rgb[i + 1] ?? 0;
          b += rgb[i + 2] ?? 0;
          n++;
        }
      }
      const o = (y * w + x) * 3;
      data[o] = r / n;
      data[o + 1] = g / n;
      data[o + 2] = b / n;
    }
  }
  return { data, w, h };
}

/** The background: the border's most common colour, when at least 60 % of the border is near it. */
function borderColour(data: Uint8Array, w: number, h: number): [number, number, number] | undefined {
  const border: number[] = [];
  for (let x = 0; x < w; x++) border.push(x, (h - 1) * w + x);
  for (let y = 1; y < h - 1; y++) border.push(y * w, y * w + w - 1);
  const counts = new Map<number, number>();
  for (const i of border) {
    const key =
      ((data[i * 3] ?? 0) >> 4) * 256 + ((data[i * 3 + 1] ?? 0) >> 4) * 16 + ((data[i * 3 + 2] ?? 0) >> 4);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let modeKey = 0;
  let modeCount = -1;
  for (const [key, n] of counts)
    if (n > modeCount) {
      modeKey = key;
      modeCount = n;
    }
  const centre = [((modeKey >> 8) & 15) * 16 + 8, ((modeKey >> 4) & 15) * 16 + 8, (modeKey & 15) * 16 + 8];
  let r = 0;
  let g = 0;
  let b = 0;
  let near = 0;
  for (const i of border) {
    const pr = data[i * 3] ?? 0;
    const pg = data[i * 3 + 1] ?? 0;
    const pb = data[i * 3 + 2] ?? 0;
    if (Math.hypot(pr - (centre[0] ?? 0), pg - (centre[1] ?? 0), pb - (centre[2] ?? 0)) > 40) continue;
    r += pr;
    g += pg;
    b += pb;
    near++;
  }
  if (near < border.length * 0.6) return undefined;
  return [r / near, g / near, b / near];
}
