import { DomUtils } from 'htmlparser2';
import {
  chosenSource,
  contextOf,
  type Element,
  headingTags,
  type Node,
  parsePage,
  resolveSource,
  squash,
  textOf,
} from '../scrape/extract-images.ts';
import type { AuditImageFacts } from './checks.ts';

/**
 * What an audit reads from one HTML page, with the scraper's parser and context rules
 * (scrape/extract-images.ts): every `<img>`, `<input type=image>` and element with `role=img`, in
 * document order (duplicates kept: each is its own element), with its alt as written (null when
 * absent, "" when empty), its accessible label, its role and context, and its width and height
 * attributes; and the page's same-origin links, for a site audit. Nothing is run.
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

export type PageReading = { title: string; images: AuditImageFacts[]; links: string[] };

function dimension(value: string | undefined): number | undefined {
  const match = /^\s*(\d+)(?:\.\d+)?\s*(?:px)?\s*$/i.exec(value ?? '');
  return match?.[1] ? Number(match[1]) : undefined;
}

/** aria-label, else the text of the elements aria-labelledby names. */
function accessibleLabel(element: Element, byId: (id: string) => Element | null): string | undefined {
  const label = squash(element.attribs['aria-label'] ?? '');
  if (label) return label;
  const ids = (element.attribs['aria-labelledby'] ?? '').split(/\s+/).filter(Boolean);
  const text = squash(
    ids
      .map((id) => byId(id))
      .filter((found): found is Element => found !== null)
      .map((found) => textOf(found))
      .join(' '),
  );
  return text || undefined;
}

/** The page URL without its fragment: the key a page is visited once by. */
export function pageKey(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
}

export function readPage(html: string, pageUrl: URL): PageReading {
  const { document, pageTitle, baseUrl } = parsePage(html, pageUrl);
  const ids = new Map<string, Element>();
  for (const element of DomUtils.findAll((e) => Boolean(e.attribs.id), document.children)) {
    const id = element.attribs.id as string;
    if (!ids.has(id)) ids.set(id, element);
  }
  const byId = (id: string) => ids.get(id) ?? null;
  const page = pageKey(pageUrl);
  const images: AuditImageFacts[] = [];
  const links = new Set<string>();
  let heading = '';

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
    const context = contextOf(element, { pageTitle, heading }, pageUrl);
    const role: AuditImageFacts['role'] = kind === 'input-image' ? 'button' : (context.role ?? 'content');
    const facts: AuditImageFacts = {
      pageUrl: page,
      src,
      alt: kind === 'role-img' ? null : (element.attribs.alt ?? null),
      element: kind,
      role,
    };
    const label = accessibleLabel(element, byId);
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

  const visit = (nodes: Node[]) => {
    for (const node of nodes) {
      if (!DomUtils.isTag(node) || images.length >= MAX_AUDIT_IMAGES_PER_PAGE) continue;
      // <template> content is inert, scripts and styles hold no elements of the page.
      if (node.name === 'template' || node.name === 'script' || node.name === 'style') continue;
      const role = node.attribs.role?.trim().toLowerCase();
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
      if (node.name === 'img') {
        record(node, 'img');
      } else if (node.name === 'input' && node.attribs.type?.trim().toLowerCase() === 'image') {
        record(node, 'input-image');
      } else if (role === 'img') {
        // Its children are presentational: the element is one image named by its label.
        record(node, 'role-img');
        continue;
      }
      visit(node.children as Node[]);
    }
  };
  visit(document.children);
  links.delete(page);
  return { title: pageTitle, images, links: [...links] };
}
