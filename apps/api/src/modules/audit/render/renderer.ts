import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { PageShots, RenderResult } from './browser-pool.ts';
import { browserProcessIds, killBrowser } from './processes.ts';

/**
 * The server's side of rendered audits (ADR 061, ADR 072). The browser is driven from one worker
 * thread (render-worker.ts, browser-pool.ts): Playwright handles every event of a page on the
 * thread that drives it, and a page that navigates 300,000 times by script made `/health` wait
 * 4–12 s when that thread was the one answering requests. This side only queues pages, shares the
 * rendering slots fairly between users, and passes plain messages: a URL and its limits go in, the
 * result (HTML, notes, screenshot bytes) comes back.
 */

/** Pages rendered at once by one process (an audit reads 2 pages of a host at a time). */
export const PAGES_AT_ONCE = 2;
/** Heap of the render thread: Playwright's state for a few tabs and one decoded screenshot. */
const WORKER_HEAP_MB = 512;
/** How long `close` waits for the thread to close the browser before it is killed. */
const CLOSE_WAIT_MS = 10_000;

export type RenderWorkerData = {
  executablePath: string;
  /** safe-fetch's `allowPrivate`: the browser may reach private addresses (tests, the bench). */
  allowPrivate: boolean;
  /** Private addresses the browser may reach though every other one is refused (tests). */
  allowAddresses: string[] | null;
  connectTimeoutMs: number;
  timeoutMs?: number;
  maxBytes?: number;
  maxRendererMemoryMb?: number;
  marker: string;
};

/** A render result as it crosses the thread: the URL as text, the screenshot as bytes. */
export type WireRenderResult =
  | Extract<RenderResult, { ok: false }>
  | (Omit<Extract<RenderResult, { ok: true }>, 'url' | 'shots'> & {
      url: string;
      shots: (Omit<PageShots, 'picture'> & { picture: Uint8Array }) | null;
    });

export type ToWorker =
  | { type: 'render'; id: number; address: string; withShots: boolean; key?: string }
  | { type: 'close' };

export type ToRenderer =
  | { type: 'result'; id: number; result: WireRenderResult; launches: number }
  | { type: 'log'; level: 'info' | 'warn'; fields: Record<string, unknown>; message: string }
  | { type: 'closed' };

export type Renderer = ReturnType<typeof createRenderer>;

function fromWire(result: WireRenderResult): RenderResult {
  if (!result.ok) return result;
  const { shots } = result;
  return {
    ...result,
    url: new URL(result.url),
    shots: shots
      ? {
          ...shots,
          picture: Buffer.from(shots.picture.buffer, shots.picture.byteOffset, shots.picture.byteLength),
        }
      : null,
  };
}

/**
 * Rendering slots shared fairly between owners (users): a freed slot goes to the waiting page whose
 * owner has the fewest pages rendering, the longest waiting among those. One user's five audits
 * cannot keep another user's page waiting behind all of theirs, and a user alone still gets every
 * slot.
 */
export function createFairSlots(size: number) {
  type Waiter = { owner: string; turn: number; start: () => void };
  const waiting: Waiter[] = [];
  const rendering = new Map<string, number>();
  let free = size;
  let turns = 0;

  const take = (owner: string) => {
    free--;
    rendering.set(owner, (rendering.get(owner) ?? 0) + 1);
  };

  function dispatch() {
    while (free > 0 && waiting.length > 0) {
      let best = 0;
      for (let i = 1; i < waiting.length; i++) {
        const a = waiting[i] as Waiter;
        const b = waiting[best] as Waiter;
        const load = (rendering.get(a.owner) ?? 0) - (rendering.get(b.owner) ?? 0);
        if (load < 0 || (load === 0 && a.turn < b.turn)) best = i;
      }
      const [next] = waiting.splice(best, 1) as [Waiter];
      take(next.owner);
      next.start();
    }
  }

  return {
    async acquire(owner: string): Promise<() => void> {
      if (free > 0 && waiting.length === 0) take(owner);
      else await new Promise<void>((start) => waiting.push({ owner, turn: turns++, start }));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        free++;
        const left = (rendering.get(owner) ?? 1) - 1;
        if (left > 0) rendering.set(owner, left);
        else rendering.delete(owner);
        dispatch();
      };
    },
    /** Pages waiting for a slot. */
    get waiting() {
      return waiting.length;
    },
  };
}

export function createRenderer(options: {
  executablePath: string;
  allowPrivate: boolean;
  allowAddresses?: string[];
  connectTimeoutMs: number;
  logger: FastifyBaseLogger;
  timeoutMs?: number;
  maxBytes?: number;
  maxRendererMemoryMb?: number;
}) {
  const { logger } = options;
  /** Marks this renderer's browser processes, so they can be found (memory, a kill) among others. */
  const marker = `--altwise-render-pool=${randomUUID()}`;
  const data: RenderWorkerData = {
    executablePath: options.executablePath,
    allowPrivate: options.allowPrivate,
    allowAddresses: options.allowAddresses ?? null,
    connectTimeoutMs: options.connectTimeoutMs,
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxBytes,
    maxRendererMemoryMb: options.maxRendererMemoryMb,
    marker,
  };
  /**
   * Longest a page may take in the thread before the thread is taken for stuck and replaced: two
   * tries, each a browser start (30 s) and the page's time limit with its grace.
   */
  const stuckMs = 2 * (30_000 + (options.timeoutMs ?? 15_000) + 20_000);
  const slots = createFairSlots(PAGES_AT_ONCE);
  type Pending = { address: string; resolve: (result: RenderResult) => void; timer: NodeJS.Timeout };
  const pending = new Map<number, Pending>();
  let worker: Worker | null = null;
  let closing: Promise<void> | null = null;
  let launches = 0;
  let nextId = 1;

  /** The thread ended (a fault, its heap, a stuck page): its pages end with a note, its browser is killed. */
  function lose(lost: Worker, why: string) {
    if (worker !== lost) return;
    worker = null;
    if (!closing) logger.warn({ why }, 'the render thread stopped');
    for (const [id, page] of pending) {
      clearTimeout(page.timer);
      pending.delete(id);
      page.resolve({
        ok: false,
        note: closing
          ? `${page.address} was not rendered: the server is stopping.`
          : `${page.address} could not be rendered: the browser's thread stopped while rendering it.`,
      });
    }
    void killBrowser(marker);
  }

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(new URL('./render-worker.ts', import.meta.url), {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker = started;
    started.unref();
    started.on('message', (message: ToRenderer) => {
      if (message.type === 'log') logger[message.level](message.fields, message.message);
      else if (message.type === 'result') {
        launches = message.launches;
        const page = pending.get(message.id);
        if (!page) return;
        clearTimeout(page.timer);
        pending.delete(message.id);
        page.resolve(fromWire(message.result));
      }
    });
    started.on('error', (error) => lose(started, error.message));
    started.on('exit', (code) => lose(started, `exited with code ${code}`));
    return started;
  }

  function renderInThread(address: string, withShots: boolean, key?: string): Promise<RenderResult> {
    const id = nextId++;
    const running = thread();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        logger.warn({ page: address }, 'the render thread did not answer in time; replacing it');
        void running.terminate();
      }, stuckMs);
      timer.unref();
      pending.set(id, { address, resolve, timer });
      running.postMessage({ type: 'render', id, address, withShots, key } satisfies ToWorker);
    });
  }

  return {
    /**
     * Renders one page in the render thread (browser-pool.ts `render`): its HTML, names, one
     * screenshot of its images and its notes; never throws for anything the page does. `key` (an
     * audit's id) lets the audit's next page reuse this page's tab; `owner` (a user's id) is whose
     * turn it is when slots are shared.
     */
    async render(
      address: string,
      renderOptions: { withShots: boolean; key?: string; owner?: string },
    ): Promise<RenderResult> {
      if (closing) return { ok: false, note: `${address} was not rendered: the server is stopping.` };
      const release = await slots.acquire(renderOptions.owner ?? renderOptions.key ?? '');
      try {
        if (closing) return { ok: false, note: `${address} was not rendered: the server is stopping.` };
        return await renderInThread(address, renderOptions.withShots, renderOptions.key);
      } finally {
        release();
      }
    },

    /** Pages waiting for a rendering slot (for tests). */
    get waiting() {
      return slots.waiting;
    },

    /** Process ids of the running browser (none before the first page), for memory and tests. */
    processIds(): Promise<number[]> {
      return browserProcessIds(marker);
    },

    /** How many times the browser was started. */
    get launches() {
      return launches;
    },

    close(): Promise<void> {
      closing ??= (async () => {
        const running = worker;
        if (!running) return;
        const closed = new Promise<void>((resolve) => {
          running.on('message', (message: ToRenderer) => {
            if (message.type === 'closed') resolve();
          });
          running.once('exit', () => resolve());
          setTimeout(resolve, CLOSE_WAIT_MS).unref();
        });
        running.postMessage({ type: 'close' } satisfies ToWorker);
        await closed;
        await running.terminate();
        await killBrowser(marker);
      })();
      return closing;
    },
  };
}
