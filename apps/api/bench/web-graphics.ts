/**
 * The web-graphics set (web-graphics-dev, its README): each entry is a web graphic, the
 * alt text experts wrote for it in context, its `kind`, and the HTML snippet it sits in. Here the
 * snippet becomes a page the product's scraper reads, exactly as a scraped page would be.
 */
import type { ScrapedImage } from '@altwise/contracts/scrape';
import { DomUtils, parseDocument } from 'htmlparser2';
import { extractImages } from '../src/pages/extract-images.ts';
import { contentWordRecall } from './recall.ts';

export type GraphicKind = 'text' | 'functional' | 'logo' | 'icon' | 'informative' | 'complex' | 'decorative';

export interface GraphicRef {
  id: string;
  file: string;
  alt: string;
  alts?: string[];
  kind: GraphicKind;
  graphicType?: string;
  context: {
    html: string;
    heading?: string;
    pageTitle?: string;
    pageUrl?: string;
    positionInGroup?: string;
  };
}

/** A web-graphics set names a `kind` and an HTML snippet per entry; the photo set does not. */
export function isGraphicSet(refs: unknown[]): refs is GraphicRef[] {
  return refs.every(
    (ref) =>
      typeof ref === 'object' &&
      ref !== null &&
      'kind' in ref &&
      typeof (ref as { context?: { html?: unknown } }).context?.html === 'string',
  );
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// A query, not a fragment: the scraper drops fragments (x.png#a is x.png), not queries.
const targetMark = '?altwise-eval-target';
type Element = Parameters<typeof DomUtils.getAttributeValue>[0];

/**
 * The snippet's image this entry is about: the `positionInGroup`-th image when a group repeats one
 * picture, else the one whose alt is the entry's alt, else the only one.
 */
function findTarget(images: Element[], ref: GraphicRef): Element | undefined {
  const position = /^(\d+) of \d+$/.exec(ref.context.positionInGroup ?? '')?.[1];
  if (position && images[Number(position) - 1]) return images[Number(position) - 1];
  const wanted = new Set([ref.alt, ...(ref.alts ?? [])].map((alt) => alt.trim()));
  const byAlt = images.filter((image) => wanted.has((image.attribs.alt ?? '').trim()));
  if (byAlt[0]) return byAlt[0];
  return images.length === 1 ? images[0] : undefined;
}

/**
 * The page the entry's image appears on: its title, its heading, then the snippet in a block, with the target
 * image's alt removed (the engine is asked to write it; nothing of the expert's answer is left in
 * the page). An `<input type="image">` becomes the button it is, with the image as its only content.
 */
export function pageForGraphic(ref: GraphicRef): string {
  const document = parseDocument(ref.context.html, { decodeEntities: true });
  const images = DomUtils.findAll(
    (element) =>
      element.name === 'img' || (element.name === 'input' && element.attribs.type?.toLowerCase() === 'image'),
    document.children,
  );
  const target = findTarget(images, ref);
  if (!target) throw new Error(`no image in the snippet of ${ref.id} is the entry's image`);
  delete target.attribs.alt;
  // The scraper drops repeated sources; a query keeps the target apart without changing its file.
  target.attribs.src = `${target.attribs.src ?? ''}${targetMark}`;
  let body = DomUtils.getOuterHTML(document, { decodeEntities: true });
  if (target.name === 'input') {
    const marker = DomUtils.getOuterHTML(target, { decodeEntities: true });
    body = body.replace(
      marker,
      `<button type="submit"><img src="${escapeHtml(target.attribs.src)}"></button>`,
    );
  }
  const title = ref.context.pageTitle ? `<title>${escapeHtml(ref.context.pageTitle)}</title>` : '';
  const heading = ref.context.heading ? `<h2>${escapeHtml(ref.context.heading)}</h2>\n` : '';
  // The snippet sits in a content block, as it does on its page (a bare body has no block text).
  return `<!doctype html><html><head>${title}</head><body>\n${heading}<div>${body}</div>\n</body></html>`;
}

/** The target image as the product's scraper reports it. */
export function scrapedGraphic(ref: GraphicRef): ScrapedImage {
  const pageUrl = new URL(ref.context.pageUrl ?? 'https://example.org/page');
  const found = extractImages(pageForGraphic(ref), pageUrl, 1000).find((image) =>
    image.src.endsWith(targetMark),
  );
  if (!found) throw new Error(`the scraper did not find the image of ${ref.id}`);
  return { ...found, src: found.src.slice(0, -targetMark.length) };
}

/** Comparable form for exact match: case, spacing, quotes and a closing full stop do not count. */
function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[“”]/g, '"')
    .replace(/[‘’]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.\s]+$/, '')
    .toLowerCase();
}

export interface GraphicScore {
  /** Content-word recall against the best of the acceptable wordings; for decorative references, 1 when the engine says decorative, else 0. */
  recall: number;
  /** The alt equals an acceptable wording (ignoring case, spacing, quote style and a closing full stop). */
  exact: boolean;
  /** The engine's decorative decision agrees with the reference's. */
  decorativeAgrees: boolean;
}

export function scoreGraphic(
  ref: GraphicRef,
  result: { altText: string; decorative: boolean },
): GraphicScore {
  const referenceDecorative = ref.kind === 'decorative';
  const wordings = [ref.alt, ...(ref.alts ?? [])];
  const recall = referenceDecorative
    ? result.decorative
      ? 1
      : 0
    : result.decorative
      ? 0
      : Math.max(...wordings.map((wording) => contentWordRecall(wording, result.altText)));
  const exact = referenceDecorative
    ? result.decorative
    : !result.decorative && wordings.some((wording) => normalise(wording) === normalise(result.altText));
  return { recall, exact, decorativeAgrees: referenceDecorative === result.decorative };
}
