/**
 * Renders the open logo and pictogram sets into the compact index the offline engine matches marks
 * against (ADR 063): `src/engines/offline/mark-index.bin`, committed, so the product needs neither
 * the sets nor a first-start rendering pass. The sets (186 MB, 23,000 files) are not dependencies:
 * install them without saving only to rebuild the index (the versions in use are in its header):
 *   npm install --no-save -w @altwise/api simple-icons@16.37.0 lucide-static@1.62.0 @material-symbols/svg-400@0.47.5
 *   npm run marks:index -w @altwise/api
 * Each mark becomes 128 bytes (a 32×32 bit mask, see mark-shape.ts); a tile with a mark cut out of
 * it is indexed a second time by its holes. Brands whose icon carries a licence other than CC0,
 * MIT, Apache-2.0, BSD-3-Clause or the Unlicense (attribution, share-alike, non-commercial,
 * no-derivatives, GPL, MPL, custom) are left out (ADR 063).
 */

import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import sharp from 'sharp';
import { pictogramConcepts } from '../src/engines/offline/icons.ts';
import { enclosedHoles, normaliseMask, packMask } from '../src/engines/offline/mark-shape.ts';
import type { MarkIndexEntry, MarkIndexHeader } from '../src/engines/offline/marks.ts';

const render = 128;
const permissive = new Set(['CC0-1.0', 'MIT', 'Apache-2.0', 'BSD-3-Clause', 'Unlicense']);

/** The installed package's folder (some packages do not export their package.json). */
function packageDir(name: string): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir)
      throw new Error(
        `${name} is not installed: npm install --no-save -w @altwise/api simple-icons lucide-static @material-symbols/svg-400`,
      );
  }
}
async function versionOf(name: string): Promise<string> {
  return (
    JSON.parse(await readFile(path.join(packageDir(name), 'package.json'), 'utf8')) as { version: string }
  ).version;
}

/** The SVG's alpha as weights at 128 px on its long side. */
async function alphaOf(svg: Buffer): Promise<{ weights: Float32Array; width: number; height: number }> {
  const meta = await sharp(svg).metadata();
  const density = (72 * render) / Math.max(meta.width ?? 24, meta.height ?? 24);
  const { data, info } = await sharp(svg, { density })
    .ensureAlpha()
    .extractChannel(3)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const weights = new Float32Array(info.width * info.height);
  for (let i = 0; i < weights.length; i++) weights[i] = (data[i] ?? 0) / 255;
  return { weights, width: info.width, height: info.height };
}

const entries: MarkIndexEntry[] = [];
const masks: Uint8Array[] = [];

async function add(svg: Buffer, entry: Omit<MarkIndexEntry, 'variant' | 'aspect'>): Promise<void> {
  const { weights, width, height } = await alphaOf(svg);
  const shape = normaliseMask(weights, width, height);
  if (!shape) return;
  entries.push({ ...entry, variant: 'mark', aspect: Math.round(shape.aspect * 100) / 100 });
  masks.push(packMask(shape.mask));
  const holes = shape.fill >= 0.45 ? enclosedHoles(weights, width, height) : undefined;
  const inner = holes ? normaliseMask(holes, width, height) : undefined;
  if (inner) {
    entries.push({ ...entry, variant: 'inner', aspect: Math.round(inner.aspect * 100) / 100 });
    masks.push(packMask(inner.mask));
  }
}

interface SimpleIcon {
  title: string;
  slug?: string;
  hex: string;
  license?: { type: string };
}

const brandsDir = packageDir('simple-icons');
const data = JSON.parse(await readFile(path.join(brandsDir, 'data', 'simple-icons.json'), 'utf8')) as
  | SimpleIcon[]
  | { icons: SimpleIcon[] };
const brands = Array.isArray(data) ? data : data.icons;
// Loaded from the installed folder by address: the set is not a dependency, so no import names it.
const { titleToSlug } = (await import(pathToFileURL(path.join(brandsDir, 'sdk.mjs')).href)) as {
  titleToSlug: (title: string) => string;
};
let leftOut = 0;
for (const brand of brands) {
  if (brand.license && !permissive.has(brand.license.type)) {
    leftOut++;
    continue;
  }
  const slug = brand.slug ?? titleToSlug(brand.title);
  const svg = await readFile(path.join(brandsDir, 'icons', `${slug}.svg`));
  await add(svg, { set: 'brand', name: brand.title, hex: brand.hex });
}

const lucideDir = path.join(packageDir('lucide-static'), 'icons');
const materialDir = path.join(packageDir('@material-symbols/svg-400'), 'outlined');
for (const concept of pictogramConcepts) {
  for (const name of concept.lucide)
    await add(await readFile(path.join(lucideDir, `${name}.svg`)), { set: 'pictogram', name: concept.id });
  for (const name of concept.material) {
    for (const file of [`${name}.svg`, `${name}-fill.svg`])
      await add(await readFile(path.join(materialDir, file)), { set: 'pictogram', name: concept.id });
  }
}

const header: MarkIndexHeader = {
  format: 1,
  sources: {
    'simple-icons': await versionOf('simple-icons'),
    'lucide-static': await versionOf('lucide-static'),
    '@material-symbols/svg-400': await versionOf('@material-symbols/svg-400'),
  },
  entries,
};
const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
const length = Buffer.alloc(4);
length.writeUInt32LE(headerBytes.length);
const raw = Buffer.concat([length, headerBytes, ...masks]);
const packed = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
const target = path.resolve(import.meta.dirname, '../src/engines/offline/mark-index.bin');
await writeFile(target, packed);
console.log(
  `Wrote ${path.relative(process.cwd(), target)}: ${entries.length} shapes (${brands.length - leftOut} brands, ${leftOut} left out for their licence), ${packed.length} bytes`,
);
