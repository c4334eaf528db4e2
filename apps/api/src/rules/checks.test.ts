import { describe, expect, it } from 'vitest';
import { type AuditImageFacts, checkPageImages } from './checks.ts';

/** The page-level checks are linear in the page, whatever its images say. */

const image = (facts: Partial<AuditImageFacts>): AuditImageFacts => ({
  pageUrl: 'https://harbour.test/',
  src: 'https://harbour.test/a.png',
  alt: 'A red fishing boat',
  element: 'img',
  role: 'content',
  ...facts,
});

/** The message of `repeated` as the checks wrote it before they were made linear: every pair compared. */
function referenceRepeated(images: AuditImageFacts[], index: number): string | undefined {
  const target = (facts: AuditImageFacts) =>
    facts.role === 'link' && !facts.linkText?.trim() && facts.linkTarget
      ? new URL(facts.linkTarget, facts.pageUrl).href
      : undefined;
  const self = images[index] as AuditImageFacts;
  const seen = new Set<string>();
  const others = images.filter((other) => {
    if (other === self || other.alt !== self.alt || other.src === self.src) return false;
    const mine = target(self);
    if (mine !== undefined && mine === target(other)) return false;
    if (seen.has(other.src)) return false;
    seen.add(other.src);
    return true;
  });
  const first = others[0];
  if (!first) return undefined;
  const name = first.src.split('/').at(-1);
  const more =
    others.length > 1 ? ` and ${others.length - 1} other image${others.length > 2 ? 's' : ''}` : '';
  return `The alt text “${self.alt}” is also used for “${name}”${more} on this page, so the images cannot be told apart.`;
}

describe('checkPageImages on hostile pages', () => {
  it('checks 5,000 images with the same 1,000-character alt in linear time (was quadratic: 25 s)', () => {
    const alt = 'A wooden fishing boat '.repeat(46).slice(0, 1000);
    const images = Array.from({ length: 5000 }, (_, i) =>
      image({ src: `https://harbour.test/${i}.png`, alt }),
    );
    const started = performance.now();
    const verdicts = checkPageImages(images);
    // Generous: about 0.8 s on one idle core.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(verdicts).toHaveLength(5000);
    const repeated = verdicts[0]?.problems.find((problem) => problem.code === 'repeated');
    expect(repeated?.message).toMatch(/is also used for “1\.png” and 4998 other images on this page/);
    // The alt is quoted in at most 80 characters.
    expect(repeated?.message).toContain(
      '“A wooden fishing boat A wooden fishing boat A wooden fishing boat A wooden fish…”',
    );
  });

  it('names the same first repeat and count as comparing every pair, on random pages of links and sources', () => {
    let seed = 22;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let page = 0; page < 400; page++) {
      const images = Array.from({ length: 1 + random(9) }, () => {
        const linked = random(3);
        return image({
          src: `https://harbour.test/${'abcd'[random(4)]}.png`,
          alt: ['Boat', 'Quay'][random(2)] as string,
          ...(linked > 0
            ? { role: 'link' as const, linkTarget: `https://harbour.test/${['boats', 'quay'][linked - 1]}` }
            : {}),
        });
      });
      const verdicts = checkPageImages(images);
      images.forEach((_, index) => {
        const message = verdicts[index]?.problems.find((problem) => problem.code === 'repeated')?.message;
        expect(message, JSON.stringify({ images, index })).toBe(referenceRepeated(images, index));
      });
    }
  });
});

describe('a CSS background image', () => {
  it('without a text alternative on a block is a warning for a person to check, not a failure', () => {
    const [hero] = checkPageImages([
      image({
        element: 'css-background',
        src: 'https://harbour.test/hero.jpg',
        alt: null,
        nameSource: 'none',
      }),
    ]);
    expect(hero?.verdict).toBe('warning');
    expect(hero?.problems.map((problem) => [problem.code, problem.severity])).toEqual([
      ['css-image-to-check', 'warning'],
    ]);
    expect(hero?.problems[0]?.message).toMatch(
      /^The CSS background image “hero\.jpg” has no text alternative: check whether it is decorative/,
    );
  });

  it('as the only content of a link without a name still fails', () => {
    const [logo] = checkPageImages([
      image({
        element: 'css-background',
        src: 'https://harbour.test/logo.png',
        alt: null,
        role: 'link',
        linkTarget: '/',
        nameSource: 'none',
      }),
    ]);
    expect(logo?.verdict).toBe('fail');
    expect(logo?.problems.map((problem) => problem.code)).toContain('missing');
  });
});
