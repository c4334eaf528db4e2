import { Worker } from 'node:worker_threads';
import { EngineBusyError, EngineProviderError } from '../errors.ts';
import type { WorkerClose, WorkerRequest, WorkerResponse } from './worker.ts';

/**
 * A small fixed pool of offline-engine threads. Each keeps its models warm; requests wait in a
 * bounded queue (full queue = EngineBusyError) so memory stays bounded under load. A crashed
 * thread fails only its own request and is replaced.
 */

type Success = Extract<WorkerResponse, { ok: true; objects: unknown }>;
type Task = Omit<WorkerRequest, 'id'>;

interface Slot {
  worker: Worker;
  ready: Promise<number>;
  state: 'loading' | 'ready' | 'failed';
  loadError?: Error;
  busy?: { id: number; resolve: (r: Success) => void; reject: (e: Error) => void };
}

export interface WorkerPoolOptions {
  size: number;
  maxQueue: number;
  /** Only for tests: another worker script and its data. */
  workerUrl?: URL;
  workerData?: unknown;
}

export class WorkerPool {
  readonly #options: WorkerPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #queue: Array<{ task: Task; resolve: (r: Success) => void; reject: (e: Error) => void }> = [];
  #nextId = 1;
  #closed = false;

  constructor(options: WorkerPoolOptions) {
    this.#options = options;
  }

  /** Starts the threads (once) and resolves with the slowest model load time in ms. */
  async start(): Promise<number> {
    if (this.#slots.length === 0) {
      for (let i = 0; i < this.#options.size; i++) this.#slots.push(this.#spawn());
    }
    const times = await Promise.all(this.#slots.map((s) => s.ready));
    return Math.max(...times);
  }

  run(task: Task): Promise<Success> {
    if (this.#closed)
      return Promise.reject(new EngineProviderError('The engine is closed.', { retryable: true }));
    if (this.#queue.length >= this.#options.maxQueue) return Promise.reject(new EngineBusyError());
    void this.start().catch(() => {});
    return new Promise<Success>((resolve, reject) => {
      this.#queue.push({ task, resolve, reject });
      this.#dispatch();
    });
  }

  /** Whether a new request would be queued rather than refused; checked before preparing an image. */
  get hasCapacity(): boolean {
    return !this.#closed && this.#queue.length < this.#options.maxQueue;
  }

  get queued(): number {
    return this.#queue.length;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const item of this.#queue.splice(0)) {
      item.reject(new EngineProviderError('The engine was closed.', { retryable: true }));
    }
    await Promise.all(this.#slots.splice(0).map((s) => closeThread(s.worker)));
  }

  #spawn(): Slot {
    const worker = new Worker(this.#options.workerUrl ?? new URL('./worker.ts', import.meta.url), {
      workerData: this.#options.workerData,
    });
    worker.unref();
    let markReady: (ms: number) => void = () => {};
    let failReady: (e: Error) => void = () => {};
    const ready = new Promise<number>((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    ready.catch(() => {});
    const slot: Slot = { worker, ready, state: 'loading' };
    worker.on('message', (message: WorkerResponse) => {
      if (message.id === -1) {
        if (message.ok && 'loadMs' in message) {
          slot.state = 'ready';
          markReady(message.loadMs);
        } else if (!message.ok) {
          slot.state = 'failed';
          slot.loadError = new EngineProviderError(`Offline models failed to load: ${message.message}`, {
            retryable: false,
          });
          failReady(slot.loadError);
        }
        this.#dispatch();
        return;
      }
      const busy = slot.busy;
      if (!busy || busy.id !== message.id) return;
      slot.busy = undefined;
      if (message.ok && 'objects' in message) busy.resolve(message);
      else if (!message.ok)
        busy.reject(
          new EngineProviderError(`Offline engine failed: ${message.message}`, { retryable: true }),
        );
      this.#dispatch();
    });
    const onDeath = (error: Error) => {
      const wasReady = slot.state === 'ready';
      failReady(error);
      slot.busy?.reject(
        new EngineProviderError(`Offline engine thread stopped: ${error.message}`, {
          retryable: true,
          cause: error,
        }),
      );
      slot.busy = undefined;
      const index = this.#slots.indexOf(slot);
      if (index < 0 || this.#closed) return;
      if (wasReady) {
        // A thread that worked before is replaced; one that never loaded would only fail again.
        this.#slots[index] = this.#spawn();
      } else {
        slot.state = 'failed';
        slot.loadError ??= new EngineProviderError(`Offline models failed to load: ${error.message}`, {
          retryable: false,
        });
      }
      this.#dispatch();
    };
    worker.on('error', onDeath);
    worker.on('exit', (code) => {
      if (!this.#closed && this.#slots.includes(slot)) onDeath(new Error(`exited with code ${code}`));
    });
    return slot;
  }

  #dispatch(): void {
    const failed = this.#slots.find((s) => s.state === 'failed');
    if (failed && this.#slots.every((s) => s.state === 'failed')) {
      for (const item of this.#queue.splice(0))
        item.reject(failed.loadError ?? new Error('models failed to load'));
      return;
    }
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) return;
      // Send only to threads whose models are loaded; others pick work up when they post "ready".
      if (slot.busy || slot.state !== 'ready') continue;
      const item = this.#queue.shift();
      if (!item) return;
      const id = this.#nextId++;
      slot.busy = { id, resolve: item.resolve, reject: item.reject };
      const request: WorkerRequest = { id, ...item.task };
      slot.worker.postMessage(request, [request.rgb, request.png]);
    }
  }
}

/**
 * Asks a thread to end on its own and waits for it: ending it while onnxruntime-node runs in its
 * OCR thread would abort the whole process. A thread that does not answer is ended after `waitMs`.
 */
async function closeThread(worker: Worker, waitMs = 15_000): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage({ type: 'close' } satisfies WorkerClose);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  await worker.terminate();
}
