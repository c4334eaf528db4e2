import { normalizeImageUrl } from '@altwise/contracts/image-urls';
import { languageTagOf, MAX_IMAGE_ROW } from '@altwise/contracts/page-context';
import { INVALID_IMAGE_SOURCE, type ScrapedImage, type ScrapedImageContext } from '@altwise/contracts/scrape';
import { DomHandler, DomUtils, Parser } from 'htmlparser2';

/**
 * The `img` elements of an HTML page, as the scrape call answers them: one row per image in
 * document order, its best source (the largest `srcset` candidate, then the lazy-loading
 * attributes, then `src`) resolved against `<base href>` and the page URL, duplicates removed,
 * `data:` and other non-http sources kept as invalid rows, and the page context around it.
 * The HTML is parsed, never run.
 *
 * Pages are untrusted (ADR 048): the parse keeps at most MAX_PAGE_NODES nodes and
 * MAX_PAGE_DEPTH levels, every walk over the tree is a loop (never recursion, which deep pages
 * overflow), and every text read (a label, a caption, a heading) stops after a bounded number of
 * characters and nodes, so that the work per page is linear in its size. These functions run in a
 * worker thread (page-worker.ts), never on the API's event loop.
 */

type Document = DomHandler['root'];
export type Node = Document['children'][number];
export type Element = Parameters<typeof DomUtils.getAttributeValue>[0];

/** Most nodes (elements, texts, comments) read from one page: the rest of a larger page is not read. */
export const MAX_PAGE_NODES = 100_000;
/**
 * Deepest nesting kept. An element opened deeper becomes a sibling at this depth, as browsers'
 * parsers do (Blink's limit is 512), so its images are still read; the parser's own stack, which
 * is quadratic in depth, stays short.
 */
export const MAX_PAGE_DEPTH = 512;
/** Most characters of one text read from the page: a title, heading, caption, link text or label. */
export const MAX_TEXT_CHARS = 1000;
/** Most nodes one text read visits: a caption or link text is never the whole page. */
const MAX_TEXT_NODES = 2000;

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

/**
 * Squashed text (whitespace runs as one space, trimmed) gathered piece by piece, cut at `max`
 * characters: the result equals squash(all pieces).slice(0, max), but a huge text node costs no
 * more than `max` characters of work.
 */
class TextCollector {
  private text = '';
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  /** More than `max` characters are in hand: the rest cannot change the result. */
  get full(): boolean {
    return this.text.length > this.max;
  }
  add(data: string): void {
    for (let at = 0; at < data.length && !this.full; at += 4096) {
      let piece = data.slice(at, at + 4096).replace(/\s+/g, ' ');
      if (piece.startsWith(' ') && (this.text === '' || this.text.endsWith(' '))) piece = piece.slice(1);
      this.text += piece;
    }
  }
  result(): string {
    return this.full ? this.text.slice(0, this.max) : this.text.trimEnd();
  }
}

type Visit = 'skip' | 'stop' | undefined;

/**
 * Visits the nodes inside `container` in document order with a loop over the tree's own links
 * (first child, next sibling, parent): no recursion and no stack, so any depth is safe.
 * `enter` may skip a node's children or stop the walk; `leave` is called for each element whose
 * children were visited (or that has none), after them. False when the walk was stopped.
 */
export function walkTree(
  container: { children: Node[] },
  enter: (node: Node) => Visit,
  leave?: (element: Element) => void,
): boolean {
  let node: Node | null = container.children[0] ?? null;
  while (node) {
    const visit = enter(node);
    if (visit === 'stop') return false;
    if (visit !== 'skip' && DomUtils.hasChildren(node) && node.children.length > 0) {
      node = node.children[0] as Node;
      continue;
    }
    if (visit !== 'skip' && leave && DomUtils.isTag(node)) leave(node);
    while (node && !node.next) {
      const parent: Node | null = (node.parent as Node | null) ?? null;
      if (!parent || parent === (container as unknown)) return true;
      if (leave && DomUtils.isTag(parent)) leave(parent);
      node = parent;
    }
    node = (node?.next as Node | null) ?? null;
  }
  return true;
}

/** The first element inside `container` (document order) that passes `test`, or null. */
export function findFirst(
  container: { children: Node[] },
  test: (element: Element) => boolean,
): Element | null {
  let found: Element | null = null;
  walkTree(container, (node) => {
    if (DomUtils.isTag(node) && test(node)) {
      found = node;
      return 'stop';
    }
    return undefined;
  });
  return found;
}

/**
 * The text inside `node`, squashed and cut at `max` characters; a read stops after
 * MAX_TEXT_NODES nodes, so no text read costs more than a bounded amount of work.
 */
export function textOf(node: Node | Element, max = MAX_TEXT_CHARS): string {
  const text = new TextCollector(max);
  if (DomUtils.isText(node)) text.add(node.data);
  if (!DomUtils.hasChildren(node)) return text.result();
  let visited = 0;
  walkTree(node, (inner) => {
    if (++visited > MAX_TEXT_NODES || text.full) return 'stop';
    if (DomUtils.isText(inner)) text.add(inner.data);
    return undefined;
  });
  return text.result();
}

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

/**
 * The language of an element's place (ADR 071): the `lang` (or `xml:lang`) of the element or its
 * nearest ancestor that has one, `<html lang>` included. An empty or malformed value means the
 * language is unknown, as in HTML, and the search stops there.
 */
export function languageOf(element: Element): string | undefined {
  for (let current: Element | null = element; current; ) {
    const value = current.attribs.lang ?? current.attribs['xml:lang'];
    if (value !== undefined) return languageTagOf(value);
    const parent: Element['parent'] = current.parent;
    current = parent && DomUtils.isTag(parent) ? parent : null;
  }
  return undefined;
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
  const label = squash((control.attribs['aria-label'] ?? '').slice(0, MAX_TEXT_CHARS * 4));
  if (label) return label.slice(0, MAX_TEXT_CHARS);
  const text = new TextCollector(MAX_TEXT_CHARS);
  let visited = 0;
  walkTree(control, (node) => {
    if (++visited > MAX_TEXT_NODES || text.full) return 'stop';
    if (DomUtils.isText(node)) text.add(node.data);
    else if (DomUtils.isTag(node)) {
      if (node === img) return 'skip';
      if (node.name === 'img') {
        text.add(` ${node.attribs.alt ?? ''} `);
        return 'skip';
      }
      if (node.name === 'template' || node.name === 'script' || node.name === 'style') return 'skip';
    }
    return undefined;
  });
  return text.result();
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
 * What contextOf learns once per page: a block's adjacent text and a figure's caption are the same
 * for every image in them, so a page of many images in one block reads that block once.
 */
export type ContextCache = {
  adjacent: Map<Element, string>;
  figcaptions: Map<Element, Element | null>;
  /** Per parent element, the rows of images among its children (see imageRowsIn). */
  rows: Map<Element, Map<Element, ImageRow>>;
  /** The page's elements by id, read once when an aria-labelledby needs them. */
  ids?: Map<string, Element>;
};

export const newContextCache = (): ContextCache => ({
  adjacent: new Map(),
  figcaptions: new Map(),
  rows: new Map(),
});

type ImageRow = { position: number; files: string[] };

/** The last segment of an image's source, without query or fragment ("…/star-full.png?v=2" → "star-full.png"). */
function sourceFileName(img: Element): string {
  const source = chosenSource(img) ?? '';
  if (/^data:/i.test(source)) return '';
  const path = source.replace(/[?#].*$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1).slice(0, 400);
  try {
    return decodeURIComponent(last).slice(0, 200);
  } catch {
    return last.slice(0, 200);
  }
}

/**
 * The rows of images among `parent`'s children: runs of 3 to MAX_IMAGE_ROW `img` elements with
 * only white space or comments between them (the stars of a rating, W3C "groups of images"). Read
 * once per parent, so a page of many images in one element costs one pass over its children.
 */
function imageRowsIn(parent: Element, cache: ContextCache): Map<Element, ImageRow> {
  const known = cache.rows.get(parent);
  if (known) return known;
  const rows = new Map<Element, ImageRow>();
  let run: Element[] = [];
  const close = () => {
    if (run.length >= 3 && run.length <= MAX_IMAGE_ROW) {
      const files = run.map(sourceFileName);
      run.forEach((img, index) => {
        rows.set(img, { position: index + 1, files });
      });
    }
    run = [];
  };
  for (const child of parent.children) {
    if (DomUtils.isTag(child) && child.name === 'img') run.push(child);
    else if (DomUtils.isComment(child) || (DomUtils.isText(child) && !child.data.trim())) continue;
    else close();
  }
  close();
  cache.rows.set(parent, rows);
  return rows;
}

/** Roles whose children are part of one picture (WAI-ARIA: children presentational). */
function isPictureRole(element: Element): boolean {
  const role = element.attribs.role?.trim().toLowerCase().split(/\s+/)[0] ?? '';
  return role === 'img' || role.startsWith('graphics-');
}

/**
 * The name of a `role="img"` (or graphics-*) element around the image: its aria-label, the text of
 * the elements its aria-labelledby names (the page's ids read once), else its title. Empty when it
 * has none.
 */
function pictureName(picture: Element, cache: ContextCache): string {
  const label = squash((picture.attribs['aria-label'] ?? '').slice(0, MAX_TEXT_CHARS * 4));
  if (label) return label.slice(0, MAX_TEXT_CHARS);
  const labelledBy = (picture.attribs['aria-labelledby'] ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 10);
  if (labelledBy.length > 0) {
    if (!cache.ids) {
      const ids = new Map<string, Element>();
      let root: Element | Document = picture;
      while (root.parent) root = root.parent as Element | Document;
      walkTree(root, (node) => {
        if (DomUtils.isTag(node) && node.attribs.id && !ids.has(node.attribs.id))
          ids.set(node.attribs.id, node);
        return undefined;
      });
      cache.ids = ids;
    }
    const ids = cache.ids;
    const text = squash(
      labelledBy
        .map((id) => ids.get(id))
        .filter((element): element is Element => Boolean(element))
        .map((element) => textOf(element))
        .join(' '),
    ).slice(0, MAX_TEXT_CHARS);
    if (text) return text;
  }
  return squash((picture.attribs.title ?? '').slice(0, MAX_TEXT_CHARS * 4)).slice(0, MAX_TEXT_CHARS);
}

/** Elements whose `<header>` is theirs, not the page's banner (HTML-AAM). */
const sectioningTags = new Set(['article', 'aside', 'main', 'nav', 'section']);

/** "logo" in a file name, class or id ("site-logo", "logo_main.png", "brandLogo"). */
export const saysLogo = (text: string) => /logo/i.test(text);

/**
 * The image looks like the site's own logo: it sits in the page's banner (a `<header>` that no
 * article, aside, main, nav or section holds, or role=banner) and its file name, or the class or id
 * of it or its link, says "logo".
 */
function looksLikeSiteLogo(img: Element): boolean {
  let banner = false;
  let header = false;
  let marked = saysLogo(
    `${sourceFileName(img)} ${img.attribs.class ?? ''} ${img.attribs.id ?? ''}`.slice(0, 1000),
  );
  for (let node = img.parent; node && DomUtils.isTag(node); node = node.parent) {
    const element = node as Element;
    if (element.attribs.role?.trim().toLowerCase() === 'banner') banner = true;
    if (element.name === 'header') header = true;
    else if (sectioningTags.has(element.name)) header = false;
    if (!marked && element.name === 'a')
      marked = saysLogo(`${element.attribs.class ?? ''} ${element.attribs.id ?? ''}`.slice(0, 1000));
  }
  return marked && (banner || header);
}

/**
 * Text next to the image: the text of its block without the figure caption (that is `caption`);
 * when the block says nothing else (a figure, an image alone in a div), the paragraph after it,
 * which is where pages explain a figure. At most SURROUNDING_TEXT_MAX_CHARS characters.
 */
function adjacentText(
  img: Element,
  figure: Element | null,
  figcaption: Element | null,
  cache: ContextCache,
): string {
  const block = figure ?? closest(img, (element) => blockTags.has(element.name));
  if (!block) return '';
  const known = cache.adjacent.get(block);
  if (known !== undefined) return known;
  const text = new TextCollector(SURROUNDING_TEXT_MAX_CHARS);
  let visited = 0;
  walkTree(
    block,
    (node) => {
      if (++visited > MAX_TEXT_NODES || text.full) return 'stop';
      if (DomUtils.isText(node)) text.add(node.data);
      else if (!DomUtils.isTag(node) || node === figcaption || node.name === 'template') return 'skip';
      return undefined;
    },
    (element) => {
      if (blockTags.has(element.name) || element.name === 'br') text.add(' ');
    },
  );
  let found = text.result();
  if (!found) {
    const next = nextElement(block);
    found =
      next && (next.name === 'p' || next.name === 'blockquote')
        ? textOf(next, SURROUNDING_TEXT_MAX_CHARS)
        : '';
  }
  cache.adjacent.set(block, found);
  return found;
}

export function contextOf(
  img: Element,
  base: { pageTitle: string; heading: string; siteName?: string },
  pageUrl: URL,
  cache: ContextCache = newContextCache(),
): ScrapedImageContext {
  const context: ScrapedImageContext = {};
  if (base.pageTitle) context.pageTitle = base.pageTitle;
  if (base.heading) context.heading = base.heading;
  const figure = closest(img, (element) => element.name === 'figure');
  let figcaption: Element | null = null;
  if (figure) {
    const known = cache.figcaptions.get(figure);
    figcaption = known !== undefined ? known : findFirst(figure, (element) => element.name === 'figcaption');
    cache.figcaptions.set(figure, figcaption);
  }
  const caption = figcaption ? textOf(figcaption) : '';
  if (caption) context.caption = caption;
  const surrounding = adjacentText(img, figure, figcaption, cache);
  if (surrounding) context.surroundingText = surrounding;
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
    // A "more" arrow or teaser picture alone in its link names the story it belongs to: the heading
    // or bold teaser of its own list item, cell, row or article, so several arrows on one page differ.
    const teaser = text ? '' : teaserHeadingOf(control.element);
    if (teaser) context.heading = teaser;
  } else if (figure) {
    context.role = 'figure';
  }
  const picture = closest(img, isPictureRole);
  const name = picture ? pictureName(picture, cache) : '';
  if (name) context.partOfPicture = name;
  const parent = img.parent;
  const row = parent && DomUtils.isTag(parent) ? imageRowsIn(parent, cache).get(img) : undefined;
  if (row) context.imageRow = row;
  if (base.siteName) context.siteName = base.siteName;
  if (looksLikeSiteLogo(img)) context.siteLogo = true;
  const language = languageOf(img);
  if (language) context.language = language;
  return context;
}

/** Blocks that hold one teaser: a list item, a table cell or row, an article. */
const teaserBlocks = new Set(['li', 'td', 'tr', 'article']);

/**
 * The heading, or failing that the bold text, of the list item, table cell, row or article a link
 * sits in, outside the link itself; '' when the link is in none or the block has neither.
 */
function teaserHeadingOf(link: Element): string {
  const block = closest(link, (element) => teaserBlocks.has(element.name));
  if (!block) return '';
  const outsideLink = (element: Element) => !closest(element, (e) => e === link);
  for (const wanted of [headingTags, new Set(['strong', 'b'])]) {
    const found = findFirst(block, (element) => wanted.has(element.name) && outsideLink(element));
    const text = found ? textOf(found) : '';
    if (text) return text;
  }
  return '';
}

/**
 * Resolves a source, without its fragment (one image, one row); null when it cannot be made into
 * an http(s) URL (the row is then invalid).
 */
export function resolveSource(source: string, baseUrl: URL): string | null {
  try {
    const url = new URL(source, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? normalizeImageUrl(url) : null;
  } catch {
    return null;
  }
}

/** The limit a page reached while it was parsed: `nodes` lost the rest of the page, `depth` only flattened it. */
export type PageLimit = 'nodes' | 'depth';

/** Builds the tree and stops the parser once the page has MAX_PAGE_NODES nodes. */
class BoundedHandler extends DomHandler {
  nodes = 0;
  limits = new Set<PageLimit>();
  owner: Parser | null = null;
  /** Elements open now, which is the depth the next element opens at. */
  get depth(): number {
    return this.tagStack.length - 1;
  }
  protected override addNode(node: Parameters<DomHandler['addNode']>[0]): void {
    if (this.limits.has('nodes')) return;
    if (++this.nodes > MAX_PAGE_NODES) {
      this.limits.add('nodes');
      this.owner?.pause();
      return;
    }
    super.addNode(node);
  }
}

/**
 * htmlparser2's parser, with elements opened deeper than MAX_PAGE_DEPTH read as void: they close at
 * once and what they contain becomes their siblings. The parser keeps its open elements in an
 * array it shifts at every tag, so without this a page of 200,000 nested divs takes seconds.
 */
class BoundedParser extends Parser {
  private flatten = false;
  private readonly handler: BoundedHandler;
  constructor(handler: BoundedHandler) {
    super(handler);
    this.handler = handler;
    handler.owner = this;
  }
  override onopentagname(start: number, endIndex: number): void {
    this.flatten = this.handler.depth >= MAX_PAGE_DEPTH;
    super.onopentagname(start, endIndex);
  }
  override onclosetag(start: number, endIndex: number): void {
    this.flatten = false;
    super.onclosetag(start, endIndex);
  }
  protected override isVoidElement(name: string): boolean {
    if (super.isVoidElement(name)) return true;
    // An element that could hold others, opened too deep: the page is reshaped, and says so.
    if (this.flatten) this.handler.limits.add('depth');
    return this.flatten;
  }
}

/**
 * The parsed page, its title, the URL its relative links resolve against (`<base href>`) and the
 * limits it reached (see MAX_PAGE_NODES, MAX_PAGE_DEPTH).
 */
export function parsePage(
  html: string,
  pageUrl: URL,
): { document: Document; pageTitle: string; siteName: string; baseUrl: URL; limits: PageLimit[] } {
  const handler = new BoundedHandler();
  new BoundedParser(handler).end(html);
  const document = handler.root;
  const titleElement = findFirst(document, (element) => element.name === 'title');
  const pageTitle = titleElement ? textOf(titleElement) : '';
  const siteNameElement = findFirst(
    document,
    (element) =>
      element.name === 'meta' &&
      (element.attribs.property ?? element.attribs.name ?? '').trim().toLowerCase() === 'og:site_name',
  );
  const siteName = squash((siteNameElement?.attribs.content ?? '').slice(0, MAX_TEXT_CHARS)).slice(0, 200);
  const baseElement = findFirst(
    document,
    (element) => element.name === 'base' && Boolean(element.attribs.href?.trim()),
  );
  let baseUrl = pageUrl;
  if (baseElement) {
    try {
      baseUrl = new URL(baseElement.attribs.href?.trim() ?? '', pageUrl);
    } catch {
      // An unparsable <base href> is ignored, as browsers do.
    }
  }
  return { document, pageTitle, siteName, baseUrl, limits: [...handler.limits] };
}

export function extractImages(html: string, pageUrl: URL, limit: number): ScrapedImage[] {
  return readImages(html, pageUrl, limit).images;
}

/** The page's images, and the limits the page reached (a `nodes` limit means images may be missing). */
export function readImages(
  html: string,
  pageUrl: URL,
  limit: number,
): { images: ScrapedImage[]; limits: PageLimit[] } {
  const { document, pageTitle, siteName, baseUrl, limits } = parsePage(html, pageUrl);
  const images: ScrapedImage[] = [];
  const seen = new Set<string>();
  const cache = newContextCache();
  let heading = '';
  walkTree(document, (node) => {
    if (!DomUtils.isTag(node)) return undefined;
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
          const context = contextOf(node, { pageTitle, heading, siteName }, pageUrl, cache);
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
          if (images.length >= limit) return 'stop';
        }
      }
    }
    // <template> content is inert: not part of the page.
    return node.name === 'template' ? 'skip' : undefined;
  });
  return { images, limits };
}
