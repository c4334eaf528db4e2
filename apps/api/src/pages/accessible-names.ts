import type { AuditNameSource } from '@altwise/contracts/audit-problems';
import { computeAccessibleName } from 'dom-accessibility-api';
import { DomUtils } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import { type Element, MAX_TEXT_CHARS, squash, textOf, walkTree } from './extract-images.ts';
import type { StyleReader } from './page-styles.ts';

/**
 * Accessible names the way browsers compute them (W3C accname 1.2), by `dom-accessibility-api` on a
 * server DOM (ADR 059). The DOM is `linkedom`'s, copied from the page tree that
 * extract-images.ts already parsed under its node and depth caps, so the caps hold for it
 * too; only the subtrees a name is asked of are copied (see createNameReader), and only what a name
 * can depend on: elements with the attributes accname reads, and text (each text node cut at
 * MAX_TEXT_CHARS × 4 characters). Runs in the page worker thread.
 *
 * Costs stay linear on a hostile page: `getElementById` answers from a map (linkedom walks the
 * tree), a name whose computation would read more than MAX_NAME_NODES nodes (a link around half
 * the page, `aria-labelledby` naming the body) is read with the bounded text reader instead, and
 * `aria-labelledby` keeps its first MAX_LABEL_IDS ids.
 */

/** Most ids of one aria-labelledby that are read. */
export const MAX_LABEL_IDS = 16;
/** Most nodes one name's computation may read before the bounded text reader takes over. */
export const MAX_NAME_NODES = 2000;
const MAX_ATTRIBUTE_CHARS = MAX_TEXT_CHARS * 4;
const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/** The attributes a name, a role or a visibility can depend on; nothing else is copied. */
const copiedAttributes = new Set([
  'id',
  'role',
  'alt',
  'title',
  'hidden',
  'type',
  'href',
  'value',
  'placeholder',
  'name',
  'for',
  'aria-label',
  'aria-labelledby',
  'aria-hidden',
  'aria-owns',
]);

/** The linkedom element types are not the DOM lib's; the API only ever hands them to accname. */
// biome-ignore lint/suspicious/noExplicitAny: linkedom's and accname's Element types differ.
type DomElement = any;

export type NamedBy = { name: string | null; source: AuditNameSource };

let shared: { dom: DomElement; byId: Map<string, DomElement> } | undefined;

/**
 * The one linkedom document of this thread, made once (making one costs about a millisecond, more
 * than reading an ordinary page), with `getElementById` answered from the page's id map (linkedom
 * walks the tree). Pages are read one at a time in a thread, so each reading owns it while it runs.
 */
function namesDocument(): { dom: DomElement; byId: Map<string, DomElement> } {
  if (shared) return shared;
  const { document: dom } = parseHTML('<!doctype html><html><body></body></html>');
  const byId = new Map<string, DomElement>();
  Object.defineProperty(dom, 'getElementById', { value: (id: string) => byId.get(id) ?? null });
  shared = { dom, byId };
  return shared;
}

export type NameReader = ReturnType<typeof createNameReader>;

/**
 * The name reader of one page: `ids` is the page's first element of each id, `style` its style
 * reader (display and visibility for accname's hidden test). The DOM is built
 * lazily: an element whose name is asked for is copied with its subtree (at most MAX_NAME_NODES
 * nodes, or the bounded reader answers), and so are the elements its aria-labelledby names, each
 * node once. Building the whole page instead cost 1.8 s for 100,000 nodes (ADR 059).
 */
export function createNameReader(ids: Map<string, Element>, style: StyleReader) {
  const { dom, byId } = namesDocument();
  byId.clear();
  // This page's copies go in a container of their own, emptied when the next page is read.
  const body = dom.createElement('div') as DomElement;
  dom.body.replaceChildren(body);
  const copies = new Map<Element, DomElement>();
  const sources = new WeakMap<object, Element>();

  const copyElement = (node: Element, svg: boolean): DomElement => {
    const copy = svg ? dom.createElementNS(SVG_NAMESPACE, node.name) : dom.createElement(node.name);
    for (const [attribute, value] of Object.entries(node.attribs)) {
      if (!copiedAttributes.has(attribute) && !attribute.startsWith('aria-')) continue;
      copy.setAttribute(
        attribute,
        attribute === 'aria-labelledby' || attribute === 'aria-describedby' || attribute === 'aria-owns'
          ? value.slice(0, MAX_ATTRIBUTE_CHARS).trim().split(/\s+/).slice(0, MAX_LABEL_IDS).join(' ')
          : attribute === 'type' || attribute === 'role'
            ? // Enumerated attributes are case-insensitive in HTML; accname compares them as written.
              value.trim().toLowerCase().slice(0, 100)
            : value.slice(0, MAX_ATTRIBUTE_CHARS),
      );
    }
    // accname's fallback for <input> without `labels` reads every <label> of the page.
    if (node.name === 'input') Object.defineProperty(copy, 'labels', { value: [] });
    copies.set(node, copy);
    sources.set(copy, node);
    return copy;
  };

  const insideSvg = (element: Element): boolean => {
    for (let at: Element | null = element; at && DomUtils.isTag(at); at = at.parent as Element | null)
      if (at.name === 'svg') return true;
    return false;
  };

  /** The copy of `element` and its subtree in the name DOM (made once; call it for small subtrees). */
  const copyOf = (element: Element): DomElement => {
    const known = copies.get(element);
    if (known) return known;
    const root = copyElement(element, insideSvg(element));
    body.appendChild(root);
    if (element.name === 'script' || element.name === 'style' || element.name === 'template') return root;
    const parents: DomElement[] = [root];
    const inSvg: boolean[] = [element.name === 'svg' || insideSvg(element)];
    walkTree(
      element,
      (node) => {
        const parent = parents[parents.length - 1];
        if (DomUtils.isText(node)) {
          parent.appendChild(dom.createTextNode(node.data.slice(0, MAX_ATTRIBUTE_CHARS)));
          return undefined;
        }
        if (!DomUtils.isTag(node)) return 'skip';
        const svg = node.name === 'svg' || (inSvg[inSvg.length - 1] ?? false);
        const copy = copyElement(node, svg);
        parent.appendChild(copy);
        // Scripts, styles and templates name nothing.
        if (node.name === 'script' || node.name === 'style' || node.name === 'template') return 'skip';
        if (node.children.length > 0) {
          parents.push(copy);
          inSvg.push(svg);
        }
        return undefined;
      },
      (node) => {
        if (node.children.length > 0 && copies.get(node) === parents[parents.length - 1]) {
          parents.pop();
          inSvg.pop();
        }
      },
    );
    return root;
  };

  const noStyle = { getPropertyValue: () => '' };
  const computedStyle = (copy: DomElement, pseudo?: string | null) => {
    const source = pseudo ? undefined : sources.get(copy);
    if (!source) return noStyle;
    const facts = style(source);
    return {
      getPropertyValue: (property: string) =>
        property === 'display'
          ? (facts.display ?? '')
          : property === 'visibility'
            ? (facts.visibility ?? '')
            : '',
    };
  };
  const options = { getComputedStyle: computedStyle as never, computedStyleSupportsPseudoElements: false };

  /** Nodes in `element` and its subtree, counted up to `max` + 1. */
  const sizes = new Map<Element, number>();
  const sizeOf = (element: Element, max = MAX_NAME_NODES): number => {
    const known = sizes.get(element);
    if (known !== undefined) return known;
    let size = 1;
    walkTree(element, () => (++size > max ? 'stop' : undefined));
    sizes.set(element, size);
    return size;
  };

  const labelled = new WeakMap<Element, string[]>();
  const labelledByIds = (element: Element): string[] => {
    const value = element.attribs['aria-labelledby'];
    if (!value) return [];
    const known = labelled.get(element);
    if (known) return known;
    const found = value
      .slice(0, MAX_ATTRIBUTE_CHARS)
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, MAX_LABEL_IDS);
    labelled.set(element, found);
    return found;
  };

  /** The bounded reader's name: what accname would give for a huge subtree, in text order. */
  const boundedName = (element: Element): string => {
    const labelled = labelledByIds(element)
      .map((id) => {
        const target = ids.get(id);
        return target ? textOf(target) : '';
      })
      .filter(Boolean);
    if (labelled.length > 0) return labelled.join(' ');
    return (
      squash((element.attribs['aria-label'] ?? '').slice(0, MAX_ATTRIBUTE_CHARS)) ||
      squash((element.attribs.alt ?? '').slice(0, MAX_ATTRIBUTE_CHARS)) ||
      textOf(element) ||
      squash((element.attribs.title ?? '').slice(0, MAX_ATTRIBUTE_CHARS))
    );
  };

  /** The accessible name of `element` (computed, squashed, cut at MAX_TEXT_CHARS characters). */
  /**
   * Names of void elements (img, input, area) by the attributes a name can come from: a page of a
   * thousand images labelled alike computes the name once.
   */
  const voidNames = new Map<string, string>();
  const voidKey = (element: Element) =>
    ['aria-labelledby', 'aria-label', 'alt', 'title', 'type', 'role', 'value', 'hidden', 'aria-hidden']
      .map((attribute) => element.attribs[attribute] ?? '\u0001')
      .join('\u0000')
      .concat('\u0000', element.name);

  const nameOf = (element: Element): string => {
    if (element.children.length > 0 || !['img', 'input', 'area'].includes(element.name))
      return computeName(element);
    const key = voidKey(element);
    const known = voidNames.get(key);
    if (known !== undefined) return known;
    const name = computeName(element);
    voidNames.set(key, name);
    return name;
  };

  const computeName = (element: Element): string => {
    const targets: [string, Element][] = [];
    let cost = sizeOf(element);
    for (const id of labelledByIds(element)) {
      const target = ids.get(id);
      if (target) {
        targets.push([id, target]);
        cost += sizeOf(target);
      }
    }
    if (cost > MAX_NAME_NODES) return squash(boundedName(element)).slice(0, MAX_TEXT_CHARS);
    const copy = copyOf(element);
    for (const [id, target] of targets) byId.set(id, copyOf(target));
    let name = computeAccessibleName(copy, options);
    const labelledBy = copy.getAttribute('aria-labelledby');
    if (!name.trim() && labelledBy) {
      // accname 1.2 step 2B goes on to aria-label, alt and title when the ids name nothing;
      // dom-accessibility-api stops there, so the name is computed again without them.
      copy.removeAttribute('aria-labelledby');
      name = computeAccessibleName(copy, options);
      copy.setAttribute('aria-labelledby', labelledBy);
    }
    return squash(name).slice(0, MAX_TEXT_CHARS);
  };

  /**
   * The name of an audited image and where it comes from, by accname's order: aria-labelledby >
   * aria-label > alt (an svg's `<title>`) > title. `name` is null when there is none.
   */
  const imageNameOf = (element: Element): NamedBy => {
    const name = nameOf(element);
    if (!name) return { name: null, source: 'none' };
    const labelledBy = labelledByIds(element).some((id) => {
      const target = ids.get(id);
      return target !== undefined && textOf(target, 1) !== '';
    });
    if (labelledBy) return { name, source: 'aria-labelledby' };
    if (squash(element.attribs['aria-label'] ?? '')) return { name, source: 'aria-label' };
    const alt = element.attribs.alt;
    if (alt !== undefined && squash(alt) && element.name !== 'svg') return { name, source: 'alt' };
    if (
      element.name === 'svg' &&
      element.children.some((child) => DomUtils.isTag(child) && child.name === 'title')
    )
      return { name, source: 'svg-title' };
    if (squash(element.attribs.title ?? '')) return { name, source: 'title' };
    // A default name (an image button's "Submit Query") is the browser's, not the page's.
    return { name: null, source: 'none' };
  };

  return { nameOf, imageNameOf };
}
