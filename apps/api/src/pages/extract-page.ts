import type { AuditImageElement } from '@altwise/contracts/audit-problems';
import { DomUtils } from 'htmlparser2';
import type { AuditImageFacts } from '../rules/checks.ts';
import { createNameReader } from './accessible-names.ts';
import {
  ANNOUNCED_TEXT_MAX_CHARS,
  type CollectedAnnouncement,
  markAnnouncements,
  type PageAnnouncements,
} from './announcements.ts';
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
} from './extract-images.ts';
import { readBrowserName } from './page-marks.ts';
import { createStyleReader, hiddenBy, readStyleRules, type StyleReader, styleTextOf } from './page-styles.ts';

/**
 * What an audit reads from one HTML page, with the scraper's parser and context rules
 * (extract-images.ts), in document order (duplicates kept: each is its own element): every
 * image-like element — `<img>` (also in a `<picture>`), `<input type=image>`, `<area
 * href>` of an image map, an inline `<svg>` that is an image (role img or graphics-*, a name, or the
 * only content of a link or button), an element with `role=img`, an `<object>` showing an image,
 * and a CSS background image on an element that carries a `title` or `aria-label`, is the only
 * content of a link or button, or is a block outside any control (a hero or banner) — with its alt as written (null when absent, "" when empty), its
 * accessible name as browsers compute it and where that name comes from (accessible-names.ts), its
 * role and context, and its width and height attributes. Image-like elements that visitors and
 * screen readers do not get (hidden, aria-hidden, zero size) are counted, not audited. Also the
 * page's same-origin links, for a site audit, and its screen-reader preview (announcements.ts).
 * Nothing is run.
 *
 * Hostile pages cost linear work: the parse is bounded (extract-images.ts), names
 * are bounded (accessible-names.ts), each labelling element's text is read once per page, and the
 * CSS read is bounded (page-styles.ts). readPage runs in a worker thread (page-worker.ts).
 */

/** Most images read from one page. */
export const MAX_AUDIT_IMAGES_PER_PAGE = 1000;
/** Most links read from one page (a site audit visits at most 500 pages anyway). */
export const MAX_AUDIT_LINKS_PER_PAGE = 2000;
/** Longest source kept for a `data:` or other non-http image. */
const INLINE_SRC_MAX_CHARS = 100;
/** Object types that show an image. */
const imageFile = /\.(?:jpe?g|png|gif|webp|avif|svg|bmp|ico|tiff?)(?:[?#]|$)/i;
const blockEnds = new Set([
  'p',
  'div',
  'li',
  'td',
  'th',
  'tr',
  'br',
  'section',
  'article',
  'aside',
  'main',
  'header',
  'footer',
  'nav',
  'ul',
  'ol',
  'table',
  'figure',
  'figcaption',
  'blockquote',
  'dd',
  'dt',
  'form',
  'label',
]);
/** Links to these are files, not pages: a site audit does not spend its pages on them. */
const fileExtensions =
  /\.(?:jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|rar|7z|mp3|mp4|m4a|wav|ogg|webm|mov|avi|docx?|xlsx?|pptx?|csv|json|xml|txt|css|js|woff2?|ttf|eot|exe|dmg|apk)$/i;

export { MAX_LABEL_IDS } from './accessible-names.ts';

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
  /** Image-like elements that visitors and screen readers do not get, left out of `images`. */
  hiddenImages: number;
  /** The screen-reader preview: what is announced for the page's headings, links and images. */
  announcements: PageAnnouncements;
  /** A rendered page's: each image's mark (pages/page-marks.ts), which pairs it with its screenshot. */
  marks: (number | null)[];
};

function dimension(value: string | undefined): number | undefined {
  const match = /^\s*(\d+)(?:\.\d+)?\s*(?:px)?\s*$/i.exec(value ?? '');
  return match?.[1] ? Number(match[1]) : undefined;
}

/** The page URL without its fragment: the key a page is visited once by. */
export function pageKey(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
}

/** A link or button: `a[href]`, `button`, role link or button, or an input that is a button. */
function controlRole(element: Element): 'link' | 'button' | undefined {
  const role = element.attribs.role?.trim().toLowerCase();
  if (role === 'link') return 'link';
  if (role === 'button') return 'button';
  if (element.name === 'a' && element.attribs.href?.trim()) return 'link';
  if (element.name === 'button') return 'button';
  const type = element.attribs.type?.trim().toLowerCase();
  if (element.name === 'input' && (type === 'submit' || type === 'button' || type === 'reset'))
    return 'button';
  return undefined;
}

/**
 * Whether `element` is the only content of a link or button that has no name of its own (no
 * aria-label, aria-labelledby or title): then it is what names the control. Reads at most two of
 * the control's children.
 */
function onlyContentOfControl(element: Element): boolean {
  const parent = element.parent;
  if (!parent || !DomUtils.isTag(parent) || !controlRole(parent)) return false;
  const named = ['aria-label', 'aria-labelledby', 'title'].some((name) => parent.attribs[name]?.trim());
  if (named) return false;
  for (const child of parent.children) {
    if (child === element) continue;
    if (DomUtils.isText(child) && !child.data.trim()) continue;
    if (DomUtils.isComment(child)) continue;
    return false;
  }
  return true;
}

/** What kind of image-like element `element` is, or null when it is none. */
function imageKindOf(element: Element, style: StyleReader): AuditImageElement | null {
  const role = element.attribs.role?.trim().toLowerCase();
  switch (element.name) {
    case 'img':
      return 'img';
    case 'input':
      return element.attribs.type?.trim().toLowerCase() === 'image' ? 'input-image' : null;
    case 'area':
      return element.attribs.href?.trim() ? 'area' : null;
    case 'svg': {
      if (role === 'img' || role?.startsWith('graphics-')) return 'svg';
      if (role) return null;
      const named =
        element.attribs['aria-label']?.trim() ||
        element.attribs['aria-labelledby']?.trim() ||
        element.children.some((child) => DomUtils.isTag(child) && child.name === 'title');
      return named || onlyContentOfControl(element) ? 'svg' : null;
    }
    case 'object': {
      const type = element.attribs.type?.trim().toLowerCase() ?? '';
      const data = element.attribs.data?.trim() ?? '';
      return role === 'img' || type.startsWith('image/') || (data && imageFile.test(data)) ? 'object' : null;
    }
    case 'html':
    case 'body':
    case 'head':
      return null;
  }
  if (role === 'img') return 'role-img';
  if (!style(element).backgroundUrl) return null;
  const carriesName = ['title', 'aria-label', 'aria-labelledby'].some((name) =>
    element.attribs[name]?.trim(),
  );
  if (carriesName) return 'css-background';
  if (onlyContentOfControl(element) && textOf(element, 1) === '') return 'css-background';
  // A picture set as a block's background (a hero, a banner, a card's photo) has no way to carry a
  // text alternative: reported for a person to say whether it is decorative. Inline elements (icon
  // sprites beside text) and backgrounds inside links and buttons (part of the control) are left out.
  return backgroundBlocks.has(element.name) && !insideControl(element) ? 'css-background' : null;
}

/** Elements whose CSS background is a picture of the page's own, when it is one. */
const backgroundBlocks = new Set([
  'div',
  'section',
  'header',
  'footer',
  'main',
  'article',
  'aside',
  'figure',
  'li',
  'td',
  'th',
]);

/** How far up insideControl looks: a bound, so that a page of deep nesting costs linear work. */
const CONTROL_ANCESTORS = 16;

/** Whether `element` is inside a link or button (within CONTROL_ANCESTORS levels). */
function insideControl(element: Element): boolean {
  let parent = element.parent;
  for (let level = 0; parent && DomUtils.isTag(parent) && level < CONTROL_ANCESTORS; level++) {
    if (controlRole(parent)) return true;
    parent = parent.parent;
  }
  return false;
}

/** Image-like elements whose children are part of the image, never separate content. */
const opaqueKinds = new Set<AuditImageElement>(['svg', 'role-img', 'object']);

/** The text between two announcements: its start and its end, with the middle left out. */
class TextBetween {
  private head = '';
  private tail = '';
  private length = 0;
  private space = false;
  add(data: string): void {
    // Whitespace between elements is one space at most, added with the next text.
    if (!data.trim()) {
      this.space = this.length > 0;
      return;
    }
    const piece = `${this.space ? ' ' : ''}${data.slice(0, 4096)}`;
    this.space = false;
    this.length += piece.length;
    if (this.head.length < ANNOUNCED_TEXT_MAX_CHARS * 2) this.head += piece;
    this.tail = (this.tail + piece.slice(-ANNOUNCED_TEXT_MAX_CHARS * 2)).slice(-ANNOUNCED_TEXT_MAX_CHARS * 2);
  }
  take(): string {
    const head = squash(this.head);
    const text =
      this.length <= ANNOUNCED_TEXT_MAX_CHARS * 2
        ? head
        : `${head.slice(0, ANNOUNCED_TEXT_MAX_CHARS / 2)} … ${squash(this.tail).slice(-ANNOUNCED_TEXT_MAX_CHARS / 2)}`;
    this.head = '';
    this.tail = '';
    this.length = 0;
    this.space = false;
    return text;
  }
}

/** The `<html lang>` of the page when it is a plausible BCP 47 tag (`en-US`, `de`); undefined otherwise. */
function pageLanguageOf(document: Parameters<typeof walkTree>[0]): string | undefined {
  let lang: string | undefined;
  walkTree(document, (node) => {
    if (!DomUtils.isTag(node)) return undefined;
    if (node.name !== 'html') return 'skip';
    lang = node.attribs.lang?.trim();
    return 'stop';
  });
  return lang && /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i.test(lang) ? lang : undefined;
}

/**
 * `marker`: a rendered page's marks (pages/page-marks.ts). A marked element's name is the one the
 * browser's accessibility tree gave it, where it gave one; others are named here.
 */
export function readPage(html: string, pageUrl: URL, marker?: string): PageReading {
  const { document, pageTitle, siteName, baseUrl, limits } = parsePage(html, pageUrl);
  const ids = new Map<string, Element>();
  const styles: Element[] = [];
  walkTree(document, (node) => {
    if (!DomUtils.isTag(node)) return undefined;
    const id = node.attribs.id;
    if (id && !ids.has(id)) ids.set(id, node);
    if (node.name === 'style') styles.push(node);
    return undefined;
  });
  const style = createStyleReader(readStyleRules(styleTextOf(styles)));
  const names = createNameReader(ids, style);
  const cache = newContextCache();
  const language = pageLanguageOf(document);
  const page = pageKey(pageUrl);
  const images: AuditImageFacts[] = [];
  const marks: (number | null)[] = [];
  const markAttribute = marker && /^[0-9a-f]{8,64}$/.test(marker) ? `data-altwise-${marker}` : null;
  const links = new Set<string>();
  let heading = '';
  let cut = false;
  let hiddenImages = 0;

  // The screen-reader preview, collected on the same walk.
  const announced: CollectedAnnouncement[] = [];
  const between = new TextBetween();
  let hiddenRoot: Element | null = null;
  let headingRoot: Element | null = null;
  let control: { element: Element; item: CollectedAnnouncement; text: string } | null = null;
  const announce = (item: CollectedAnnouncement) => {
    const text = between.take();
    if (text) announced.push({ role: 'text', name: text });
    announced.push(item);
  };

  const linkAddress = (href: string | undefined): string | undefined => {
    if (!href?.trim()) return undefined;
    try {
      return new URL(href.trim(), baseUrl).href;
    } catch {
      return href.trim().slice(0, 200);
    }
  };

  const sourceOf = (element: Element, kind: AuditImageElement): string | null => {
    switch (kind) {
      case 'img': {
        const own = chosenSource(element);
        if (own || element.parent?.type !== 'tag' || (element.parent as Element).name !== 'picture')
          return own;
        // An <img> without a source of its own in a <picture>: the first <source srcset>.
        const source = (element.parent as Element).children.find(
          (child) => DomUtils.isTag(child) && child.name === 'source' && child.attribs.srcset?.trim(),
        ) as Element | undefined;
        return source ? chosenSource(source) : null;
      }
      case 'input-image':
        return chosenSource(element);
      case 'object':
        return element.attribs.data?.trim() || null;
      case 'role-img':
      case 'css-background':
        return style(element).backgroundUrl ?? null;
      default:
        return null;
    }
  };

  const record = (element: Element, kind: AuditImageElement) => {
    const source = sourceOf(element, kind);
    const resolved = source ? resolveSource(source, baseUrl) : null;
    const src = resolved
      ? resolved
      : source
        ? source.length > INLINE_SRC_MAX_CHARS
          ? `${source.slice(0, INLINE_SRC_MAX_CHARS)}…`
          : source
        : // An element without a file (an svg, an area, a role=img) is named by its place on the page.
          `${page}#${element.attribs.id ?? `${element.name}-${images.length + 1}`}`;
    const context = contextOf(element, { pageTitle, heading, siteName }, pageUrl, cache);
    const role: AuditImageFacts['role'] =
      kind === 'input-image' ? 'button' : kind === 'area' ? 'link' : (context.role ?? 'content');
    const hasAlt = kind === 'img' || kind === 'input-image' || kind === 'area';
    const mark = markAttribute ? element.attribs[markAttribute] : undefined;
    marks.push(mark && /^\d{1,6}$/.test(mark) ? Number(mark) : null);
    const named =
      (markAttribute && readBrowserName(element.attribs[`${markAttribute}-name`], MAX_TEXT_CHARS)) ||
      names.imageNameOf(element);
    const facts: AuditImageFacts = {
      pageUrl: page,
      src,
      alt: hasAlt ? (element.attribs.alt ?? null) : null,
      element: kind,
      role,
      name: named.name,
      nameSource: named.source,
    };
    if (named.name && (named.source === 'aria-labelledby' || named.source === 'aria-label'))
      facts.ariaLabel = named.name;
    const target = kind === 'area' ? linkAddress(element.attribs.href) : context.linkTarget;
    if (target) facts.linkTarget = target;
    if (context.linkText && kind !== 'input-image') facts.linkText = context.linkText;
    if (context.caption) facts.caption = context.caption;
    if (context.surroundingText) facts.adjacentText = context.surroundingText;
    if (context.heading) facts.heading = context.heading;
    if (context.imageRow) facts.imageRow = context.imageRow;
    if (context.language) facts.language = context.language;
    if (context.siteLogo) {
      facts.siteLogo = true;
      if (context.siteName) facts.siteName = context.siteName;
    }
    const width = dimension(element.attribs.width);
    const height = dimension(element.attribs.height);
    if (width !== undefined) facts.width = width;
    if (height !== undefined) facts.height = height;
    Object.assign(facts, markupHints(element, baseUrl));
    if (language && !facts.language) facts.language = language;
    images.push(facts);
    return facts;
  };

  /** What the preview says for an audited image (in a link or button, it is part of that). */
  const announceImage = (element: Element, facts: AuditImageFacts) => {
    const name = facts.name ?? '';
    if (control) {
      control.item.image = true;
      if (name) control.item.imageNames = [...(control.item.imageNames ?? []), name];
      return;
    }
    if (facts.element === 'area') {
      announce({ role: 'link', name, image: true, ...(facts.linkTarget ? { href: facts.linkTarget } : {}) });
      return;
    }
    if (facts.element === 'input-image') {
      announce({ role: 'button', name, image: true, ...(name ? { imageNames: [name] } : {}) });
      return;
    }
    // A CSS background is announced only when it is an image by its role or names a control.
    if (facts.element === 'css-background') return;
    const role = element.attribs.role?.trim().toLowerCase();
    const decorative = !name && (facts.alt === '' || role === 'presentation' || role === 'none');
    if (!decorative) announce({ role: 'image', name });
  };

  walkTree(
    document,
    (node) => {
      if (DomUtils.isText(node)) {
        if (hiddenRoot || headingRoot) return undefined;
        if (control) {
          if (control.text.length < MAX_TEXT_CHARS) control.text += node.data.slice(0, MAX_TEXT_CHARS);
        } else between.add(node.data);
        return undefined;
      }
      if (!DomUtils.isTag(node)) return undefined;
      // <template> content is inert, scripts and styles hold no elements of the page.
      if (
        node.name === 'template' ||
        node.name === 'script' ||
        node.name === 'style' ||
        node.name === 'title'
      )
        return 'skip';
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
      const kind = imageKindOf(node, style);
      const hidden =
        hiddenRoot !== null ||
        hiddenBy(node, style) !== undefined ||
        (kind !== null && (dimension(node.attribs.width) === 0 || dimension(node.attribs.height) === 0));
      if (hidden) {
        if (kind) {
          hiddenImages++;
          return 'skip';
        }
        // Everything inside is hidden too, until the walk leaves this element.
        if (!hiddenRoot) hiddenRoot = node;
        return undefined;
      }
      if (images.length >= MAX_AUDIT_IMAGES_PER_PAGE && kind) {
        // Full: the rest of the page was looked through for one more image, to say it was left out.
        cut = true;
        return 'stop';
      }
      const descend = !(kind && opaqueKinds.has(kind));
      if (headingTags.has(node.name)) {
        heading = textOf(node) || heading;
        if (!headingRoot && !control && descend) {
          announce({ role: 'heading', level: Number(node.name.slice(1)), name: names.nameOf(node) });
          headingRoot = node;
        }
      }
      const controlAs = controlRole(node);
      if (controlAs && !control) {
        const href = controlAs === 'link' ? linkAddress(node.attribs.href) : undefined;
        const item: CollectedAnnouncement = {
          role: controlAs,
          name: names.nameOf(node),
          ...(href ? { href } : {}),
        };
        announce(item);
        if (descend && node.children.length > 0) control = { element: node, item, text: '' };
      }
      if (kind) {
        announceImage(node, record(node, kind));
      }
      // An image whose content is part of it (svg, role=img, object) is one image named by its label.
      return descend ? undefined : 'skip';
    },
    (element) => {
      if (element === hiddenRoot) hiddenRoot = null;
      if (element === headingRoot) headingRoot = null;
      if (control?.element === element) {
        const own = squash(control.text);
        if (own) control.item.ownText = own;
        control = null;
      }
      if (blockEnds.has(element.name)) {
        if (control) control.text += ' ';
        else between.add(' ');
      }
    },
  );
  links.delete(page);
  const rest = between.take();
  if (rest) announced.push({ role: 'text', name: rest });
  return {
    title: pageTitle,
    images,
    links: [...links],
    limits: cut ? [...limits, 'images'] : limits,
    hiddenImages,
    marks,
    announcements: markAnnouncements(announced, cut),
  };
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
  // A link alone in its block is read with the block around it, never past a landmark: a logo in
  // the banner and "Home" in the footer are not beside each other.
  if (
    block &&
    !isLandmark(block) &&
    block.children.filter((child) => DomUtils.isTag(child)).length === 1 &&
    block.parent &&
    DomUtils.isTag(block.parent) &&
    (block.parent as Element).name !== 'body'
  ) {
    block = block.parent as Element;
  }
  if (!block || block.name === 'body' || block.name === 'html') return undefined;
  // The links of the block in reading order; only the ones right before and after are "beside".
  const order: Element[] = [];
  let visited = 0;
  walkTree(block, (node) => {
    if (++visited > MAX_HINT_NODES) return 'stop';
    if (!DomUtils.isTag(node)) return undefined;
    if (node.name === 'a' && node.attribs.href?.trim()) {
      order.push(node);
      return 'skip';
    }
    return undefined;
  });
  const at = order.indexOf(link);
  if (at < 0) return undefined;
  for (const neighbour of [order[at - 1], order[at + 1]]) {
    if (!neighbour || address(neighbour) !== target) continue;
    const text = textOf(neighbour, 200);
    if (text) return text;
  }
  return undefined;
}

/** Elements that are landmarks of their own (HTML-AAM): a text link is beside an image link only within one. */
const landmarkElements = new Set(['header', 'footer', 'nav', 'main', 'aside', 'form']);
const landmarkRoles = new Set([
  'banner',
  'contentinfo',
  'navigation',
  'main',
  'complementary',
  'region',
  'search',
]);

function isLandmark(element: Element): boolean {
  const role = element.attribs.role?.trim().toLowerCase();
  return landmarkElements.has(element.name) || (role !== undefined && landmarkRoles.has(role));
}
