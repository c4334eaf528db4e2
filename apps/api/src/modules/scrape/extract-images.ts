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
export type Node = Document['children'][number];
export type Element = Parameters<typeof DomUtils.getAttributeValue>[0];

const SURROUNDING_TEXT_MAX_CHARS = 300;
const INVALID_SRC_MAX_CHARS = 100;
export const headingTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
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

export const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
export const textOf = (node: Node | Element) => squash(DomUtils.textContent(node));

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

export function chosenSource(img: Element): string | null {
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

/** The nearest link (`a[href]`) or button (`button`, `role="button"`) around the image, if any. */
function interactiveAncestor(img: Element): { element: Element; role: 'link' | 'button' } | null {
  const found = closest(
    img,
    (element) =>
      element.name === 'button' ||
      element.attribs.role?.trim().toLowerCase() === 'button' ||
      (element.name === 'a' && Boolean(element.attribs.href?.trim())),
  );
  if (!found) return null;
  const isButton = found.name === 'button' || found.attribs.role?.trim().toLowerCase() === 'button';
  return { element: found, role: isButton ? 'button' : 'link' };
}

/**
 * What a link or button says without this image: its `aria-label` (which names it whatever it
 * contains), else its text and the alt of any other image in it.
 */
function ownText(control: Element, img: Element): string {
  const label = squash(control.attribs['aria-label'] ?? '');
  if (label) return label;
  const parts: string[] = [];
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      if (DomUtils.isText(node)) parts.push(node.data);
      else if (DomUtils.isTag(node) && node !== img) {
        if (node.name === 'img') parts.push(` ${node.attribs.alt ?? ''} `);
        else if (node.name !== 'template' && node.name !== 'script' && node.name !== 'style')
          walk(node.children as Node[]);
      }
    }
  };
  walk(control.children as Node[]);
  return squash(parts.join(''));
}

/**
 * The address an `onclick` handler moves to (`location.href='/news/'`, `window.open('…')`). Read with
 * bounded, non-backtracking patterns; the script is never run.
 */
function onclickTarget(element: Element): string | undefined {
  const code = (element.attribs.onclick ?? '').slice(0, 500);
  if (!code) return undefined;
  const moved =
    /\blocation(?:\.href)?\s{0,5}=\s{0,5}["']([^"']{1,400})["']/.exec(code) ??
    /\blocation\.(?:assign|replace)\(\s{0,5}["']([^"']{1,400})["']/.exec(code) ??
    /\bwindow\.open\(\s{0,5}["']([^"']{1,400})["']/.exec(code);
  return moved?.[1];
}

/** The element after `element` among its siblings, skipping text and comments. */
function nextElement(element: Element): Element | null {
  let next = element.next;
  while (next && !DomUtils.isTag(next)) next = next.next;
  return next && DomUtils.isTag(next) ? next : null;
}

/**
 * Text next to the image: the text of its block without the figure caption (that is `caption`);
 * when the block says nothing else (a figure, an image alone in a div), the paragraph after it,
 * which is where pages explain a figure.
 */
function adjacentText(img: Element, figure: Element | null, figcaption: Element | null): string {
  const block = figure ?? closest(img, (element) => blockTags.has(element.name));
  if (!block) return '';
  const parts: string[] = [];
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      if (DomUtils.isText(node)) parts.push(node.data);
      else if (DomUtils.isTag(node) && node !== figcaption && node.name !== 'template') {
        walk(node.children as Node[]);
        if (blockTags.has(node.name) || node.name === 'br') parts.push(' ');
      }
    }
  };
  walk(block.children as Node[]);
  const own = squash(parts.join(''));
  if (own) return own;
  const next = nextElement(block);
  return next && (next.name === 'p' || next.name === 'blockquote') ? textOf(next) : '';
}

export function contextOf(
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
  const surrounding = adjacentText(img, figure, figcaption);
  if (surrounding) context.surroundingText = surrounding.slice(0, SURROUNDING_TEXT_MAX_CHARS);
  // The nearest link or button decides the role: the alt text becomes its name. A figure comes next.
  const control = interactiveAncestor(img);
  if (control) {
    context.role = control.role;
    const text = ownText(control.element, img);
    if (text) context.linkText = text;
    const href = control.role === 'link' ? (control.element.attribs.href?.trim() ?? '') : '';
    // A button or a dead link ("#", "javascript:") that navigates in its onclick goes there.
    const scripted = /^(?:#|javascript:|$)/i.test(href) ? onclickTarget(control.element) : undefined;
    const target = scripted ?? (control.role === 'link' ? href : undefined);
    if (target !== undefined) {
      try {
        context.linkTarget = new URL(target, pageUrl).href;
      } catch {
        // An unparsable href is no context.
      }
    }
  } else if (figure) {
    context.role = 'figure';
  }
  return context;
}

/** Resolves a source; null when it cannot be made into an http(s) URL (the row is then invalid). */
export function resolveSource(source: string, baseUrl: URL): string | null {
  try {
    const url = new URL(source, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The parsed page, its title and the URL its relative links resolve against (`<base href>`). */
export function parsePage(
  html: string,
  pageUrl: URL,
): { document: Document; pageTitle: string; baseUrl: URL } {
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
  return { document, pageTitle, baseUrl };
}

export function extractImages(html: string, pageUrl: URL, limit: number): ScrapedImage[] {
  const { document, pageTitle, baseUrl } = parsePage(html, pageUrl);
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
