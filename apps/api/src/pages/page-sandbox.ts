import { createSandbox, type Sandbox, type SandboxLimitError, type SandboxOptions } from '../lib/sandbox.ts';
import { MAX_PAGE_DEPTH, MAX_PAGE_NODES } from './extract-images.ts';
import { MAX_AUDIT_IMAGES_PER_PAGE, type ReadingLimit } from './extract-page.ts';
import type { PageHandlers } from './page-worker.ts';

/**
 * The one pool of threads per process that parses crawled and scraped pages (ADR 048).
 * Two threads: an audit reads two pages of a host at a time, and a hostile page that runs to its
 * limit leaves the other thread to the rest. 10 s per page: an ordinary page takes milliseconds,
 * the largest we fetch (5 MB) well under a second. 256 MB of heap: a 5 MB page at the node cap
 * needs a few tens of MB.
 */
export const PAGE_SANDBOX_OPTIONS: SandboxOptions = {
  size: 2,
  timeoutMs: 10_000,
  maxOldGenerationMb: 256,
  maxQueue: 256,
};

export type PageSandboxLimits = Pick<SandboxOptions, 'timeoutMs' | 'maxOldGenerationMb'>;

export type PageSandbox = Sandbox<PageHandlers> & { readonly limits: PageSandboxLimits };

/** `options` change the limits (tests use a short time limit to reach it). */
export function createPageSandbox(options: Partial<PageSandboxLimits> = {}): PageSandbox {
  const settings = { ...PAGE_SANDBOX_OPTIONS, ...options };
  const sandbox = createSandbox<PageHandlers>(new URL('./page-worker.ts', import.meta.url), settings);
  return Object.assign(sandbox, {
    limits: { timeoutMs: settings.timeoutMs, maxOldGenerationMb: settings.maxOldGenerationMb },
  });
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** Why a page could not be read, in words, for the audit's notices (the page is recorded as failed). */
export function unreadablePageNote(
  url: string,
  error: SandboxLimitError,
  settings: PageSandboxLimits = PAGE_SANDBOX_OPTIONS,
): string {
  switch (error.limit) {
    case 'time':
      return `${url} was too large or too complex to read: it took longer than ${seconds(settings.timeoutMs)}.`;
    case 'memory':
      return `${url} was too large or too complex to read: it needed more than ${settings.maxOldGenerationMb} MB of memory.`;
    case 'busy':
      return `${url} was not read: too many pages were being read at once. Run the audit again later.`;
    default:
      return `${url} could not be read: reading it stopped the page reader.`;
  }
}

/** What a page that was read in part (or reshaped) reached, in words, for the audit's notices. */
export function pageLimitNote(url: string, limit: ReadingLimit): string {
  const count = (n: number) => n.toLocaleString('en');
  switch (limit) {
    case 'nodes':
      return `${url} is too large to read whole: only its first ${count(MAX_PAGE_NODES)} HTML nodes were read, so images after them are not in the audit.`;
    case 'images':
      return `${url} has more than ${count(MAX_AUDIT_IMAGES_PER_PAGE)} images: only the first ${count(MAX_AUDIT_IMAGES_PER_PAGE)} are in the audit.`;
    case 'depth':
      return `${url} nests elements more than ${MAX_PAGE_DEPTH} levels deep: deeper elements were read as if they were at that level, so their context may be incomplete.`;
  }
}

/** Image-like elements a page hides from visitors and screen readers, in words. */
export function hiddenImagesNote(url: string, count: number): string {
  const images = count === 1 ? '1 hidden image' : `${count.toLocaleString('en')} hidden images`;
  return `${url} has ${images} (display: none, visibility: hidden, the hidden attribute, aria-hidden="true" or a zero width or height): visitors and screen readers do not get ${count === 1 ? 'it' : 'them'}, so ${count === 1 ? 'it is' : 'they are'} not in the audit.`;
}
