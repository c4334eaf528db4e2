import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import { MAX_SCRAPE_HTML_BYTES } from '@altwise/contracts/scrape';
import { Parser } from 'htmlparser2';
import MarkdownIt, { type Token } from 'markdown-it';
import { MAX_AUDIT_IMAGES_PER_PAGE } from '../src/pages/extract-page.ts';

/**
 * What `altwise audit` and `altwise fix` read from a folder: every HTML and Markdown file under it,
 * each as the HTML the audit's page reader takes (Markdown rendered with markdown-it) and, for every
 * image of that HTML in document order, where it sits in the file (line, column) and which bytes hold
 * its alt text, so that a report can point at `file:line` and a fix can edit only those bytes.
 *
 * A folder is audited as a site at FOLDER_ORIGIN: a page's relative and root-relative image paths
 * resolve against it like a browser would on a server whose root is the folder, and an image whose
 * address lands on FOLDER_ORIGIN is read from the folder (localImagePath). Nothing is fetched.
 */

/** The made-up origin a folder is served at (`.invalid` never resolves, RFC 2606). */
export const FOLDER_ORIGIN = 'https://folder.invalid';
/** Largest page read, as for a crawled page (5 MB). */
export const MAX_PAGE_FILE_BYTES = MAX_SCRAPE_HTML_BYTES;
/** Most pages one run reads; the rest are reported as left out. */
export const MAX_FOLDER_PAGES = 5000;

const htmlExtensions = new Set(['.html', '.htm', '.xhtml']);
const markdownExtensions = new Set(['.md', '.markdown', '.mdown', '.mkd']);
/** Folders that hold dependencies or build caches, not a site's pages. */
const skippedFolders = new Set(['node_modules']);

export type PageKind = 'html' | 'markdown';

/** How the alt text of one image is written in its file. */
export type AltEdit =
  | {
      kind: 'html';
      /** The opening tag's first and last byte (`<` and `>`) in the file. */
      tagStart: number;
      tagEnd: number;
      /**
       * The alt attribute's value, when the tag has one: quote '' when unquoted, `bare` for an `alt`
       * without `=` (its value range is then empty, right after the name).
       */
      alt?: { start: number; end: number; quote: '"' | "'" | ''; bare: boolean };
      /** Where a new ` alt="…"` goes: after the src attribute, else after the tag name. */
      insertAt: number;
      /** aria-label or aria-labelledby names the image: its alt is not what is read out. */
      ariaNamed: boolean;
    }
  | {
      kind: 'markdown';
      /** The label between `![` and `]`. */
      start: number;
      end: number;
    };

export interface LocatedImage {
  element: 'img' | 'input-image' | 'role-img';
  line: number;
  column: number;
  /** Unset when the bytes of the image could not be found in the file (it is then never edited). */
  edit?: AltEdit;
}

export interface SourcePage {
  /** The file as the user sees it: relative to the working folder, `/`-separated. */
  path: string;
  absolute: string;
  /** The folder the page is served from (root-relative image paths start there). */
  root: string;
  kind: PageKind;
  /** The file's text, as read (a byte-order mark kept, so that a fix writes back every other byte). */
  text: string;
  /** What the audit reads: the file itself, or the Markdown rendered. */
  html: string;
  pageUrl: string;
  /** The images of `html` in document order, as the audit's page reader lists them. */
  images: LocatedImage[];
  /** Markdown images left out (a `javascript:` address…), in words with their line. */
  notes: Array<{ line: number; message: string }>;
}

/** A file or folder that cannot be audited, said in words; the run goes on without it. */
export interface InputProblem {
  path: string;
  message: string;
}

export const displayPath = (absolute: string) => {
  const shown = relative(process.cwd(), absolute) || '.';
  return (shown.startsWith('..') ? absolute : shown).split(sep).join('/');
};

const byName = new Intl.Collator('en', { numeric: true }).compare;

export function pageKindOf(path: string): PageKind | undefined {
  const extension = extname(path).toLowerCase();
  if (htmlExtensions.has(extension)) return 'html';
  if (markdownExtensions.has(extension)) return 'markdown';
  return undefined;
}

/**
 * The HTML and Markdown files of a folder and its sub-folders, by path (hidden entries, node_modules
 * and symbolic links to folders left out, so a link loop cannot make the walk endless).
 */
export async function listPageFiles(
  folder: string,
  problems: InputProblem[],
): Promise<{ files: string[]; over: number }> {
  const files: string[] = [];
  let over = 0;
  const pending = [folder];
  while (pending.length > 0) {
    const dir = pending.shift() as string;
    let names: string[];
    try {
      names = (await readdir(dir)).filter((name) => !name.startsWith('.')).sort(byName);
    } catch (error) {
      problems.push({
        path: displayPath(dir),
        message: `${displayPath(dir)} cannot be read: ${reason(error)}.`,
      });
      continue;
    }
    const subfolders: string[] = [];
    for (const name of names) {
      const path = join(dir, name);
      const info = await lstat(path).catch(() => undefined);
      if (info?.isDirectory()) {
        if (!skippedFolders.has(name)) subfolders.push(path);
      } else if (info && (info.isFile() || info.isSymbolicLink()) && pageKindOf(name)) {
        if (files.length < MAX_FOLDER_PAGES) files.push(path);
        else over += 1;
      }
    }
    pending.unshift(...subfolders);
  }
  return { files, over };
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'it does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return (error as Error).message;
}

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/**
 * Reads one page file: refused in words when it is larger than MAX_PAGE_FILE_BYTES (checked before
 * reading), holds binary data (a NUL byte) or is not UTF-8.
 */
export async function readPageFile(absolute: string, root: string): Promise<SourcePage | InputProblem> {
  const path = displayPath(absolute);
  const kind = pageKindOf(absolute) ?? 'html';
  let bytes: Buffer;
  try {
    const info = await stat(absolute);
    if (!info.isFile()) return { path, message: `${path} is not a regular file, so it was not read.` };
    if (info.size > MAX_PAGE_FILE_BYTES)
      return {
        path,
        message: `${path} is ${megabytes(info.size)}, more than the ${megabytes(MAX_PAGE_FILE_BYTES)} a page may be, so it was not read.`,
      };
    bytes = await readFile(absolute);
  } catch (error) {
    return { path, message: `${path} cannot be read: ${reason(error)}.` };
  }
  if (bytes.includes(0))
    return { path, message: `${path} is not a text file (it holds binary data), so it was not read.` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { path, message: `${path} is not UTF-8 text, so it was not read.` };
  }
  const pageUrl = `${FOLDER_ORIGIN}/${relative(root, absolute).split(sep).map(encodeURIComponent).join('/')}`;
  const base = { path, absolute, root, kind, text, pageUrl };
  if (kind === 'html')
    return { ...base, html: text, images: locateHtmlImages(text, lineIndex(text)), notes: [] };
  return { ...base, ...renderMarkdown(text) };
}

/** The local file an image address of a folder page names, or undefined when it is elsewhere. */
export function localImagePath(root: string, src: string): string | undefined {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return undefined;
  }
  if (url.origin !== FOLDER_ORIGIN) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  // URL parsing has already folded every `..` into the root; this keeps it so for odd encodings.
  const absolute = resolve(root, `.${path}`);
  return absolute === root || absolute.startsWith(root + sep) ? absolute : undefined;
}

/** Why a folder's image is not read: it is a link to a file outside the folder. */
export const OUTSIDE_FOLDER = 'it is a link to a file outside the folder, which altwise does not read';

/**
 * Reads an image of a folder page (localImagePath): only a regular file whose real path, links
 * followed, is inside the folder's real path, so a link in the folder cannot hand a file from
 * elsewhere (a key, another user's photo) to the engine or a report (ADR 071). Throws
 * OutsideFolderError for such a link, an ENOENT error for a missing file; null when it is larger
 * than `maxBytes` or not a file.
 */
export async function readFolderImage(root: string, path: string, maxBytes: number): Promise<Buffer | null> {
  const [realRoot, realPath] = await Promise.all([realpath(root), realpath(path)]);
  if (realPath !== realRoot && !realPath.startsWith(realRoot + sep)) throw new OutsideFolderError();
  const info = await stat(realPath);
  if (!info.isFile() || info.size > maxBytes) return null;
  return readFile(realPath);
}

export class OutsideFolderError extends Error {
  constructor() {
    super(OUTSIDE_FOLDER);
  }
}

// ---------------------------------------------------------------------------------------------
// Positions.

/** Offsets of line starts, for offset → line and column by binary search. */
export type LineIndex = number[];

export function lineIndex(text: string): LineIndex {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

export function positionOf(lines: LineIndex, offset: number): { line: number; column: number } {
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lines[mid] as number) <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - (lines[low] as number) + 1 };
}

// ---------------------------------------------------------------------------------------------
// HTML: the image elements in the order the audit's page reader (extract-page.ts) lists them:
// <img>, <input type=image>, elements with role=img; nothing inside <template> or inside a role=img
// element. One streaming pass of htmlparser2's tokenizer; attributes are then read from the tag's
// own bytes so that an edit touches only the alt value.

interface RawAttribute {
  name: string;
  start: number;
  end: number;
  valueStart: number;
  valueEnd: number;
  quote: '"' | "'" | '';
  /** Written without `=`: `<img alt>`. */
  bare: boolean;
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/** The attributes of one opening tag, as written (offsets into `text`), the first of each name. */
export function scanAttributes(
  text: string,
  tagStart: number,
  tagEnd: number,
): { nameEnd: number; attributes: RawAttribute[] } {
  let i = tagStart + 1;
  while (i < tagEnd && !isSpace(text[i]) && text[i] !== '/' && text[i] !== '>') i++;
  const nameEnd = i;
  const attributes: RawAttribute[] = [];
  const seen = new Set<string>();
  while (i < tagEnd) {
    while (i < tagEnd && (isSpace(text[i]) || text[i] === '/')) i++;
    if (i >= tagEnd || text[i] === '>') break;
    const start = i;
    i++; // a name may start with '='
    while (i < tagEnd && !isSpace(text[i]) && text[i] !== '/' && text[i] !== '>' && text[i] !== '=') i++;
    const name = text.slice(start, i).toLowerCase();
    let j = i;
    while (j < tagEnd && isSpace(text[j])) j++;
    let valueStart = i;
    let valueEnd = i;
    let quote: RawAttribute['quote'] = '';
    const bare = text[j] !== '=';
    if (!bare) {
      j++;
      while (j < tagEnd && isSpace(text[j])) j++;
      const c = text[j];
      if (c === '"' || c === "'") {
        quote = c;
        valueStart = j + 1;
        const close = text.indexOf(c, valueStart);
        valueEnd = close === -1 || close > tagEnd ? tagEnd : close;
        i = Math.min(valueEnd + 1, tagEnd);
      } else {
        valueStart = j;
        while (j < tagEnd && !isSpace(text[j]) && text[j] !== '>') j++;
        valueEnd = j;
        i = j;
      }
    }
    if (!seen.has(name)) {
      seen.add(name);
      attributes.push({
        name,
        start,
        end: quote ? valueEnd + 1 : valueEnd,
        valueStart,
        valueEnd,
        quote,
        bare,
      });
    }
  }
  return { nameEnd, attributes };
}

function htmlEdit(text: string, tagStart: number, tagEnd: number, attribs: Record<string, string>): AltEdit {
  const { nameEnd, attributes } = scanAttributes(text, tagStart, tagEnd);
  const alt = attributes.find((a) => a.name === 'alt');
  const src = attributes.find((a) => a.name === 'src');
  const ariaNamed = Boolean(attribs['aria-label']?.trim() || attribs['aria-labelledby']?.trim());
  return {
    kind: 'html',
    tagStart,
    tagEnd,
    ...(alt ? { alt: { start: alt.valueStart, end: alt.valueEnd, quote: alt.quote, bare: alt.bare } } : {}),
    insertAt: src ? src.end : nameEnd,
    ariaNamed,
  };
}

/** The image elements of an HTML text; offsets and lines are shifted by `offset` into the file. */
export function locateHtmlImages(html: string, lines: LineIndex, offset = 0, file = html): LocatedImage[] {
  const found: LocatedImage[] = [];
  let depth = 0;
  /** The depth at which skipping started (inside <template> or a role=img element), or -1. */
  let skipFrom = -1;
  const parser: Parser = new Parser({
    onopentag(name, attribs) {
      depth++;
      if (skipFrom !== -1 || found.length >= MAX_AUDIT_IMAGES_PER_PAGE) return;
      if (name === 'template' || name === 'script' || name === 'style') {
        skipFrom = depth;
        return;
      }
      const role = attribs.role?.trim().toLowerCase();
      const element =
        name === 'img'
          ? 'img'
          : name === 'input' && attribs.type?.trim().toLowerCase() === 'image'
            ? 'input-image'
            : role === 'img'
              ? 'role-img'
              : null;
      if (!element) return;
      const start = offset + parser.startIndex;
      const end = offset + parser.endIndex;
      const position = positionOf(lines, start);
      // A tag is edited only where the file holds exactly what was parsed.
      const intact = file.slice(start, end + 1) === html.slice(parser.startIndex, parser.endIndex + 1);
      found.push({
        element,
        ...position,
        ...(intact && element !== 'role-img' ? { edit: htmlEdit(file, start, end, attribs) } : {}),
      });
      if (element === 'role-img') skipFrom = depth;
    },
    onclosetag() {
      if (skipFrom === depth) skipFrom = -1;
      depth--;
    },
  });
  parser.end(html);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Markdown: rendered by markdown-it (CommonMark, raw HTML kept as a site generator would), with the
// source position of each image found from the tokens' line maps.

const markdown = new MarkdownIt({ html: true, linkify: false });
// Every address is parsed as written, so that an image with a `javascript:` address is seen (and left
// out below, in words) instead of silently becoming text.
markdown.validateLink = () => true;
// Tokens carry no source offsets: the image rule is wrapped to note where each image starts in its
// inline text, so that an image is told apart from the same text earlier in a code span.
const imageRule = markdown.inline.ruler.__rules__.find((rule) => rule.name === 'image')?.fn;
if (imageRule)
  markdown.inline.ruler.at('image', (state, silent) => {
    const start = state.pos;
    const before = state.tokens.length;
    const matched = imageRule(state, silent);
    // Pending text is pushed before the image: the image is the first image token after `before`.
    const token = state.tokens.slice(before).find((pushed) => pushed.type === 'image');
    if (matched && !silent && token) token.meta = { ...token.meta, inlineStart: start };
    return matched;
  });

// An image written `![](src)` or `![ ](src)` has no alt text: the author wrote none (markdownlint
// MD045 says the same), so it is rendered without an alt attribute and the audit reports it missing.
// A decorative image in Markdown is only the author's explicit `<img alt="">` (ADR 071).
markdown.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx] as Token;
  const alt = self.renderInlineAsText(token.children ?? [], options, env);
  token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'alt');
  if (alt.trim()) token.attrs.splice(1, 0, ['alt', alt]);
  return self.renderToken(tokens, idx, options);
};

/** The `nth` (0-based) occurrence of `needle` in `text` from `from`, or -1. */
function nthIndexOf(text: string, needle: string, nth: number, from: number): number {
  let at = text.indexOf(needle, from);
  for (let n = 0; n < nth && at !== -1; n++) at = text.indexOf(needle, at + needle.length);
  return at;
}

/** How many times `needle` starts in `text` before `end`. */
function countBefore(text: string, needle: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1 && at < end; at = text.indexOf(needle, at + needle.length))
    count++;
  return count;
}

/** Image addresses that are never an image: scripts and other non-fetchable schemes. */
const unsafeScheme = /^\s*(javascript|vbscript|file):/i;

function renderMarkdown(text: string): Pick<SourcePage, 'html' | 'images' | 'notes'> {
  const lines = lineIndex(text);
  const tokens = markdown.parse(text, {});
  const images: LocatedImage[] = [];
  const notes: SourcePage['notes'] = [];
  let cursor = 0;
  const lineStart = (map: [number, number] | null) => (map ? (lines[map[0]] ?? text.length) : cursor);

  const htmlPiece = (content: string, from: number) => {
    // Raw HTML is kept verbatim by markdown-it; find it in the file from where the block starts.
    const at = text.indexOf(content.replace(/\n$/, ''), from);
    if (at === -1) {
      // Not found verbatim (inside a block quote, say): the images still count, without an edit.
      const { line } = positionOf(lines, from);
      for (const image of locateHtmlImages(content, lineIndex(content)))
        images.push({ element: image.element, line: line + image.line - 1, column: image.column });
      return;
    }
    images.push(...locateHtmlImages(content, lines, at, text));
    cursor = at + content.length;
  };

  const walk = (list: Token[]) => {
    for (const token of list) {
      if (token.map) cursor = Math.max(cursor, lineStart(token.map));
      if (token.type === 'html_block') htmlPiece(token.content, cursor);
      else if (token.type === 'inline' && token.children) {
        for (let n = 0; n < token.children.length; n++) {
          const child = token.children[n] as Token;
          if (child.type === 'html_inline') htmlPiece(child.content, cursor);
          else if (child.type === 'image') {
            const opener = `![${child.content}]`;
            // The image is the k-th such opener of its inline text; a block's source holds the same
            // openers in the same order (prefixes such as "> " or list indents hold none).
            const inlineStart = (child.meta as { inlineStart?: number } | null)?.inlineStart;
            const blockStart = lineStart(token.map);
            const at =
              inlineStart !== undefined && token.content.startsWith(opener, inlineStart)
                ? nthIndexOf(text, opener, countBefore(token.content, opener, inlineStart), blockStart)
                : -1;
            const src = String(child.attrGet('src') ?? '');
            const position = positionOf(lines, at === -1 ? blockStart : at);
            if (at !== -1) cursor = Math.max(cursor, at + opener.length);
            if (unsafeScheme.test(src)) {
              notes.push({
                line: position.line,
                message: `The image ![${clip(child.content)}](${clip(src)}) has a ${src.trim().split(':')[0]?.toLowerCase()}: address, which is not an image; it was left out of the audit and is never fetched or changed.`,
              });
              // Rendered as nothing: the page reader never sees it.
              token.children[n] = Object.assign(child, { type: 'text', content: '', children: null });
              continue;
            }
            images.push({
              element: 'img',
              ...position,
              ...(at !== -1
                ? { edit: { kind: 'markdown', start: at + 2, end: at + 2 + child.content.length } }
                : {}),
            });
          }
        }
      }
    }
  };
  walk(tokens);
  return { html: markdown.renderer.render(tokens, markdown.options, {}), images, notes };
}

const clip = (text: string, max = 40) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
