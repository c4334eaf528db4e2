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
