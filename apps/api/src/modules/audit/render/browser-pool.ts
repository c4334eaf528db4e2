import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Browser,
  type BrowserContext,
  type CDPSession,
  chromium,
  type Page,
  type Request,
} from 'playwright-core';
import sharp from 'sharp';
import { Semaphore } from '../../../lib/throttle.ts';
import {
  MARK_ELEMENTS,
  MAX_MARKED_ELEMENTS,
  type MarkBox,
  nameMarkedElements,
  type PageMarks,
} from '../../../pages/page-marks.ts';
import { lowPriorityLauncher } from './low-priority.ts';
import { browserProcessIds, killBrowser, residentBytes } from './processes.ts';
import { PAGES_AT_ONCE } from './renderer.ts';
import { createProxySession, type ProxySession } from './ssrf-proxy.ts';

/** Where the pool's log lines go: the worker forwards them to the server's logger. */
export type RenderLogger = {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
};

/**
 * Rendered audits (ADR 061, ADR 072): one headless Chromium per process, shared by every
 * audit, PAGES_AT_ONCE pages at a time. This module runs in the render worker thread
 * (render-worker.ts), never on the thread that answers requests: Playwright handles every event of
 * the browser on the thread that drives it (renderer.ts is the main thread's side).
 * A page is rendered in a tab (a browser context and its one
 * page) whose every request goes through its own session of the SSRF proxy (ssrf-proxy.ts). A tab
 * belongs to one audit (its `key`): the audit's next page is rendered in the same tab, so cookies,
 * storage and cache are shared within one audit of one site only, never between audits or users;
 * a tab that ended badly (not loaded, over the byte limit, a download) is closed, and an idle one
 * after TAB_IDLE_MS. No downloads, no pop-ups, no permissions, no service workers, no web sockets,
 * fonts, audio or video; dialogs dismissed; a time and a byte limit per page. A browser that
 * crashes or hangs is killed and started again, and the page is tried once more.
 */

/**
 * Navigations of a page's main frame (same-document ones included: `location.hash`,
 * `history.pushState`) after which the page's renderer is ended: a page that navigates on and on
 * floods the thread that drives the browser with events (ADR 072). A single-page app makes a few.
 */
export const MAX_NAVIGATIONS = 100;
/**
 * Resident memory one renderer process may reach before it is killed and its page ended with a
 * notice (ADR 072): far above an ordinary page, low enough that 2 pages and 2 idle tabs cannot take
 * the machine. Site isolation is off (CHROMIUM_FLAGS),
 * so a page's cross-site frames live in its own renderer and the cap holds for the whole page.
 */
export const MAX_RENDERER_MEMORY_MB = 1024;
/** How often renderer processes' memory is read while the browser runs. */
const MEMORY_POLL_MS = 100;
/** How often the browser's processes are listed again (a new renderer for a new tab). */
const PROCESS_SCAN_MS = 500;
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
/**
 * A page with no request under way at `load` is read once it stayed so this long: a script that
 * fetches more after `load` (a timer, a promise) starts within it, and the full window applies.
 */
const QUIET_AT_LOAD_MS = 60;

/** Requests of the page under way, to wait for the network to go quiet after `load`. */
function watchNetwork(page: Page) {
  // The requests themselves, not a count: a request of the tab's previous page that ends late must
  // not count as one of this page's.
  const open = new Set<Request>();
  let lastChange = Date.now();
  page.on('request', (request) => {
    open.add(request);
    lastChange = Date.now();
  });
  const done = (request: Request) => {
    if (open.delete(request)) lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    /** Forgets what the tab's previous page had under way. */
    reset(): void {
      open.clear();
      lastChange = Date.now();
    },
    /**
     * Resolves once no request was under way for QUIET_MS, or after `limitMs` at most. A page with
     * nothing under way at `load` and nothing started within QUIET_AT_LOAD_MS is done sooner.
     */
    async settled(limitMs: number): Promise<void> {
      const loadedAt = Date.now();
      const until = loadedAt + limitMs;
      const quietAtLoad = open.size === 0;
      while (Date.now() < until) {
        const now = Date.now();
        if (open.size === 0) {
          if (now - lastChange >= QUIET_MS) return;
          if (quietAtLoad && lastChange <= loadedAt && now - loadedAt >= QUIET_AT_LOAD_MS) return;
        }
        await sleep(25);
      }
    },
  };
}
/** Most screenshots taken of one page's images. */
export const MAX_SCREENSHOTS_PER_PAGE = 40;
/** Screenshots are taken of the top of the page only, down to this many CSS pixels. */
const MAX_SCREENSHOT_PAGE_HEIGHT = 6_000;
const VIEWPORT = { width: 1280, height: 800 };
/** Reading the page's HTML may take this long even when the time limit is spent (a page still loading). */
const READ_GRACE_MS = 3_000;
/** How long closing a page's context may take before the browser is taken for hung. */
const CLOSE_TIMEOUT_MS = 5_000;
/** An audit's tab is kept this long after its page for the audit's next page, then closed. */
const TAB_IDLE_MS = 5_000;
/** Most idle tabs kept at once (each holds a renderer process). */
const MAX_IDLE_TABS = PAGES_AT_ONCE;
/** What an audit never needs, blocked in the browser before it is asked for: fonts, audio, video, icons. */
const BLOCKED_EXTENSIONS = [
  'woff2',
  'woff',
  'ttf',
  'otf',
  'eot',
  'mp4',
  'm4v',
  'webm',
  'ogv',
  'ogg',
  'oga',
  'mp3',
  'm4a',
  'aac',
  'wav',
  'flac',
  'opus',
  'mov',
  'avi',
  'mkv',
  'm3u8',
  'mpd',
];
const BLOCKED_URLS = [
  ...BLOCKED_EXTENSIONS.flatMap((extension) => [`*.${extension}`, `*.${extension}?*`]),
  '*/favicon.ico',
];

/** The flags the browser is started with (Playwright adds its own headless and pipe flags). */
const CHROMIUM_FLAGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // WebRTC's UDP would go around the proxy: a page could reach a private address over STUN/TURN.
  // Chromium reads this switch; the `--force-…` spelling has no effect on current builds (ADR 072).
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  // A page's cross-site frames share its renderer process, so one process holds one page and its
  // memory cap is the page's (ADR 072). A context holds one audit's tab: nothing secret to isolate.
  '--disable-site-isolation-trials',
  // Script heap of a renderer; buffers, canvases and the rest are capped by MAX_RENDERER_MEMORY_MB.
  '--js-flags=--max-old-space-size=512',
  '--dns-prefetch-disable',
  '--disable-extensions',
  '--mute-audio',
  '--autoplay-policy=user-gesture-required',
];

/**
 * One screenshot of the area that holds a page's marked elements (page-marks.ts), cropped per image
 * only for the elements the page reader keeps (screenshots.ts `cropShots`).
 */
export type PageShots = {
  /** The encoded screenshot (JPEG). */
  picture: Buffer;
  /** The screenshot's top-left corner in page coordinates, and its pixels per CSS pixel. */
  left: number;
  top: number;
  scale: number;
  width: number;
  height: number;
  /** Each marked element's box on the page, by its mark. */
  boxes: Map<number, MarkBox>;
};

export type RenderResult =
  | {
      ok: true;
      /** Where the browser ended up (after redirects). */
      url: URL;
      html: string;
      /** The attribute suffix of this render's marks in `html` (page-marks.ts). */
      marker: string;
      /** What happened while rendering, in words, for the audit's notices. */
      notes: string[];
      shots: PageShots | null;
      /** How long each step took, and whether the audit's tab was reused (for the bench). */
      steps: RenderSteps;
      reusedTab: boolean;
    }
  | { ok: false; note: string };

/** A render's steps: the tab (reused or opened), `load`, the quiet window, marks, names, the screenshot, the HTML. */
export type RenderSteps = {
  tab: number;
  load: number;
  quiet: number;
  mark: number;
  names: number;
  shot: number;
  read: number;
};

export type BrowserPool = ReturnType<typeof createBrowserPool>;

/** The page did something that ends its render, said in words (too many navigations, too much memory). */
class PageStopped extends Error {}

/** The browser of a pool once started, with the proxy it was started with. */
type StartedBrowser = Promise<{ browser: Browser; fallback: ProxySession }>;

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

export function createBrowserPool(options: {
  executablePath: string;
  /** The SSRF rule every request of the browser passes (safe-fetch's refusalRule). */
  refuse: (address: string) => boolean;
  connectTimeoutMs: number;
  logger: RenderLogger;
  timeoutMs?: number;
  maxBytes?: number;
  /** Resident memory a renderer process may reach (MAX_RENDERER_MEMORY_MB). */
  maxRendererMemoryMb?: number;
  /** Marks this pool's browser processes, so they can be found (memory, a kill) among others. */
  marker?: string;
}) {
  const { logger } = options;
  const timeoutMs = options.timeoutMs ?? RENDER_PAGE_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_RENDER_BYTES;
  const maxRendererMemoryMb = options.maxRendererMemoryMb ?? MAX_RENDERER_MEMORY_MB;
  const slots = new Semaphore(PAGES_AT_ONCE);
  const marker = options.marker ?? `--altwise-render-pool=${randomUUID()}`;
  let browser: StartedBrowser | null = null;
  let closed = false;
  let launches = 0;
  /** When the memory watch last killed a renderer: a page that crashes right after ran out of memory. */
  let memoryKilledAt = 0;
  let memoryWatch: NodeJS.Timeout | null = null;

  /**
   * Reads every renderer process's resident memory each MEMORY_POLL_MS and kills one past the cap
   * (a hard limit per process is not available without cgroups, and V8's heap flag does not cover
   * buffers, canvases or frames). The page in it crashes and ends with a notice in words.
   */
  function watchMemory() {
    if (memoryWatch) return;
    const renderers = new Map<number, boolean>();
    let scannedAt = 0;
    const poll = async () => {
      if (Date.now() - scannedAt >= PROCESS_SCAN_MS) {
        scannedAt = Date.now();
        const ids = new Set(await browserProcessIds(marker));
        for (const id of renderers.keys()) if (!ids.has(id)) renderers.delete(id);
        for (const id of ids) {
          if (renderers.has(id)) continue;
          const command = await readFile(`/proc/${id}/cmdline`, 'utf8').catch(() => '');
          renderers.set(id, command.includes('--type=renderer'));
        }
      }
      for (const [id, renderer] of renderers) {
        if (!renderer) continue;
        const bytes = await residentBytes(id);
        if (bytes <= maxRendererMemoryMb * 1024 * 1024) continue;
        memoryKilledAt = Date.now();
        renderers.delete(id);
        logger.warn({ pid: id, mb: Math.round(bytes / (1024 * 1024)) }, 'a renderer passed its memory cap');
        try {
          process.kill(id, 'SIGKILL');
        } catch {}
      }
    };
    const loop = () => {
      memoryWatch = setTimeout(() => {
        void poll()
          .catch(() => {})
          .finally(() => {
            if (memoryWatch && !closed) loop();
          });
      }, MEMORY_POLL_MS);
    };
    loop();
  }

  function stopWatchingMemory() {
    if (memoryWatch) clearTimeout(memoryWatch);
    memoryWatch = null;
  }

  async function launch() {
    // The browser's own proxy: what a page's context does not route itself is checked here too.
    const fallback = await createProxySession({
      refuse: options.refuse,
      connectTimeoutMs: options.connectTimeoutMs,
      maxBytes: Number.MAX_SAFE_INTEGER,
    });
    const launcher = await lowPriorityLauncher(options.executablePath);
    try {
      const started = await chromium.launch({
        executablePath: launcher.path,
        headless: true,
        chromiumSandbox: false,
        args: [...CHROMIUM_FLAGS, marker],
        // Playwright turns off Chromium's own guard against pages that navigate by script in a loop
        // (more than 200 `pushState` or `location.hash` changes in 10 s are dropped); keep it (ADR 072).
        ignoreDefaultArgs: ['--disable-ipc-flooding-protection'],
        proxy: { server: `http://127.0.0.1:${fallback.port}`, bypass: '<-loopback>' },
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: 30_000,
      });
      launches++;
      watchMemory();
      started.once('disconnected', () => {
        void fallback.close();
        void launcher.dispose();
      });
      logger.info({ launches }, 'rendering browser started');
      return { browser: started, fallback };
    } catch (error) {
      await fallback.close();
      await launcher.dispose();
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
    dropTabs((tab) => tab.owner === old);
    await killBrowser(marker);
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

  type PageState = {
    dialogs: number;
    popups: number;
    downloads: number;
    scriptErrors: number;
    crashed: boolean;
    navigations: number;
    /** Closed past MAX_NAVIGATIONS. */
    flooded: boolean;
    /** Its renderer was killed past the memory cap. */
    outOfMemory: boolean;
  };
  const freshState = (): PageState => ({
    dialogs: 0,
    popups: 0,
    downloads: 0,
    scriptErrors: 0,
    crashed: false,
    navigations: 0,
    flooded: false,
    outOfMemory: false,
  });
  /** A browser context and its one page, with its own proxy session; reused for one audit's pages. */
  type Tab = {
    key: string | null;
    owner: StartedBrowser;
    context: BrowserContext;
    page: Page;
    cdp: CDPSession;
    session: ProxySession;
    network: ReturnType<typeof watchNetwork>;
    state: PageState;
    idleTimer: NodeJS.Timeout | null;
  };
  /** Tabs waiting for their audit's next page, oldest first. */
  const idle: Tab[] = [];

  async function closeTab(tab: Tab) {
    if (tab.idleTimer) clearTimeout(tab.idleTimer);
    tab.idleTimer = null;
    const at = idle.indexOf(tab);
    if (at >= 0) idle.splice(at, 1);
    await closeContext(tab.context, tab.owner);
    await withDeadline(tab.session.close(), CLOSE_TIMEOUT_MS).catch(() => {});
  }

  /** Forgets idle tabs of a browser that is gone (their contexts went with it) and closes their proxies. */
  function dropTabs(which: (tab: Tab) => boolean) {
    for (const tab of idle.filter(which)) {
      if (tab.idleTimer) clearTimeout(tab.idleTimer);
      idle.splice(idle.indexOf(tab), 1);
      void tab.session.close();
    }
  }

  /** Keeps a tab for its audit's next page, for TAB_IDLE_MS at most. */
  function keepTab(tab: Tab) {
    idle.push(tab);
    tab.idleTimer = setTimeout(() => void closeTab(tab), TAB_IDLE_MS);
    tab.idleTimer.unref();
    while (idle.length > MAX_IDLE_TABS) void closeTab(idle[0] as Tab);
  }

  /** An idle tab of this audit in the running browser, taken out of the idle list. */
  function takeTab(key: string, owner: Tab['owner']): Tab | null {
    const at = idle.findIndex((tab) => tab.key === key && tab.owner === owner);
    if (at < 0) return null;
    const [tab] = idle.splice(at, 1) as [Tab];
    if (tab.idleTimer) clearTimeout(tab.idleTimer);
    tab.idleTimer = null;
    return tab;
  }

  async function openTab(owner: Tab['owner'], running: Browser, key: string | null): Promise<Tab> {
    const lost = (why: unknown) => new BrowserLost(why instanceof Error ? why.message : String(why), owner);
    const session = await createProxySession({
      refuse: options.refuse,
      connectTimeoutMs: options.connectTimeoutMs,
      maxBytes,
    });
    let context: BrowserContext | null = null;
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
        throw lost(error);
      });
      const opened = context;
      const page = await withDeadline(opened.newPage(), CLOSE_TIMEOUT_MS).catch((error) => {
        throw lost(error);
      });
      const cdp = await withDeadline(
        (async () => {
          const session = await opened.newCDPSession(page);
          await session.send('Network.enable');
          await session.send('Network.setBlockedURLs', { urls: BLOCKED_URLS });
          // Web sockets never reach the network: the page sees them closed.
          await opened.routeWebSocket(/.*/, (socket) => {
            void socket.close().catch(() => {});
          });
          return session;
        })(),
        CLOSE_TIMEOUT_MS,
      ).catch((error) => {
        throw lost(error);
      });
      const tab: Tab = {
        key,
        owner,
        context: opened,
        page,
        cdp,
        session,
        network: watchNetwork(page),
        state: freshState(),
        idleTimer: null,
      };
      opened.on('page', (other) => {
        if (other === page) return;
        tab.state.popups++;
        void other.close().catch(() => {});
      });
      page.on('dialog', (dialog) => {
        tab.state.dialogs++;
        void dialog.dismiss().catch(() => {});
      });
      page.on('download', (download) => {
        tab.state.downloads++;
        void download.cancel().catch(() => {});
      });
      page.on('pageerror', () => {
        tab.state.scriptErrors++;
      });
      page.on('crash', () => {
        tab.state.crashed = true;
        if (Date.now() - memoryKilledAt < 3_000) tab.state.outOfMemory = true;
        // An idle tab whose renderer is gone is of no use to its audit's next page.
        if (idle.includes(tab)) void closeTab(tab);
      });
      // Counted as they happen, not after the page: past the cap the page is closed, which stops
      // the flood of events at its source (ADR 072).
      page.on('framenavigated', (frame) => {
        if (frame !== page.mainFrame()) return;
        tab.state.navigations++;
        if (tab.state.navigations > MAX_NAVIGATIONS && !tab.state.flooded) {
          tab.state.flooded = true;
          // Its renderer is still in the script's loop and would not answer a close: end it from
          // the browser's side (the crash is this tab's alone; the page ends with its note).
          void tab.cdp.send('Page.crash').catch(() => {});
        }
      });
      return tab;
    } catch (error) {
      if (context) await closeContext(context, owner);
      await session.close();
      throw error;
    }
  }

  /**
   * Marks the page's image-like elements, names them from the browser's accessibility tree and
   * takes one screenshot of the area that holds the on-screen ones (cropped later, per image the
   * reader keeps). Names and screenshots are best effort: the page is read without them on failure.
   */
  async function markPage(
    tab: Tab,
    address: string,
    markId: string,
    withShots: boolean,
    deadline: number,
    step: (name: keyof RenderSteps) => void,
  ): Promise<PageShots | null> {
    const attribute = `data-altwise-${markId}`;
    const marks = await withDeadline(
      tab.page.evaluate(
        `(${MARK_ELEMENTS})(${JSON.stringify({ attribute, max: MAX_MARKED_ELEMENTS, maxBoxes: withShots ? MAX_SCREENSHOTS_PER_PAGE : 0, maxHeight: MAX_SCREENSHOT_PAGE_HEIGHT })})`,
      ) as Promise<PageMarks>,
      deadline - Date.now(),
    );
    step('mark');
    if (marks.count === 0) return null;
    await withDeadline(nameMarkedElements(tab.cdp, attribute), Math.max(1, deadline - Date.now())).catch(
      (error) => {
        logger.info({ err: error, page: address }, 'naming a rendered page in the browser failed');
      },
    );
    step('names');
    if (!withShots || marks.boxes.length === 0) return null;
    return takeShot(tab.cdp, marks, deadline).catch((error) => {
      logger.info({ err: error, page: address }, 'screenshots of a rendered page failed');
      return null;
    });
  }

  /**
   * One screenshot of the smallest area that holds every marked box, straight from Chromium
   * (`Page.captureScreenshot` beyond the viewport, JPEG q90): Playwright's full-page screenshot
   * hid the caret with an injected style and encoded PNG, 0.56 s of a 1.4 s render in the bench.
   * The crops are WebP q70 anyway.
   */
  async function takeShot(cdp: CDPSession, marks: PageMarks, deadline: number): Promise<PageShots | null> {
    const boxes = marks.boxes;
    const left = Math.max(0, Math.floor(Math.min(...boxes.map((box) => box.x))));
    const top = Math.max(0, Math.floor(Math.min(...boxes.map((box) => box.y))));
    const right = Math.min(marks.width, Math.ceil(Math.max(...boxes.map((box) => box.x + box.w))));
    const bottom = Math.min(marks.height, Math.ceil(Math.max(...boxes.map((box) => box.y + box.h))));
    if (right - left < 1 || bottom - top < 1) return null;
    const { data } = await withDeadline(
      cdp.send('Page.captureScreenshot', {
        format: 'jpeg',
        quality: 90,
        clip: { x: left, y: top, width: right - left, height: bottom - top, scale: 1 },
        captureBeyondViewport: true,
      }),
      deadline - Date.now(),
    );
    const picture = Buffer.from(data, 'base64');
    const { width = right - left, height = bottom - top } = await sharp(picture).metadata();
    return {
      picture,
      left,
      top,
      scale: width / (right - left),
      width,
      height,
      boxes: new Map(boxes.map((box) => [box.index, box])),
    };
  }

  async function renderOnce(address: string, withShots: boolean, key: string | null): Promise<RenderResult> {
    const owner = currentBrowser();
    const lost = (why: string) => new BrowserLost(why, owner);
    // A browser that dies while it starts is started again like one that dies later.
    const { browser: running } = await owner.catch((error) => {
      throw lost(error instanceof Error ? (error.message.split('\n')[0] ?? 'no browser') : 'no browser');
    });
    if (!running.isConnected()) throw lost('the browser is not connected');
    const began = performance.now();
    /** Milliseconds of each step of this render, for the bench (time spent, not an outcome). */
    const steps: RenderSteps = { tab: 0, load: 0, quiet: 0, mark: 0, names: 0, shot: 0, read: 0 };
    let stepStart = began;
    const step = (name: keyof RenderSteps) => {
      const now = performance.now();
      steps[name] = Math.round(now - stepStart);
      stepStart = now;
    };
    const reused = key ? takeTab(key, owner) : null;
    const tab = reused ?? (await openTab(owner, running, key));
    step('tab');
    const { page, session } = tab;
    tab.state = freshState();
    const state = tab.state;
    tab.network.reset();
    session.reset();
    /** Whether the tab may render the audit's next page: this one ended cleanly. */
    let reusable = false;
    const deadline = Date.now() + timeoutMs;
    const notes: string[] = [];
    /** A page that navigates on and on by script (location.replace in a loop) never settles. */
    const loopNote = () =>
      `${address} kept navigating from page to page in the browser (${state.navigations} navigations: a redirect loop), so it could not be rendered.`;
    const navigationError = (message: string) =>
      /interrupted by another navigation|Execution context was destroyed|frame was detached/i.test(message);
    /** The note of a page this pool ended itself (navigation flood, memory cap); null otherwise. */
    const stoppedNote = () =>
      state.outOfMemory
        ? `${address} used more than ${maxRendererMemoryMb} MB of memory in the browser, so the audit stopped it and it could not be rendered.`
        : state.flooded
          ? `${address} navigated more than ${MAX_NAVIGATIONS} times in the browser (location.hash, history.pushState or redirects without end), so the audit stopped it and it could not be rendered.`
          : null;
    /** The browser itself went away (not a page this pool ended on purpose). */
    const browserGone = () => !running.isConnected() || (state.crashed && !state.outOfMemory);
    try {
      let response: Awaited<ReturnType<Page['goto']>> = null;
      let loaded = true;
      try {
        response = await page.goto(address, { waitUntil: 'load', timeout: timeoutMs });
        step('load');
      } catch (error) {
        if (stoppedNote()) throw new PageStopped();
        if (!running.isConnected()) throw lost('the browser went away while loading');
        if (state.crashed) throw lost('the page crashed');
        const message = error instanceof Error ? error.message : '';
        if (/Download is starting/i.test(message) || state.downloads > 0)
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
        await tab.network.settled(Math.max(0, Math.min(NETWORK_IDLE_MS, deadline - Date.now())));
        step('quiet');
      }
      if (
        response &&
        !/^\s*(text\/html|application\/xhtml\+xml)/i.test(response.headers()['content-type'] ?? 'text/html')
      )
        return { ok: false, note: `${address} is not an HTML page in the browser, so it was not rendered.` };
      const finalUrl = new URL(page.url());
      const markId = randomUUID().replaceAll('-', '');
      const shots = await markPage(
        tab,
        address,
        markId,
        withShots,
        Math.max(Date.now() + 1000, deadline),
        step,
      ).catch((error) => {
        if (stoppedNote()) throw new PageStopped();
        if (browserGone()) throw lost('the browser went away while marking');
        logger.info({ err: error, page: address }, 'marking a rendered page failed');
        return null;
      });
      step('shot');
      // A page that never stops running script cannot be read: the deadline gives up on it.
      const html = await withDeadline(page.content(), Math.max(READ_GRACE_MS, deadline - Date.now())).catch(
        (error) => {
          if (stoppedNote()) throw new PageStopped();
          if (browserGone()) throw lost('the browser went away while reading');
          if (error instanceof RenderTimeout) return null;
          throw error;
        },
      );
      if (stoppedNote()) throw new PageStopped();
      if (html === null)
        return {
          ok: false,
          note:
            state.dialogs > 0
              ? `${address} kept opening dialogs in the browser (alert, confirm or prompt: ${state.dialogs} dismissed) for more than ${seconds(timeoutMs)}, so it could not be rendered.`
              : state.navigations > 3
                ? loopNote()
                : `${address} kept the browser busy (a script that never stops) for more than ${seconds(timeoutMs)}, so it could not be rendered.`,
        };
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
      if (state.scriptErrors > 0)
        notes.push(
          `${address} had ${state.scriptErrors} script error${state.scriptErrors === 1 ? '' : 's'} in the browser; the audit read the page as it was shown.`,
        );
      if (state.dialogs > 0)
        notes.push(
          `${address} opened ${state.dialogs} dialog${state.dialogs === 1 ? '' : 's'} (alert, confirm or prompt) in the browser; the audit dismissed ${state.dialogs === 1 ? 'it' : 'them'}.`,
        );
      if (state.popups > 0)
        notes.push(
          `${address} opened ${state.popups} pop-up window${state.popups === 1 ? '' : 's'} in the browser; the audit closed ${state.popups === 1 ? 'it' : 'them'}.`,
        );
      if (state.downloads > 0)
        notes.push(`${address} tried to start a download in the browser; the audit refused it.`);
      reusable =
        loaded &&
        !session.overLimit &&
        !state.crashed &&
        !state.flooded &&
        state.downloads === 0 &&
        state.dialogs === 0;
      step('read');
      return {
        ok: true,
        url: finalUrl,
        html,
        marker: markId,
        notes,
        shots,
        steps,
        reusedTab: reused !== null,
      };
    } catch (error) {
      const stopped = stoppedNote();
      if (stopped) return { ok: false, note: stopped };
      if (error instanceof BrowserLost) throw error;
      if (browserGone()) throw lost('the browser went away');
      if (error instanceof RenderTimeout)
        return {
          ok: false,
          note: `${address} could not be rendered in the browser within ${seconds(timeoutMs)}.`,
        };
      if (state.navigations > 3 || (error instanceof Error && navigationError(error.message)))
        return { ok: false, note: loopNote() };
      throw error;
    } finally {
      if (reusable && key && !closed && browser === owner) keepTab(tab);
      else await closeTab(tab);
    }
  }

  return {
    /**
     * Renders one page (loaded, then at most 1.5 s more for the network to go quiet) and reads its
     * HTML, its image-like elements' names from the browser's accessibility tree and, with
     * `withShots`, one screenshot of its images; never throws for anything the page does. `key`
     * (an audit's id) lets the audit's next page reuse this page's tab.
     */
    async render(
      address: string,
      renderOptions: { withShots: boolean; key?: string },
    ): Promise<RenderResult> {
      if (closed) return { ok: false, note: `${address} was not rendered: the server is stopping.` };
      const release = await slots.acquire();
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            return await renderOnce(address, renderOptions.withShots, renderOptions.key ?? null);
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
      stopWatchingMemory();
      await Promise.all(idle.map((tab) => closeTab(tab)));
      const running = browser ? await browser.catch(() => null) : null;
      browser = null;
      if (running) {
        await withDeadline(running.browser.close(), CLOSE_TIMEOUT_MS).catch(() => killBrowser(marker));
        await running.fallback.close();
      }
    },
  };
}
