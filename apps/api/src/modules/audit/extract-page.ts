import { DomUtils } from 'htmlparser2';
import {
  chosenSource,
  contextOf,
  type Element,
  headingTags,
  MAX_TEXT_CHARS,
  newContextCache,
  type PageLimit,
  parsePage,
  resolveSource,
  squash,
  textOf,
  walkTree,
} from '../scrape/extract-images.ts';
import type { AuditImageFacts } from './checks.ts';

/**
 * What an audit reads from one HTML page, with the scraper's parser and context rules
 * (scrape/extract-images.ts): every `<img>`, `<input type=image>` and element with `role=img`, in
 * document order (duplicates kept: each is its own element), with its alt as written (null when
 * absent, "" when empty), its accessible label, its role and context, and its width and height
 * attributes; and the page's same-origin links, for a site audit. Nothing is run.
 *
 * Hostile pages cost linear work (issue 22): the parse is bounded (scrape/extract-images.ts), an
 * accessible label reads at most MAX_LABEL_IDS ids and MAX_TEXT_CHARS characters, and each
 * labelling element's text is read once per page. readPage runs in a worker thread
 * (page-worker.ts).
 */

/** Most images read from one page. */
export const MAX_AUDIT_IMAGES_PER_PAGE = 1000;
/** Most links read from one page (a site audit visits at most 500 pages anyway). */
export const MAX_AUDIT_LINKS_PER_PAGE = 2000;
/** Longest source kept for a `data:` or other non-http image. */
const INLINE_SRC_MAX_CHARS = 100;
/** Links to these are files, not pages: a site audit does not spend its pages on them. */
const fileExtensions =
  /\.(?:jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|rar|7z|mp3|mp4|m4a|wav|ogg|webm|mov|avi|docx?|xlsx?|pptx?|csv|json|xml|txt|css|js|woff2?|ttf|eot|exe|dmg|apk)$/i;

/** Most ids of one aria-labelledby that are read. */
export const MAX_LABEL_IDS = 16;

/**
 * What a page reached while it was read, for the audit's notices: the parse's limits (see
 * parsePage), and `images` when it has more than MAX_AUDIT_IMAGES_PER_PAGE images.
 */
export type ReadingLimit = PageLimit | 'images';

export type PageReading = {
  title: string;
  images: AuditImageFacts[];
  links: string[];
  limits: ReadingLimit[];
};

function dimension(value: string | undefined): number | undefined {
  const match = /^\s*(\d+)(?:\.\d+)?\s*(?:px)?\s*$/i.exec(value ?? '');
  return match?.[1] ? Number(match[1]) : undefined;
}

/**
 * aria-label, else the text of the elements aria-labelledby names (the first MAX_LABEL_IDS ids),
 * cut at MAX_TEXT_CHARS characters. `textById` reads each element's text once per page.
 */
function accessibleLabel(element: Element, textById: (id: string) => string): string | undefined {
  const label = squash((element.attribs['aria-label'] ?? '').slice(0, MAX_TEXT_CHARS * 4)).slice(
    0,
    MAX_TEXT_CHARS,
  );
  if (label) return label;
  const ids = (element.attribs['aria-labelledby'] ?? '')
    .slice(0, MAX_TEXT_CHARS * 4)
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, MAX_LABEL_IDS);
  const parts: string[] = [];
  let length = 0;
  for (const id of ids) {
    if (length > MAX_TEXT_CHARS) break;
    const part = textById(id);
    parts.push(part);
    length += part.length + 1;
  }
  const text = squash(parts.join(' ')).slice(0, MAX_TEXT_CHARS);
  return text || undefined;
}

/** The page URL without its fragment: the key a page is visited once by. */
export function pageKey(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
}

export function readPage(html: string, pageUrl: URL): PageReading {
  const { document, pageTitle, baseUrl, limits } = parsePage(html, pageUrl);
  const ids = new Map<string, Element>();
  walkTree(document, (node) => {
    const id = DomUtils.isTag(node) ? node.attribs.id : undefined;
    if (id && !ids.has(id)) ids.set(id, node as Element);
    return undefined;
  });
  const texts = new Map<string, string>();
  const textById = (id: string) => {
    let text = texts.get(id);
    if (text === undefined) {
      const found = ids.get(id);
      text = found ? textOf(found) : '';
      texts.set(id, text);
    }
    return text;
  };
  const cache = newContextCache();
  const page = pageKey(pageUrl);
  const images: AuditImageFacts[] = [];
  const links = new Set<string>();
  let heading = '';
  let cut = false;

  const record = (element: Element, kind: AuditImageFacts['element']) => {
    const source = kind === 'role-img' ? null : chosenSource(element);
    const resolved = source ? resolveSource(source, baseUrl) : null;
    const src = resolved
      ? resolved
      : source
        ? source.length > INLINE_SRC_MAX_CHARS
          ? `${source.slice(0, INLINE_SRC_MAX_CHARS)}…`
          : source
        : // An element with role=img has no source: it is named by its place on the page.
          `${page}#${element.attribs.id ?? `${element.name}-${images.length + 1}`}`;
    const context = contextOf(element, { pageTitle, heading }, pageUrl, cache);
    const role: AuditImageFacts['role'] = kind === 'input-image' ? 'button' : (context.role ?? 'content');
    const facts: AuditImageFacts = {
      pageUrl: page,
      src,
      alt: kind === 'role-img' ? null : (element.attribs.alt ?? null),
      element: kind,
      role,
    };
    const label = accessibleLabel(element, textById);
    if (label) facts.ariaLabel = label;
    if (context.linkTarget) facts.linkTarget = context.linkTarget;
    if (context.linkText && kind !== 'input-image') facts.linkText = context.linkText;
    if (context.caption) facts.caption = context.caption;
    if (context.surroundingText) facts.adjacentText = context.surroundingText;
    if (context.heading) facts.heading = context.heading;
    const width = dimension(element.attribs.width);
    const height = dimension(element.attribs.height);
    if (width !== undefined) facts.width = width;
    if (height !== undefined) facts.height = height;
    Object.assign(facts, markupHints(element, baseUrl));
    images.push(facts);
  };

  walkTree(document, (node) => {
    if (!DomUtils.isTag(node)) return undefined;
    // <template> content is inert, scripts and styles hold no elements of the page.
    if (node.name === 'template' || node.name === 'script' || node.name === 'style') return 'skip';
    const role = node.attribs.role?.trim().toLowerCase();
    const kind: AuditImageFacts['element'] | null =
      node.name === 'img'
        ? 'img'
        : node.name === 'input' && node.attribs.type?.trim().toLowerCase() === 'image'
          ? 'input-image'
          : role === 'img'
            ? 'role-img'
            : null;
    if (images.length >= MAX_AUDIT_IMAGES_PER_PAGE) {
      // Full: the rest of the page is only looked through for one more image, to say it was left out.
      if (!kind) return undefined;
      cut = true;
      return 'stop';
    }
    if (headingTags.has(node.name)) heading = textOf(node) || heading;
    if (
      (node.name === 'a' || node.name === 'area') &&
      node.attribs.href?.trim() &&
      links.size < MAX_AUDIT_LINKS_PER_PAGE
    ) {
      try {
        const target = new URL(node.attribs.href.trim(), baseUrl);
        if (target.origin === pageUrl.origin && !fileExtensions.test(target.pathname))
          links.add(pageKey(target));
      } catch {
        // An unparsable href leads nowhere.
      }
    }
    if (kind) record(node, kind);
    // An element with role=img is one image named by its label: its children are presentational.
    return kind === 'role-img' ? 'skip' : undefined;
  });
  links.delete(page);
  return { title: pageTitle, images, links: [...links], limits: cut ? [...limits, 'images'] : limits };
}

/** Most nodes one hint reads around an image (a list item before the image, a link's block). */
const MAX_HINT_NODES = 200;
/** Longest class-and-id text kept. */
const MAX_CLASS_CHARS = 200;
/** Elements whose `<header>` is theirs, not the page's banner (HTML-AAM). */
const sectioning = new Set(['article', 'aside', 'main', 'nav', 'section']);

/**
 * What the checks of ADR 060 read from the markup around one image: its title attribute; the class
 * and id of the image and of its link or button (a "site-logo", a "sales-chart"); whether it sits
 * in the page's banner; whether it is the first content of a list item (a bullet); and the text of a
 * text link to the same address beside its link. Work is bounded: one walk up the (depth-limited)
 * ancestors and at most MAX_HINT_NODES nodes per read.
 */
export function markupHints(
  image: Element,
  baseUrl: URL,
): Pick<AuditImageFacts, 'title' | 'classNames' | 'inHeader' | 'listMarker' | 'besideTextLink'> {
  const hints: ReturnType<typeof markupHints> = {};
  const title = squash((image.attribs.title ?? '').slice(0, MAX_TEXT_CHARS * 4)).slice(0, MAX_TEXT_CHARS);
  if (title) hints.title = title;
  let link: Element | null = null;
  let control: Element | null = null;
  let listItem: Element | null = null;
  let banner = false;
  // A <header> is the page's banner unless a sectioning element holds it (seen further up).
  let header = false;
  for (let node = image.parent; node && DomUtils.isTag(node); node = node.parent) {
    const element = node as Element;
    const role = element.attribs.role?.trim().toLowerCase();
    if (
      !control &&
      (element.name === 'a' || element.name === 'button' || role === 'button' || role === 'link')
    )
      control = element;
    if (!link && element.name === 'a' && element.attribs.href?.trim()) link = element;
    if (!listItem && element.name === 'li') listItem = element;
    if (role === 'banner') banner = true;
    if (element.name === 'header') header = true;
    else if (sectioning.has(element.name)) header = false;
  }
  banner ||= header;
  const classes = [image, control]
    .flatMap((element) => (element ? [element.attribs.class ?? '', element.attribs.id ?? ''] : []))
    .join(' ');
  const classNames = squash(classes.slice(0, MAX_CLASS_CHARS * 4)).slice(0, MAX_CLASS_CHARS);
  if (classNames) hints.classNames = classNames;
  if (banner) hints.inHeader = true;
  if (listItem && startsListItem(listItem, image)) hints.listMarker = true;
  const beside = link ? textLinkBeside(link, baseUrl) : undefined;
  if (beside) hints.besideTextLink = beside;
  return hints;
}

/** No text comes before the image in its list item, and some comes after it. */
function startsListItem(listItem: Element, image: Element): boolean {
  let before = false;
  let after = false;
  let seen = false;
  let visited = 0;
  walkTree(listItem, (node) => {
    if (++visited > MAX_HINT_NODES) return 'stop';
    if (node === image) {
      seen = true;
      return 'skip';
    }
    if (DomUtils.isText(node) && node.data.trim()) {
      if (seen) after = true;
      else before = true;
      return seen ? 'stop' : undefined;
    }
    return undefined;
  });
  return seen && !before && after;
}

/**
 * The text of another link with the same address in the image link's block (its parent, or the
 * grandparent when the parent only wraps the link): the "image link beside a text link" pattern.
 */
function textLinkBeside(link: Element, baseUrl: URL): string | undefined {
  const address = (element: Element) => {
    try {
      return new URL(element.attribs.href?.trim() ?? '', baseUrl).href;
    } catch {
      return undefined;
    }
  };
  const target = address(link);
  if (!target) return undefined;
  let block = link.parent && DomUtils.isTag(link.parent) ? (link.parent as Element) : null;
  if (block && block.children.filter((child) => DomUtils.isTag(child)).length === 1) {
    block = block.parent && DomUtils.isTag(block.parent) ? (block.parent as Element) : block;
  }
  if (!block) return undefined;
  let found: string | undefined;
  let visited = 0;
  walkTree(block, (node) => {
    if (++visited > MAX_HINT_NODES) return 'stop';
    if (!DomUtils.isTag(node) || node === link) return node === link ? 'skip' : undefined;
    if (node.name !== 'a' || !node.attribs.href?.trim() || address(node) !== target) return undefined;
    const text = textOf(node, 200);
    if (text) {
      found = text;
      return 'stop';
    }
    return 'skip';
  });
  return found;
}
