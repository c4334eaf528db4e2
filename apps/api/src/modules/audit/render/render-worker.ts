import { parentPort, workerData } from 'node:worker_threads';
import { isPrivateAddress, refusalRule } from '../../../net/safe-fetch.ts';
import { type BrowserPool, createBrowserPool } from './browser-pool.ts';
import type { RenderWorkerData, ToRenderer, ToWorker, WireRenderResult } from './renderer.ts';

/**
 * The render worker thread (ADR 072): it drives the browser with Playwright, runs the pages' SSRF
 * proxies and watches the renderers' memory, so that nothing a page does (a flood of navigations,
 * a heavy screenshot) runs on the thread that answers requests. Messages: `render` → `result`,
 * `close` → `closed`; log lines and the launch count go up as they happen.
 */

const port = parentPort;
if (!port) throw new Error('render-worker.ts runs only in a worker thread.');
const data = workerData as RenderWorkerData;
const post = (message: ToRenderer, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** Only what can cross the thread: an error becomes its name and message. */
const plain = (fields: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      key,
      value instanceof Error ? { name: value.name, message: value.message } : value,
    ]),
  );

const allowed = data.allowAddresses ? new Set(data.allowAddresses) : null;
const pool: BrowserPool = createBrowserPool({
  executablePath: data.executablePath,
  // A function cannot cross the thread: tests name the private addresses the browser may reach.
  refuse: allowed
    ? (address) => !allowed.has(address) && isPrivateAddress(address)
    : refusalRule({ allowPrivate: data.allowPrivate }),
  connectTimeoutMs: data.connectTimeoutMs,
  timeoutMs: data.timeoutMs,
  maxBytes: data.maxBytes,
  maxRendererMemoryMb: data.maxRendererMemoryMb,
  marker: data.marker,
  logger: {
    info: (fields, message) => post({ type: 'log', level: 'info', fields: plain(fields), message }),
    warn: (fields, message) => post({ type: 'log', level: 'warn', fields: plain(fields), message }),
  },
});

port.on('message', (message: ToWorker) => {
  if (message.type === 'close') {
    void pool.close().finally(() => post({ type: 'closed' }));
    return;
  }
  void (async () => {
    const result = await pool.render(message.address, { withShots: message.withShots, key: message.key });
    let wire: WireRenderResult;
    const transfer: ArrayBuffer[] = [];
    if (!result.ok) wire = result;
    else {
      const { url, shots, ...rest } = result;
      // The screenshot's bytes move to the main thread rather than being copied.
      const picture = shots ? Uint8Array.from(shots.picture) : null;
      if (picture) transfer.push(picture.buffer);
      wire = { ...rest, url: url.href, shots: shots && picture ? { ...shots, picture } : null };
    }
    post({ type: 'result', id: message.id, result: wire, launches: pool.launches }, transfer);
  })();
});
