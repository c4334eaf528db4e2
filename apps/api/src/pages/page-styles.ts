import { DomUtils } from 'htmlparser2';
import type { Element } from './extract-images.ts';

/**
 * The few CSS facts an audit reads without running a browser: an element's
 * `background-image` URL, `display` and `visibility`, from its inline `style` and from `<style>`
 * rules whose selectors are a single class or id (`.hero`, `#logo`). Anything more (combinators,
 * media queries, external stylesheets, cascade order beyond "id over class over nothing") is what
 * rendered mode is for. Every read is bounded: no regex here can backtrack over the input.
 */

export type StyleFacts = { backgroundUrl?: string; display?: string; visibility?: string };

/** Most characters of `<style>` text one page's rules are read from. */
export const MAX_STYLE_CHARS = 256 * 1024;
/** Most characters of one inline style attribute read. */
const MAX_INLINE_STYLE_CHARS = 4096;
/** Most classes of one element looked up. */
const MAX_CLASSES = 32;

const urlPattern = /url\(\s{0,20}(["']?)([^"')\s]{1,2048})\1\s{0,20}\)/i;

/** The declarations of one block (`a: b; c: d`), lower-case property names, last one wins. */
function readDeclarations(block: string): StyleFacts {
  const facts: StyleFacts = {};
  for (const declaration of block.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration
      .slice(colon + 1)
      .replace(/!important/i, '')
      .trim();
    if (property === 'background' || property === 'background-image') {
      const url = urlPattern.exec(value)?.[2];
      if (url && !/^data:/i.test(url)) facts.backgroundUrl = url;
      else if (url) facts.backgroundUrl = url.slice(0, 100);
    } else if (property === 'display') facts.display = value.toLowerCase();
    else if (property === 'visibility') facts.visibility = value.toLowerCase();
  }
  return facts;
}

/** Rules keyed by `.class` or `#id`, from the page's `<style>` texts (comments and @-blocks skipped). */
export function readStyleRules(css: string): Map<string, StyleFacts> {
  const rules = new Map<string, StyleFacts>();
  const text = css.slice(0, MAX_STYLE_CHARS);
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{', at);
    if (open < 0) break;
    const close = text.indexOf('}', open);
    if (close < 0) break;
    let selectorText = text.slice(at, open);
    const comment = selectorText.lastIndexOf('*/');
    if (comment >= 0) selectorText = selectorText.slice(comment + 2);
    // The end of an @media block before this rule.
    const ended = selectorText.lastIndexOf('}');
    if (ended >= 0) selectorText = selectorText.slice(ended + 1);
    const block = text.slice(open + 1, close);
    at = close + 1;
    // An @media or @supports block: its first rule's selector is read with the at-rule's text and
    // is dropped below; the rest of the block's rules are read as if at the top level.
    const selectors = selectorText
      .split(',')
      .map((selector) => selector.trim())
      .filter((selector) => /^[.#][A-Za-z_-][\w-]{0,200}$/.test(selector));
    if (selectors.length === 0) continue;
    const facts = readDeclarations(block);
    if (!facts.backgroundUrl && !facts.display && !facts.visibility) continue;
    for (const selector of selectors) rules.set(selector, { ...rules.get(selector), ...facts });
  }
  return rules;
}

/**
 * An element's style facts: its inline style over its id's rule over its classes' rules. Cached per
 * element, so each element's attributes are read once a page.
 */
export function createStyleReader(rules: Map<string, StyleFacts>) {
  const cache = new WeakMap<Element, StyleFacts>();
  const none: StyleFacts = Object.freeze({});
  return (element: Element): StyleFacts => {
    // Most elements have no style and no rule: nothing to read or keep.
    if (!element.attribs.style && (rules.size === 0 || (!element.attribs.class && !element.attribs.id)))
      return none;
    const known = cache.get(element);
    if (known) return known;
    let facts: StyleFacts = {};
    if (rules.size > 0) {
      const classes = (element.attribs.class ?? '').slice(0, 2048).split(/\s+/).slice(0, MAX_CLASSES);
      for (const name of classes) if (name) facts = { ...facts, ...rules.get(`.${name}`) };
      const id = element.attribs.id?.trim();
      if (id) facts = { ...facts, ...rules.get(`#${id}`) };
    }
    const inline = element.attribs.style;
    if (inline) facts = { ...facts, ...readDeclarations(inline.slice(0, MAX_INLINE_STYLE_CHARS)) };
    cache.set(element, facts);
    return facts;
  };
}

export type StyleReader = ReturnType<typeof createStyleReader>;

/**
 * Why an element (and all it holds) is not there for visitors and screen readers, or undefined:
 * the `hidden` attribute, `aria-hidden="true"`, `display: none` or `visibility: hidden`.
 */
export function hiddenBy(element: Element, style: StyleReader): string | undefined {
  if (element.attribs.hidden !== undefined) return 'the hidden attribute';
  if (element.attribs['aria-hidden']?.trim().toLowerCase() === 'true') return 'aria-hidden="true"';
  const facts = style(element);
  if (facts.display === 'none') return 'display: none';
  if (facts.visibility === 'hidden' || facts.visibility === 'collapse') return 'visibility: hidden';
  return undefined;
}

/** The text of every `<style>` element of the page, at most MAX_STYLE_CHARS characters in all. */
export function styleTextOf(styles: Element[]): string {
  let css = '';
  for (const style of styles) {
    for (const child of style.children) {
      if (css.length >= MAX_STYLE_CHARS) return css;
      if (DomUtils.isText(child)) css += child.data.slice(0, MAX_STYLE_CHARS - css.length);
    }
    css += '\n';
  }
  return css;
}
