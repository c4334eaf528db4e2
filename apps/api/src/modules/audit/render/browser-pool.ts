import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { Semaphore } from '../../../lib/throttle.ts';
import { createProxySession, type ProxySession } from './ssrf-proxy.ts';

/**
 * Rendered audits (issue 20, ADR 061): one headless Chromium per process, shared by every audit,
 * PAGES_AT_ONCE pages at a time, each page in a fresh browser context (no cookies, storage or cache
 * carried from one site or audit to the next) whose every request goes through its own session of
 * the SSRF proxy (ssrf-proxy.ts). No downloads, no pop-ups, no permissions, no service workers,
 * dialogs dismissed; a time and a byte limit per page. A browser that crashes or hangs is killed
 * and started again, and the page is tried once more.
 */

/** Pages rendered at once by one process (an audit reads 2 pages of a host at a time). */
export const PAGES_AT_ONCE = 2;
/** Time for one page: loading, the short wait for the network to go quiet, and reading it. */
export const RENDER_PAGE_TIMEOUT_MS = 15_000;
/** Bytes one page may load, all its requests together (the raw fetch takes 5 MB of HTML). */
export const MAX_RENDER_BYTES = 20 * 1024 * 1024;
/** After `load`, how long the page may keep the network busy before it is read anyway. */
const NETWORK_IDLE_MS = 1_500;
/**
 * The network counts as quiet after this long without a request under way (Playwright's
 * `networkidle` waits a fixed 500 ms, a third of a page's budget on this machine).
 */
const QUIET_MS = 200;

/** Requests of the page under way, to wait for the network to go quiet after `load`. */
function watchNetwork(page: Page) {
  let open = 0;
  let lastChange = Date.now();
  const change = (delta: number) => {
    open = Math.max(0, open + delta);
    lastChange = Date.now();
  };
  page.on('request', () => change(1));
  page.on('requestfinished', () => change(-1));
  page.on('requestfailed', () => change(-1));
  return {
    /** Resolves once no request was under way for QUIET_MS, or after `limitMs` at most. */
    async settled(limitMs: number): Promise<void> {
      const until = Date.now() + limitMs;
      while (Date.now() < until) {
        if (open === 0 && Date.now() - lastChange >= QUIET_MS) return;
        await sleep(50);
      }
    },
  };
}
/** Most screenshots taken of one page's images. */
export const MAX_SCREENSHOTS_PER_PAGE = 40;
/** Screenshots are taken of the top of the page only, down to this many CSS pixels. */
const MAX_SCREENSHOT_PAGE_HEIGHT = 6_000;
/** A screenshot fits inside this square (the review shows at most 480 CSS px; previews use 320). */
const SCREENSHOT_SIZE = 320;
const VIEWPORT = { width: 1280, height: 800 };
/** Reading the page's HTML may take this long even when the time limit is spent (a page still loading). */
const READ_GRACE_MS = 3_000;
/** How long closing a page's context may take before the browser is taken for hung. */
const CLOSE_TIMEOUT_MS = 5_000;

/** The flags the browser is started with (Playwright adds its own headless and pipe flags). */
const CHROMIUM_FLAGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // WebRTC's UDP would go around the proxy: a page could reach a private address over STUN/TURN.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--dns-prefetch-disable',
  '--disable-extensions',
  '--mute-audio',
];

/** One image's screenshot: the same `chosen source` the HTML reader takes, and its position among those. */
export type ImageShot = {
  /** The element's source attributes, as the HTML reader chooses among them (scrape/extract-images.ts). */
  attribs: Record<string, string>;
  webp: Buffer;
};

export type RenderResult =
  | {
      ok: true;
      /** Where the browser ended up (after redirects). */
      url: URL;
      html: string;
      /** What happened while rendering, in words, for the audit's notices. */
      notes: string[];
      shots: ImageShot[];
    }
  | { ok: false; note: string };

export type BrowserPool = ReturnType<typeof createBrowserPool>;

type CollectedBoxes = {
  found: { attribs: Record<string, string>; x: number; y: number; w: number; h: number }[];
  height: number;
  width: number;
};

/**
 * Runs in the page (as text: the server has no DOM types): where each image on screen is, in
 * page coordinates, with the source attributes the HTML reader chooses among, in document order.
 */
const COLLECT_BOXES = `({ max, maxHeight }) => {
  const found = [];
  const names = ['src', 'srcset', 'data-srcset', 'data-src', 'data-lazy-src'];
  for (const element of document.querySelectorAll('img, input[type="image" i]')) {
    if (found.length >= max) break;
    const rect = element.getBoundingClientRect();
    const x = rect.left + window.scrollX;
    const y = rect.top + window.scrollY;
    if (rect.width < 1 || rect.height < 1 || y >= maxHeight) continue;
    const attribs = {};
    for (const name of names) {
      const value = element.getAttribute(name);
      if (value !== null) attribs[name] = value;
    }
    found.push({ attribs, x, y, w: rect.width, h: rect.height });
  }
  return {
    found,
    height: Math.min(document.documentElement.scrollHeight, maxHeight),
    width: Math.min(document.documentElement.scrollWidth, 4 * 1280),
  };
}`;

/** A render step that ran out of time. */
class RenderTimeout extends Error {}

/** The browser went away under the page (crash, kill, hang): start it again and retry once. */
class BrowserLost extends Error {
  readonly owner: unknown;
  constructor(message: string, owner: unknown) {
    super(message);
    this.owner = owner;
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderTimeout(`took longer than ${ms} ms`)), Math.max(0, ms));
    }),
  ]).finally(() => clearTimeout(timer));
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The Chromium the server runs: `CHROMIUM_PATH`, or Debian's when none is configured; null when absent. */
export function findChromium(configured: string | undefined): string | null {
  if (configured === 'off') return null;
  const path = configured || '/usr/bin/chromium';
  return existsSync(path) ? path : null;
}

/** The process ids of the browser started with `marker` and of all its descendants (Linux /proc). */
async function browserProcessIds(marker: string): Promise<number[]> {
  const roots: number[] = [];
  const children = new Map<number, number[]>();
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const id = Number(entry);
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isInteger(parent)) children.set(parent, [...(children.get(parent) ?? []), id]);
    const command = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (command.includes(marker)) roots.push(id);
  }
  const ids = new Set<number>();
  const queue = [...roots];
  while (queue.length > 0) {
    const id = queue.pop() as number;
    if (ids.has(id)) continue;
    ids.add(id);
    queue.push(...(children.get(id) ?? []));
  }
  return [...ids];
}

/**
 * Memory of the processes, in bytes: `pss`, the proportional set size (pages shared between the
 * processes, such as the browser's own code, split among them rather than counted once a process),
 * and `rss`, the plain sum of resident sizes (which counts shared pages many times).
 */
export async function browserMemory(ids: number[]): Promise<{ pss: number; rss: number }> {
  let pss = 0;
  let rss = 0;
  for (const id of ids) {
    const rollup = await readFile(`/proc/${id}/smaps_rollup`, 'utf8').catch(() => '');
    pss += Number(/^Pss:\s+(\d+)\s+kB/m.exec(rollup)?.[1] ?? 0) * 1024;
    rss += Number(/^Rss:\s+(\d+)\s+kB/m.exec(rollup)?.[1] ?? 0) * 1024;
  }
  return { pss, rss };
}

export function createBrowserPool(options: {
  executablePath: string;
  /** The SSRF rule every request of the browser passes (safe-fetch's refusalRule). */
  refuse: (address: string) => boolean;
  connectTimeoutMs: number;
  logger: FastifyBaseLogger;
  timeoutMs?: number;
  maxBytes?: number;
}) {
  const { logger } = options;
  const timeoutMs = options.timeoutMs ?? RENDER_PAGE_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_RENDER_BYTES;
  const slots = new Semaphore(PAGES_AT_ONCE);
  /** Marks this pool's browser processes, so they can be found (memory, a kill) among others. */
  const marker = `--altwise-render-pool=${randomUUID()}`;
  let browser: Promise<{ browser: Browser; fallback: ProxySession }> | null = null;
  let closed = false;
  let launches = 0;

  async function launch() {
    // The browser's own proxy: what a page's context does not route itself is checked here too.
    const fallback = await createProxySession({
      refuse: options.refuse,
      connectTimeoutMs: options.connectTimeoutMs,
      maxBytes: Number.MAX_SAFE_INTEGER,
    });
    try {
      const started = await chromium.launch({
        executablePath: options.executablePath,
        headless: true,
        chromiumSandbox: false,
        args: [...CHROMIUM_FLAGS, marker],
        proxy: { server: `http://127.0.0.1:${fallback.port}`, bypass: '<-loopback>' },
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: 30_000,
      });
      launches++;
      started.once('disconnected', () => {
        void fallback.close();
      });
      logger.info({ launches }, 'rendering browser started');
      return { browser: started, fallback };
    } catch (error) {
      await fallback.close();
      throw error;
    }
  }

  function currentBrowser() {
    if (!browser) {
      browser = launch();
      browser.catch(() => {
        browser = null;
      });
    }
    return browser;
  }

  /**
   * Kills the browser (every process of it) and forgets it: the next page starts a new one. Only
   * the browser `lost` names: when two pages lose it at once, the second does not kill the new one.
   */
  async function restart(why: string, lost: typeof browser = browser) {
    if (lost === null || browser !== lost) return;
    const old = browser;
    browser = null;
    logger.warn({ why }, 'restarting the rendering browser');
    for (const id of await browserProcessIds(marker)) {
      try {
        process.kill(id, 'SIGKILL');
      } catch {}
    }
    if (old) {
      const running = await old.catch(() => null);
      await running?.browser.close().catch(() => {});
      await running?.fallback.close();
    }
  }

  async function closeContext(context: BrowserContext, owner: typeof browser) {
    try {
      await withDeadline(context.close(), CLOSE_TIMEOUT_MS);
    } catch {
      await restart('a page could not be closed', owner);
    }
  }

  /** Crops each visible image of the page's top out of one screenshot. */
  async function takeShots(page: Page, deadline: number): Promise<ImageShot[]> {
    const boxes = await withDeadline(
      page.evaluate(
        `(${COLLECT_BOXES})(${JSON.stringify({ max: MAX_SCREENSHOTS_PER_PAGE, maxHeight: MAX_SCREENSHOT_PAGE_HEIGHT })})`,
      ) as Promise<CollectedBoxes>,
      deadline - Date.now(),
    );
    if (boxes.found.length === 0) return [];
    // One screenshot of the smallest area that holds every image, cropped per image.
    const left = Math.max(0, Math.floor(Math.min(...boxes.found.map((box) => box.x))));
    const top = Math.max(0, Math.floor(Math.min(...boxes.found.map((box) => box.y))));
    const right = Math.min(boxes.width, Math.ceil(Math.max(...boxes.found.map((box) => box.x + box.w))));
    const bottom = Math.min(boxes.height, Math.ceil(Math.max(...boxes.found.map((box) => box.y + box.h))));
    if (right - left < 1 || bottom - top < 1) return [];
    const picture = await withDeadline(
      page.screenshot({
        type: 'png',
        fullPage: true,
        clip: { x: left, y: top, width: right - left, height: bottom - top },
        timeout: Math.max(1, deadline - Date.now()),
      }),
      deadline - Date.now(),
    );
    const shots: ImageShot[] = [];
    const { width: shotWidth = right - left, height: shotHeight = bottom - top } =
      await sharp(picture).metadata();
    const scale = shotWidth / (right - left);
    for (const box of boxes.found) {
      const x0 = Math.max(0, Math.floor((box.x - left) * scale));
      const y0 = Math.max(0, Math.floor((box.y - top) * scale));
      const x1 = Math.min(shotWidth, Math.ceil((box.x + box.w - left) * scale));
      const y1 = Math.min(shotHeight, Math.ceil((box.y + box.h - top) * scale));
      if (x1 - x0 < 1 || y1 - y0 < 1) continue;
      const webp = await sharp(picture)
        .extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 })
        .resize(SCREENSHOT_SIZE, SCREENSHOT_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 70 })
        .toBuffer();
      shots.push({ attribs: box.attribs, webp });
    }
    return shots;
  }

  async function renderOnce(address: string, withShots: boolean): Promise<RenderResult> {
    const owner = currentBrowser();
    const lost = (why: string) => new BrowserLost(why, owner);
    // A browser that dies while it starts is started again like one that dies later.
    const { browser: running } = await owner.catch((error) => {
      throw lost(error instanceof Error ? (error.message.split('\n')[0] ?? 'no browser') : 'no browser');
    });
    if (!running.isConnected()) throw lost('the browser is not connected');
    const session = await createProxySession({
      refuse: options.refuse,
      connectTimeoutMs: options.connectTimeoutMs,
      maxBytes,
    });
    const deadline = Date.now() + timeoutMs;
    const notes: string[] = [];
    let context: BrowserContext | null = null;
    let dialogs = 0;
    let popups = 0;
    let downloads = 0;
    let scriptErrors = 0;
    let crashed = false;
    let navigations = 0;
    /** A page that navigates on and on by script (location.replace in a loop) never settles. */
    const loopNote = () =>
      `${address} kept navigating from page to page in the browser (${navigations} navigations: a redirect loop), so it could not be rendered.`;
    const navigationError = (message: string) =>
      /interrupted by another navigation|Execution context was destroyed|frame was detached/i.test(message);
    try {
      context = await withDeadline(
        running.newContext({
          proxy: { server: `http://127.0.0.1:${session.port}`, bypass: '<-loopback>' },
          acceptDownloads: false,
          serviceWorkers: 'block',
          permissions: [],
          viewport: VIEWPORT,
          bypassCSP: false,
          javaScriptEnabled: true,
        }),
        CLOSE_TIMEOUT_MS,
      ).catch((error) => {
        throw lost(error instanceof Error ? error.message : 'no context');
      });
      const page = await withDeadline(context.newPage(), CLOSE_TIMEOUT_MS).catch((error) => {
        throw lost(error instanceof Error ? error.message : 'no page');
      });
      context.on('page', (other) => {
        if (other === page) return;
        popups++;
        void other.close().catch(() => {});
      });
      page.on('dialog', (dialog) => {
        dialogs++;
        void dialog.dismiss().catch(() => {});
      });
      page.on('download', (download) => {
        downloads++;
        void download.cancel().catch(() => {});
      });
      page.on('pageerror', () => {
        scriptErrors++;
      });
      page.on('crash', () => {
        crashed = true;
      });
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations++;
      });
      const quiet = watchNetwork(page);
      let response: Awaited<ReturnType<Page['goto']>> = null;
      let loaded = true;
      try {
        response = await page.goto(address, { waitUntil: 'load', timeout: timeoutMs });
      } catch (error) {
        if (!running.isConnected()) throw lost('the browser went away while loading');
        if (crashed) throw lost('the page crashed');
        const message = error instanceof Error ? error.message : '';
        if (/Download is starting/i.test(message) || downloads > 0)
          return {
            ok: false,
            note: `${address} started a download instead of showing a page in the browser, so it was not rendered.`,
          };
        if (/ERR_TOO_MANY_REDIRECTS/i.test(message))
          return {
            ok: false,
            note: `${address} redirects in a loop in the browser, so it could not be rendered.`,
          };
        if (navigationError(message)) return { ok: false, note: loopNote() };
        if (session.overLimit)
          return {
            ok: false,
            note: `${address} loads more than ${megabytes(maxBytes)} in the browser, so it was not rendered.`,
          };
        if (/Timeout|timed out/i.test(message)) loaded = false;
        else
          return {
            ok: false,
            note: `${address} could not be rendered in the browser (${message
              .split('\n')[0]
              ?.replace(/^page\.goto: /, '')
              .slice(0, 120)}).`,
          };
      }
      if (!loaded) {
        notes.push(
          `${address} did not finish loading in the browser within ${seconds(timeoutMs)}; the audit read what it showed by then.`,
        );
      } else {
        await quiet.settled(Math.max(0, Math.min(NETWORK_IDLE_MS, deadline - Date.now())));
      }
      if (
        response &&
        !/^\s*(text\/html|application\/xhtml\+xml)/i.test(response.headers()['content-type'] ?? 'text/html')
      )
        return { ok: false, note: `${address} is not an HTML page in the browser, so it was not rendered.` };
      const finalUrl = new URL(page.url());
      // A page that never stops running script cannot be read: the deadline gives up on it.
      const html = await withDeadline(page.content(), Math.max(READ_GRACE_MS, deadline - Date.now())).catch(
        (error) => {
          if (!running.isConnected() || crashed) throw lost('the browser went away while reading');
          if (error instanceof RenderTimeout) return null;
          throw error;
        },
      );
      if (html === null)
        return {
          ok: false,
          note:
            dialogs > 0
              ? `${address} kept opening dialogs in the browser (alert, confirm or prompt: ${dialogs} dismissed) for more than ${seconds(timeoutMs)}, so it could not be rendered.`
              : navigations > 3
                ? loopNote()
                : `${address} kept the browser busy (a script that never stops) for more than ${seconds(timeoutMs)}, so it could not be rendered.`,
        };
      let shots: ImageShot[] = [];
      if (withShots)
        shots = await takeShots(page, Math.max(Date.now() + 1000, deadline)).catch((error) => {
          logger.info({ err: error, page: address }, 'screenshots of a rendered page failed');
          return [];
        });
      if (session.refused.length > 0) {
        const listed = [...new Set(session.refused)];
        notes.push(
          `${address} tried to load from ${listed.length} private or local address${listed.length === 1 ? '' : 'es'} in the browser (${listed.slice(0, 5).join(', ')}${listed.length > 5 ? ', …' : ''}); the audit does not reach such addresses, so nothing was loaded from ${listed.length === 1 ? 'it' : 'them'}.`,
        );
      }
      if (session.overLimit)
        notes.push(
          `${address} loads more than ${megabytes(maxBytes)} in the browser; the audit stopped loading it there and read what it showed by then.`,
        );
      if (scriptErrors > 0)
        notes.push(
          `${address} had ${scriptErrors} script error${scriptErrors === 1 ? '' : 's'} in the browser; the audit read the page as it was shown.`,
        );
      if (dialogs > 0)
        notes.push(
          `${address} opened ${dialogs} dialog${dialogs === 1 ? '' : 's'} (alert, confirm or prompt) in the browser; the audit dismissed ${dialogs === 1 ? 'it' : 'them'}.`,
        );
      if (popups > 0)
        notes.push(
          `${address} opened ${popups} pop-up window${popups === 1 ? '' : 's'} in the browser; the audit closed ${popups === 1 ? 'it' : 'them'}.`,
        );
      if (downloads > 0)
        notes.push(`${address} tried to start a download in the browser; the audit refused it.`);
      return { ok: true, url: finalUrl, html, notes, shots };
    } catch (error) {
      if (error instanceof BrowserLost) throw error;
      if (!running.isConnected() || crashed) throw lost('the browser went away');
      if (error instanceof RenderTimeout)
        return {
          ok: false,
          note: `${address} could not be rendered in the browser within ${seconds(timeoutMs)}.`,
        };
      if (navigations > 3 || (error instanceof Error && navigationError(error.message)))
        return { ok: false, note: loopNote() };
      throw error;
    } finally {
      if (context) await closeContext(context, owner);
      await withDeadline(session.close(), CLOSE_TIMEOUT_MS).catch(() => {});
    }
  }

  return {
    /**
     * Renders one page (loaded, then at most 1.5 s more for the network to go quiet) and reads its
     * HTML and, with `withShots`, screenshots of its images; never throws for anything the page does.
     */
    async render(address: string, renderOptions: { withShots: boolean }): Promise<RenderResult> {
      if (closed) return { ok: false, note: `${address} was not rendered: the server is stopping.` };
      const release = await slots.acquire();
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            return await renderOnce(address, renderOptions.withShots);
          } catch (error) {
            if (!(error instanceof BrowserLost) || closed) {
              logger.warn({ err: error, page: address }, 'rendering a page failed');
              return { ok: false, note: `${address} could not be rendered in the browser.` };
            }
            await restart(error.message, error.owner as typeof browser);
            if (attempt >= 2)
              return {
                ok: false,
                note: `${address} could not be rendered: the browser stopped twice while rendering it.`,
              };
            await sleep(50);
          }
        }
      } finally {
        release();
      }
    },

    /** Process ids of the running browser (none before the first page), for memory and tests. */
    processIds(): Promise<number[]> {
      return browserProcessIds(marker);
    },

    /** How many times the browser was started. */
    get launches() {
      return launches;
    },

    async close(): Promise<void> {
      closed = true;
      const running = browser ? await browser.catch(() => null) : null;
      browser = null;
      if (running) {
        await withDeadline(running.browser.close(), CLOSE_TIMEOUT_MS).catch(async () => {
          for (const id of await browserProcessIds(marker)) {
            try {
              process.kill(id, 'SIGKILL');
            } catch {}
          }
        });
        await running.fallback.close();
      }
    },
  };
}
