/**
 * Makes the landing page's before/after example from a photograph of the API's test fixtures
 * (apps/api/test/fixtures/images/coffee.jpg, CC0, Rachel Michetti via scikit-image): "after" is the photo,
 * "before" the same photo blurred and greyed, standing for what a person using a screen reader gets from an
 * image without alt text. Written as AVIF and WebP next to the landing page. Run after changing the source:
 *   node apps/web/scripts/make-example-images.ts
 */
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';

const root = path.resolve(import.meta.dirname, '../../..');
const source = path.join(root, 'apps/api/test/fixtures/images/coffee.jpg');
const outDir = path.join(root, 'apps/web/src/features/landing/images');

const variants = {
  'espresso-after': (image: Sharp) => image,
  'espresso-before': (image: Sharp) => image.blur(14).grayscale().linear(0.55, 90),
};

for (const [name, transform] of Object.entries(variants)) {
  const image = transform(sharp(source).resize({ width: 600 }));
  await image
    .clone()
    .avif({ quality: 50, effort: 6 })
    .toFile(path.join(outDir, `${name}.avif`));
  await image
    .clone()
    .webp({ quality: 72, effort: 6 })
    .toFile(path.join(outDir, `${name}.webp`));
}
console.log(`Wrote the example images to ${path.relative(root, outDir)}`);
