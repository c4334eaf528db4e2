import type { AuditNameSource } from '@altwise/contracts/audit-problems';
import type { CDPSession } from 'playwright-core';

/**
 * What the browser knows of a rendered page's image-like elements (ADR 061), handed to the
 * page reader inside the HTML it reads: each candidate element gets an attribute named by a random
 * marker of this render (`data-altwise-<marker>="<n>"`, its place among the candidates, which pairs
 * it with its screenshot box) and, where the browser's accessibility tree names it, a second one
 * (`data-altwise-<marker>-name`, `{"name", "source"}` as JSON). The reader (extract-page.ts) still
 * decides which elements are images; a page's own script cannot guess the marker beforehand.
 */

/** Most elements marked on a page (the reader keeps 1,000 images a page). */
export const MAX_MARKED_ELEMENTS = 1000;
/** Most elements named from the browser's accessibility tree; the rest are named on the server. */
export const MAX_BROWSER_NAMES = 300;

export type MarkBox = { index: number; x: number; y: number; w: number; h: number };
export type PageMarks = { count: number; boxes: MarkBox[]; height: number; width: number };

/**
 * Runs in the page (as text: the server has no DOM types). Marks every element that may be an
 * image, in document order: `img`, `input type=image`, `area`, `svg`, `role=img`, `object`, and
 * elements that carry a name or are inside a link or button and have a CSS background image. The
 * first `maxBoxes` on-screen ones (down to `maxHeight` CSS px) get their box in page coordinates:
 * an `<area>`'s is its shape's bounding box within the image that uses its map.
 */
export const MARK_ELEMENTS = `({ attribute, max, maxBoxes, maxHeight }) => {
  const definite = 'img, input[type="image" i], area, svg, [role="img" i], object';
  const named = '[title], [aria-label], [aria-labelledby], a *, button *, [role="button" i] *, [role="link" i] *';
  const boxOf = (element) => {
    if (element.localName !== 'area') {
      const rect = element.getBoundingClientRect();
      return { x: rect.left + window.scrollX, y: rect.top + window.scrollY, w: rect.width, h: rect.height };
    }
    const map = element.closest('map');
    const mapName = map && (map.getAttribute('name') || map.id);
    if (!mapName) return null;
    const image = [...document.querySelectorAll('img[usemap], input[usemap]')].find(
      (candidate) => candidate.getAttribute('usemap') === '#' + mapName,
    );
    if (!image) return null;
    const rect = image.getBoundingClientRect();
    const numbers = (element.getAttribute('coords') || '').split(/[\\s,]+/).filter(Boolean).map(Number);
    const shape = (element.getAttribute('shape') || 'rect').toLowerCase();
    let box = [0, 0, rect.width, rect.height];
    if (numbers.some((n) => !Number.isFinite(n))) box = [0, 0, rect.width, rect.height];
    else if ((shape === 'rect' || shape === 'rectangle') && numbers.length >= 4)
      box = [Math.min(numbers[0], numbers[2]), Math.min(numbers[1], numbers[3]), Math.max(numbers[0], numbers[2]), Math.max(numbers[1], numbers[3])];
    else if ((shape === 'circle' || shape === 'circ') && numbers.length >= 3)
      box = [numbers[0] - numbers[2], numbers[1] - numbers[2], numbers[0] + numbers[2], numbers[1] + numbers[2]];
    else if ((shape === 'poly' || shape === 'polygon') && numbers.length >= 6) {
      const xs = numbers.filter((_, i) => i % 2 === 0);
      const ys = numbers.filter((_, i) => i % 2 === 1);
      box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    }
    const x0 = Math.max(0, Math.min(rect.width, box[0]));
    const y0 = Math.max(0, Math.min(rect.height, box[1]));
    const x1 = Math.max(0, Math.min(rect.width, box[2]));
    const y1 = Math.max(0, Math.min(rect.height, box[3]));
    return { x: rect.left + window.scrollX + x0, y: rect.top + window.scrollY + y0, w: x1 - x0, h: y1 - y0 };
  };
  const boxes = [];
  let count = 0;
  let looked = 0;
  for (const element of document.querySelectorAll(definite + ', ' + named)) {
    if (count >= max || looked >= max * 20) break;
    looked++;
    if (!element.matches(definite)) {
      const image = getComputedStyle(element).backgroundImage;
      if (!image || !image.includes('url(')) continue;
    }
    element.setAttribute(attribute, String(count));
    if (boxes.length < maxBoxes) {
      const box = boxOf(element);
      if (box && box.w >= 1 && box.h >= 1 && box.y < maxHeight) boxes.push({ index: count, ...box });
    }
    count++;
  }
  return {
    count,
    boxes,
    height: Math.min(document.documentElement.scrollHeight, maxHeight),
    width: Math.min(document.documentElement.scrollWidth, 4 * 1280),
  };
}`;

type AxValue = { type?: string; value?: unknown };
type AxSource = {
  type?: string;
  attribute?: string;
  nativeSource?: string;
  value?: AxValue;
  superseded?: boolean;
};
type AxNode = { ignored?: boolean; role?: AxValue; name?: { value?: unknown; sources?: AxSource[] } };

/** Roles that are no image to the browser: a CSS background on a `div` with a title is one, and ARIA forbids naming it. */
const unnamedRoles = new Set(['generic', 'none', 'presentation', 'GenericContainer', 'Section', 'paragraph']);

export type BrowserName = { name: string | null; source: AuditNameSource };

/**
 * Our name and `nameSource` from a node of Chromium's accessibility tree, or null when the server
 * should name the element instead: the node is ignored (an `alt=""` image, an `<area>` read outside
 * its image), it is no image to the browser (a CSS background on a generic element, which ARIA does
 * not let be named: the audit keeps judging its title), or its name comes from a source the audit
 * has no word for (contents, a label).
 */
export function nameOfAxNode(node: AxNode | undefined): BrowserName | null {
  if (!node || node.ignored) return null;
  if (typeof node.role?.value === 'string' && unnamedRoles.has(node.role.value)) return null;
  const name = typeof node.name?.value === 'string' ? node.name.value.replace(/\s+/g, ' ').trim() : '';
  if (!name) return { name: null, source: 'none' };
  const chosen = (node.name?.sources ?? []).find(
    (source) => !source.superseded && typeof source.value?.value === 'string' && source.value.value.trim(),
  );
  if (!chosen) return null;
  if (chosen.attribute === 'aria-labelledby') return { name, source: 'aria-labelledby' };
  if (chosen.attribute === 'aria-label') return { name, source: 'aria-label' };
  if (chosen.attribute === 'alt') return { name, source: 'alt' };
  if (chosen.attribute === 'title') return { name, source: 'title' };
  if (chosen.type === 'relatedElement' && chosen.nativeSource === 'title')
    return { name, source: 'svg-title' };
  // An image button's "Submit" is the browser's default, not the page's: no name, like the server's.
  if (chosen.attribute === 'type') return { name: null, source: 'none' };
  return null;
}

/**
 * Names the marked elements from the browser's accessibility tree (Chromium's own accname, which
 * sees CSS-generated content, styles from every stylesheet and what scripts changed), writing each
 * name on its element for the reader. The DOM and accessibility agents are switched off again after,
 * so the page does not pay for keeping them up to date.
 */
export async function nameMarkedElements(cdp: CDPSession, attribute: string): Promise<number> {
  let named = 0;
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', {
      nodeId: root.nodeId,
      selector: `[${attribute}]`,
    });
    await Promise.all(
      nodeIds.slice(0, MAX_BROWSER_NAMES).map(async (nodeId) => {
        const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
        const found = nameOfAxNode(nodes[0] as AxNode | undefined);
        if (!found) return;
        await cdp.send('DOM.setAttributeValue', {
          nodeId,
          name: `${attribute}-name`,
          value: JSON.stringify(found),
        });
        named++;
      }),
    );
  } finally {
    await cdp.send('Accessibility.disable').catch(() => {});
    await cdp.send('DOM.disable').catch(() => {});
  }
  return named;
}

const nameSources = new Set<string>(['aria-labelledby', 'aria-label', 'alt', 'title', 'svg-title', 'none']);

/** The browser's name as the reader finds it on an element (see nameMarkedElements), or null. */
export function readBrowserName(value: string | undefined, maxChars: number): BrowserName | null {
  // JSON may escape each character in up to 6 (\uXXXX); more than that was not written by us.
  if (!value || value.length > maxChars * 6 + 64) return null;
  try {
    const parsed = JSON.parse(value) as { name?: unknown; source?: unknown };
    if (typeof parsed.source !== 'string' || !nameSources.has(parsed.source)) return null;
    const source = parsed.source as AuditNameSource;
    if (parsed.name === null || source === 'none') return { name: null, source: 'none' };
    if (typeof parsed.name !== 'string') return null;
    const name = parsed.name.replace(/\s+/g, ' ').trim().slice(0, maxChars);
    return name ? { name, source } : { name: null, source: 'none' };
  } catch {
    return null;
  }
}
