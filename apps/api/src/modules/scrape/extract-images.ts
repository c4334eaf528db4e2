import { INVALID_IMAGE_SOURCE, type ScrapedImage, type ScrapedImageContext } from '@altwise/contracts/scrape';
import { DomUtils, parseDocument } from 'htmlparser2';

/**
 * The `img` elements of an HTML page, as the scrape call answers them: one row per image in
 * document order, its best source (the largest `srcset` candidate, then the lazy-loading
 * attributes, then `src`) resolved against `<base href>` and the page URL, duplicates removed,
 * `data:` and other non-http sources kept as invalid rows, and the page context around it.
 * The HTML is parsed, never run.
 */

type Document = ReturnType<typeof parseDocument>;
type Node = Document['children'][number];
type Element = Parameters<typeof DomUtils.getAttributeValue>[0];

const SURROUNDING_TEXT_MAX_CHARS = 300;
const INVALID_SRC_MAX_CHARS = 100;
const headingTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const blockTags = new Set([
  'p',
  'li',
  'td',
  'th',
  'dd',
  'blockquote',
  'figure',
  'section',
  'article',
  'aside',
  'div',
  'main',
  'header',
  'footer',
]);

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const textOf = (node: Node | Element) => squash(DomUtils.textContent(node));

/** The URL of the widest (or densest) candidate of a srcset, per the HTML srcset grammar. */
export function largestSrcsetCandidate(srcset: string): string | null {
  let best: { url: string; width: number; density: number } | null = null;
  let position = 0;
  while (position < srcset.length) {
    while (position < srcset.length && /[\s,]/.test(srcset.charAt(position))) position++;
    if (position >= srcset.length) break;
    let end = position;
    while (end < srcset.length && !/\s/.test(srcset.charAt(end))) end++;
    let url = srcset.slice(position, end);
    position = end;
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      let depth = 0;
      while (position < srcset.length) {
        const char = srcset.charAt(position);
        if (char === '(') depth++;
        else if (char === ')') depth = Math.max(0, depth - 1);
        else if (char === ',' && depth === 0) break;
        descriptor += char;
        position++;
      }
      position++;
    }
    if (!url) continue;
    const width = /(\d+)w\b/.exec(descriptor);
    const density = /([\d.]+)x\b/.exec(descriptor);
    const candidate = {
      url,
      width: width?.[1] ? Number(width[1]) : 0,
      density: density?.[1] ? Number(density[1]) : 1,
    };
    if (
      !best ||
      candidate.width > best.width ||
      (candidate.width === best.width && candidate.density > best.density)
    ) {
      best = candidate;
    }
  }
  return best?.url ?? null;
}

function chosenSource(img: Element): string | null {
  const attr = (name: string) => img.attribs[name]?.trim() || null;
  for (const name of ['data-srcset', 'srcset']) {
    const value = attr(name);
    const largest = value ? largestSrcsetCandidate(value) : null;
    if (largest) return largest;
  }
  const src = attr('src');
  const lazy = attr('data-lazy-src') ?? attr('data-src');
  // A lazy image's src is usually a placeholder (often a data: GIF): the real one is in data-*.
  return lazy ?? src;
}

function closest(node: Element, test: (element: Element) => boolean): Element | null {
  let current = node.parent;
  while (current && DomUtils.isTag(current)) {
    if (test(current)) return current;
    current = current.parent;
  }
  return null;
}

function contextOf(
  img: Element,
  base: { pageTitle: string; heading: string },
  pageUrl: URL,
): ScrapedImageContext {
  const context: ScrapedImageContext = {};
  if (base.pageTitle) context.pageTitle = base.pageTitle;
  if (base.heading) context.heading = base.heading;
  const figure = closest(img, (element) => element.name === 'figure');
  const figcaption = figure
    ? DomUtils.findOne((element) => element.name === 'figcaption', figure.children, true)
    : null;
  const caption = figcaption ? textOf(figcaption) : '';
  if (caption) context.caption = caption;
  const block = closest(img, (element) => blockTags.has(element.name));
  const surrounding = block ? textOf(block) : '';
  if (surrounding) context.surroundingText = surrounding.slice(0, SURROUNDING_TEXT_MAX_CHARS);
  const link = closest(img, (element) => element.name === 'a' && Boolean(element.attribs.href?.trim()));
  if (link) {
    try {
      context.linkTarget = new URL(link.attribs.href?.trim() ?? '', pageUrl).href;
    } catch {
      // An unparsable href is no context.
    }
  }
  return context;
}

/** Resolves a source; null when it cannot be made into an http(s) URL (the row is then invalid). */
function resolveSource(source: string, baseUrl: URL): string | null {
  try {
    const url = new URL(source, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export function extractImages(html: string, pageUrl: URL, limit: number): ScrapedImage[] {
  const document = parseDocument(html);
  const titleElement = DomUtils.findOne((element) => element.name === 'title', document.children, true);
  const pageTitle = titleElement ? textOf(titleElement) : '';
  const baseElement = DomUtils.findOne(
    (element) => element.name === 'base' && Boolean(element.attribs.href?.trim()),
    document.children,
    true,
  );
  let baseUrl = pageUrl;
  if (baseElement) {
    try {
      baseUrl = new URL(baseElement.attribs.href?.trim() ?? '', pageUrl);
    } catch {
      // An unparsable <base href> is ignored, as browsers do.
    }
  }

  const images: ScrapedImage[] = [];
  const seen = new Set<string>();
  let heading = '';
  const visit = (nodes: Node[]): boolean => {
    for (const node of nodes) {
      if (!DomUtils.isTag(node)) continue;
      if (headingTags.has(node.name)) {
        heading = textOf(node) || heading;
      } else if (node.name === 'img') {
        const source = chosenSource(node);
        if (source) {
          const resolved = resolveSource(source, baseUrl);
          const key = resolved ?? source;
          if (!seen.has(key)) {
            seen.add(key);
            const alt = node.attribs.alt?.trim() ?? '';
            const context = contextOf(node, { pageTitle, heading }, pageUrl);
            images.push(
              resolved
                ? { src: resolved, alt, context, invalid: false }
                : {
                    src:
                      source.length > INVALID_SRC_MAX_CHARS
                        ? `${source.slice(0, INVALID_SRC_MAX_CHARS)}…`
                        : source,
                    alt,
                    context,
                    invalid: true,
                    error: INVALID_IMAGE_SOURCE,
                  },
            );
            if (images.length >= limit) return false;
          }
        }
      }
      // <template> content is inert: not part of the page.
      if (node.name !== 'template' && !visit(node.children as Node[])) return false;
    }
    return true;
  };
  visit(document.children);
  return images;
}
