import { Worker } from 'node:worker_threads';
import type { OcrResult, ReadTextOptions } from './ocr.ts';
import type { OcrThreadMessage, OcrThreadResponse } from './ocr-worker.ts';

const timedOut: OcrResult = {
  text: '',
  confidence: 0,
  words: 0,
  numbers: 0,
  timedOut: true,
  lines: [],
  coverage: 0,
};

/**
 * Runs the OCR (ocr.ts) in a thread of its own, started once per engine worker and kept warm.
 * A reading past its time limit is answered with `timedOut` and left to finish in the background:
 * ending a thread while onnxruntime-node runs aborts the whole process (measured), so the thread
 * is only ended when it is idle. One reading is bounded (image ≤ 1024 px, ≤ 80 regions).
 */
export class OcrThread {
  #worker: Worker | undefined;
  #ready: Promise<void> | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: (r: OcrResult) => void; reject: (e: Error) => void }>();
  #idle: Array<() => void> = [];

  /** Starts the thread (once) and resolves when its models are loaded. */
  start(): Promise<void> {
    if (this.#ready) return this.#ready;
    const worker = new Worker(new URL('./ocr-worker.ts', import.meta.url));
    worker.unref();
    this.#worker = worker;
    this.#ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: OcrThreadResponse) => {
        if (message.id === -1) {
          if (message.ok) resolve();
          else reject(new Error(`OCR models failed to load: ${message.message}`));
          return;
        }
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (pending) {
          if (message.ok) pending.resolve(message.result);
          else pending.reject(new Error(`OCR failed: ${message.message}`));
        }
        if (this.#pending.size === 0) for (const wake of this.#idle.splice(0)) wake();
      });
      const die = (error: Error) => {
        reject(error);
        if (this.#worker !== worker) return;
        this.#forget();
        for (const [, pending] of this.#pending) pending.reject(error);
        this.#pending.clear();
        for (const wake of this.#idle.splice(0)) wake();
      };
      worker.on('error', die);
      worker.on('exit', (code) => die(new Error(`OCR thread exited with code ${code}`)));
    });
    this.#ready.catch(() => this.#forget());
    return this.#ready;
  }

  async read(png: Buffer, options: ReadTextOptions): Promise<OcrResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    });
    const reading = this.#post(png, options.minConfidence);
    reading.catch(() => {});
    const outcome = await Promise.race([reading, timeout]).finally(() => clearTimeout(timer));
    return outcome === 'timeout' ? { ...timedOut } : outcome;
  }

  async #post(png: Buffer, minConfidence: number): Promise<OcrResult> {
    await this.start();
    const worker = this.#worker;
    if (!worker) throw new Error('OCR thread stopped');
    const id = this.#nextId++;
    const copy = new Uint8Array(png).buffer as ArrayBuffer;
    return new Promise<OcrResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      const message: OcrThreadMessage = { type: 'read', id, png: copy, minConfidence };
      worker.postMessage(message, [copy]);
    });
  }

  /** Lets readings in progress finish (up to `waitMs`), then ends the thread. */
  async close(waitMs = 10_000): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    if (this.#pending.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => this.#idle.push(resolve)),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, waitMs);
        }),
      ]);
      clearTimeout(timer);
    }
    this.#forget();
    await worker.terminate();
  }

  #forget(): void {
    this.#worker = undefined;
    this.#ready = undefined;
  }
}
