import { MAX_AUDIT_PAGES } from '@altwise/contracts/audit';
import type { AuditProblem, AuditVerdict } from '@altwise/contracts/audit-problems';
import { engineOptionsFromEnv } from '../src/engines/engine-options.ts';
import { createOfflineEngine } from '../src/engines/offline/offline-engine.ts';
import type { AltTextEngine } from '../src/engines/types.ts';
import { SandboxLimitError } from '../src/lib/sandbox.ts';
import { createCrawler, MAX_AUDIT_IMAGE_BYTES } from '../src/modules/audit/crawler.ts';
import {
  lookAtImage,
  MAX_PIXEL_CHECKS,
  type PixelEvidence,
  planPixelChecks,
  withPixelEvidence,
} from '../src/modules/audit/pixel-check.ts';
import { pageKey } from '../src/pages/extract-page.ts';
import {
  createPageSandbox,
  type PageSandbox,
  pageLimitNote,
  unreadablePageNote,
} from '../src/pages/page-sandbox.ts';
import { type AuditImageFacts, checkPageImages, type ImageVerdict } from '../src/rules/checks.ts';
import {
  FOLDER_ORIGIN,
  type InputProblem,
  type LocatedImage,
  localImagePath,
  readFolderImage,
  readPageFile,
  type SourcePage,
} from './audit-sources.ts';
import { mapInOrder } from './map-in-order.ts';

/**
 * Runs the product's audit (ADR 025, 037) for the CLI: pages are read and checked in the same worker
 * threads as a site audit (page-sandbox.ts → extract-page.ts + checks.ts), then the images whose
 * pixels can change a verdict are looked at with the offline engine's OCR (pixel-check.ts), and the
 * pages are checked again with that evidence. A folder's images are read from the folder; a site's
 * through the crawler's SSRF-safe fetcher.
 */

/** One image of one page, with where it is and what the checks found. */
export interface AuditedImage {
  facts: AuditImageFacts;
  verdict: AuditVerdict;
  problems: AuditProblem[];
  /** Where the image sits in a folder's file; unset for a site's pages. */
  located?: LocatedImage;
  /** The image's local file, for a folder page whose image is in the folder. */
  localFile?: string;
  /** With localFile: the folder it must really be in (readFolderImage). */
  folder?: string;
}

export interface AuditedPage {
  /** The file path (folders) or the page URL (sites). */
  page: string;
  /** A folder's file (reported by path and line), not a site's page. */
  isFile: boolean;
  /** The file as read, for fix (its `html` dropped). */
  source?: SourcePage;
  /** The page's <title> (a Markdown page has none). */
  title: string;
  /** Links from the start page (a site's pages); a folder's files are all 0. */
  depth?: number;
  images: AuditedImage[];
}

export interface Notice {
  /** error: an input that could not be audited (exit code 2); note: said, changes nothing. */
  level: 'error' | 'note';
  page?: string;
  line?: number;
  message: string;
}

export interface PixelReader {
  read(image: Uint8Array): Promise<import('../src/engines/types.ts').ImageTextReading>;
  /** Loads the OCR now, so that the first reading's time limit is not spent loading it. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/** The offline engine's OCR, made on first use (a run without a pixel check loads no model). */
export function createPixelReader(env: NodeJS.ProcessEnv): PixelReader {
  let engine: AltTextEngine | undefined;
  return {
    warmUp: async () => {
      engine ??= createOfflineEngine(engineOptionsFromEnv(process.env));
      await engine.warmUp();
    },
    read: (image) => {
      engine ??= createOfflineEngine(engineOptionsFromEnv(env));
      if (!engine.readImageText) throw new Error('The offline engine reads no pixels.');
      return engine.readImageText(image);
    },
    close: async () => {
      await engine?.close();
    },
  };
}

export function createPageReader(): PageSandbox {
  return createPageSandbox();
}

/** Reads and checks one page's HTML in the sandbox; a notice instead when it hits a reading limit. */
async function readAndCheck(
  pages: PageSandbox,
  html: string,
  pageUrl: string,
  shownAs: string,
  notices: Notice[],
): Promise<
  { title: string; images: AuditImageFacts[]; verdicts: ImageVerdict[]; links: string[] } | undefined
> {
  try {
    const reading = await pages.run('auditPage', { html, pageUrl });
    for (const limit of reading.limits)
      notices.push({ level: 'note', page: shownAs, message: pageLimitNote(shownAs, limit) });
    return { title: reading.title, images: reading.images, verdicts: reading.verdicts, links: reading.links };
  } catch (error) {
    if (error instanceof SandboxLimitError && error.limit === 'closed') throw error;
    // A page that stops the reader, or that the reader cannot handle, is said and the run goes on.
    const message =
      error instanceof SandboxLimitError
        ? unreadablePageNote(shownAs, error, pages.limits)
        : `${shownAs} could not be audited: ${(error as Error).message}`;
    notices.push({ level: 'error', page: shownAs, message });
    return undefined;
  }
}

/** A page file to audit and the folder it is served from. */
export interface PageFile {
  absolute: string;
  root: string;
}

/**
 * Audits a folder's pages: each file read when its turn comes (two at a time, the page reader's
 * threads), one AuditedPage per page read; a file that cannot be read is an error notice. The file's
 * text is kept only with `keepSources` (fix edits it).
 */
export async function auditSourcePages(
  files: PageFile[],
  options: { pages: PageSandbox; pixels?: PixelReader; notices: Notice[]; keepSources?: boolean },
): Promise<AuditedPage[]> {
  const audited: AuditedPage[] = [];
  const results = mapInOrder(files, 2, async (file) => {
    const source = await readPageFile(file.absolute, file.root);
    if (!('html' in source)) return { problem: source as InputProblem };
    const notices: Notice[] = [];
    const result = await readAndCheck(options.pages, source.html, source.pageUrl, source.path, notices);
    return { source, result, notices };
  });
  for await (const done of results) {
    if ('problem' in done && done.problem) {
      options.notices.push({ level: 'error', page: done.problem.path, message: done.problem.message });
      continue;
    }
    if (!('source' in done) || !done.source) continue;
    const { source, result } = done;
    for (const note of source.notes) options.notices.push({ level: 'note', page: source.path, ...note });
    options.notices.push(...done.notices);
    if (!result) continue;
    audited.push({
      page: source.path,
      isFile: true,
      ...(options.keepSources ? { source: { ...source, html: '' } } : {}),
      title: result.title,
      images: result.images.map((facts, n) => {
        const located = source.images[n];
        const localFile = localImagePath(source.root, facts.src);
        return {
          facts,
          verdict: result.verdicts[n]?.verdict ?? 'pass',
          problems: result.verdicts[n]?.problems ?? [],
          // The locator lists the same elements in the same order; a kind that differs means the two
          // parsers disagreed here, and the image is reported without a place rather than a wrong one.
          ...(located && located.element === facts.element ? { located } : {}),
          ...(localFile ? { localFile, folder: source.root } : {}),
        };
      }),
    });
  }
  if (options.pixels) {
    const reader = options.pixels;
    await lookAtPixels(audited, options.notices, (image) => readLocalImage(image), reader);
  }
  // The folder's made-up origin means nothing to a reader: "/about.html", not its full address.
  for (const page of audited)
    for (const image of page.images)
      image.problems = image.problems.map((problem) => ({
        ...problem,
        message: problem.message.replaceAll(`${FOLDER_ORIGIN}/`, '/'),
      }));
  return audited;
}

/** A folder image's bytes, or null when it is missing, too large or a link out of the folder. */
async function readLocalImage(image: AuditedImage): Promise<Uint8Array | null> {
  if (!image.localFile || !image.folder) return null;
  return readFolderImage(image.folder, image.localFile, MAX_AUDIT_IMAGE_BYTES).catch(() => null);
}

/**
 * The pixel check (ADR 037): each distinct image that could change a verdict is looked at once, at
 * most MAX_PIXEL_CHECKS, chosen and ordered as a site audit does (`planPixelChecks`), and every page
 * that holds one is checked again with the evidence.
 */
async function lookAtPixels(
  pages: AuditedPage[],
  notices: Notice[],
  bytesOf: (image: AuditedImage) => Promise<Uint8Array | null>,
  reader: PixelReader,
): Promise<void> {
  const imageOf = new Map<string, AuditedImage>();
  const plan = planPixelChecks(
    pages.flatMap((page) =>
      page.images.map((image, position) => {
        if (!imageOf.has(image.facts.src)) imageOf.set(image.facts.src, image);
        const { pageUrl, src, alt, role, ...facts } = image.facts;
        return { pageUrl, src, alt, role, facts, position, depth: page.depth ?? 0 };
      }),
    ),
  );
  if (plan.over > 0)
    notices.push({
      level: 'note',
      message: `The pixels of ${MAX_PIXEL_CHECKS} images were checked; ${plan.over} more were judged on the HTML alone.`,
    });
  const evidence = new Map<string, PixelEvidence>();
  const queue = [...plan.sources];
  const work = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { src } = next;
      const image = imageOf.get(src);
      evidence.set(
        src,
        image
          ? await lookAtImage(
              src,
              () => bytesOf(image),
              (bytes) => reader.read(bytes),
            )
          : {},
      );
    }
  };
  await Promise.all([work(), work()]);
  for (const page of pages) {
    let changed = false;
    for (const image of page.images) {
      const found = evidence.get(image.facts.src);
      if (found?.informative === undefined) continue;
      image.facts = withPixelEvidence(image.facts, found);
      changed = true;
    }
    if (!changed) continue;
    const verdicts = checkPageImages(page.images.map((image) => image.facts));
    page.images.forEach((image, n) => {
      image.verdict = verdicts[n]?.verdict ?? image.verdict;
      image.problems = verdicts[n]?.problems ?? image.problems;
    });
  }
}

/**
 * Audits a live site the way the product's site audit does: robots.txt first, then the start page
 * and the same-origin pages it links to, breadth first, at most `maxPages`, every fetch through the
 * SSRF-safe fetcher. A page that cannot be fetched is a note; the start page is an error.
 */
export async function auditSite(
  start: URL,
  options: {
    pages: PageSandbox;
    pixels?: PixelReader;
    notices: Notice[];
    maxPages: number;
    allowPrivate: boolean;
  },
): Promise<AuditedPage[]> {
  const { notices } = options;
  const crawler = createCrawler({
    allowPrivate: options.allowPrivate,
    connectTimeoutMs: 5_000,
    timeoutMs: 15_000,
  });
  const origin = start.origin;
  const { rules: robots, unreachable } = await crawler.fetchRobots(origin);
  if (unreachable) {
    notices.push({ level: 'error', page: start.href, message: unreachable });
    return [];
  }
  const queue = [pageKey(start)];
  const seen = new Set(queue);
  /** Each queued page's links from the start page: the pixel check's order (ADR 037). */
  const depthOf = new Map(queue.map((address) => [address, 0]));
  const audited: AuditedPage[] = [];
  for (let visited = 0; queue.length > 0 && visited < options.maxPages; visited++) {
    const address = queue.shift() as string;
    const first = visited === 0;
    const url = new URL(address);
    if (!robots.allows(`${url.pathname}${url.search}`)) {
      notices.push({
        level: first ? 'error' : 'note',
        page: address,
        message: `robots.txt disallows ${address}, so it was not fetched.`,
      });
      continue;
    }
    const answer = await crawler.fetchPage(address, origin, robots);
    if (!answer.ok) {
      notices.push({
        level: first && !answer.skipped ? 'error' : 'note',
        page: address,
        message: answer.note,
      });
      continue;
    }
    const result = await readAndCheck(options.pages, answer.body, answer.url.href, address, notices);
    if (!result) continue;
    const depth = depthOf.get(address) ?? 0;
    audited.push({
      page: pageKey(answer.url),
      isFile: false,
      title: result.title,
      depth,
      images: result.images.map((facts, n) => ({
        facts,
        verdict: result.verdicts[n]?.verdict ?? 'pass',
        problems: result.verdicts[n]?.problems ?? [],
      })),
    });
    for (const link of result.links)
      if (!seen.has(link)) {
        seen.add(link);
        depthOf.set(link, depth + 1);
        queue.push(link);
      }
  }
  if (queue.length > 0)
    notices.push({
      level: 'note',
      message: `${options.maxPages === 1 ? 'Only the first page was' : `Only the first ${options.maxPages} pages were`} audited; --max-pages reads more (up to ${MAX_AUDIT_PAGES}).`,
    });
  if (options.pixels) {
    const reader = options.pixels;
    await lookAtPixels(audited, notices, (image) => crawler.fetchImage(image.facts.src), reader);
  }
  return audited;
}
