import { Worker } from 'node:worker_threads';
import type { OcrResult, ReadTextOptions } from './ocr.ts';
import type { OcrThreadRequest, OcrThreadResponse } from './ocr-worker.ts';

/**
 * Runs the OCR (ocr.ts) in a thread of its own, started once per engine worker and kept warm. A
 * reading that outlasts its time limit cannot be interrupted inside onnxruntime, so the thread
 * is ended and the next reading starts a fresh one.
 */
export class OcrThread {
  #worker: Worker | undefined;
  #ready: Promise<void> | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: (r: OcrResult) => void; reject: (e: Error) => void }>();

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
        if (!pending) return;
        this.#pending.delete(message.id);
        if (message.ok) pending.resolve(message.result);
        else pending.reject(new Error(`OCR failed: ${message.message}`));
      });
      const die = (error: Error) => {
        reject(error);
        if (this.#worker !== worker) return;
        this.#forget();
        for (const [, pending] of this.#pending) pending.reject(error);
        this.#pending.clear();
      };
      worker.on('error', die);
      worker.on('exit', (code) => die(new Error(`OCR thread exited with code ${code}`)));
    });
    this.#ready.catch(() => this.#forget());
    return this.#ready;
  }

  async read(png: Buffer, options: ReadTextOptions): Promise<OcrResult> {
    await this.start();
    const worker = this.#worker;
    if (!worker) throw new Error('OCR thread stopped');
    const id = this.#nextId++;
    const copy = new Uint8Array(png).buffer as ArrayBuffer;
    let timer: NodeJS.Timeout | undefined;
    const reading = new Promise<OcrResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      const request: OcrThreadRequest = { id, png: copy, minConfidence: options.minConfidence };
      worker.postMessage(request, [copy]);
    });
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    });
    const outcome = await Promise.race([reading, timeout]).finally(() => clearTimeout(timer));
    if (outcome !== 'timeout') return outcome;
    this.#pending.delete(id);
    reading.catch(() => {});
    this.#forget();
    void worker.terminate();
    return { text: '', confidence: 0, words: 0, numbers: 0, timedOut: true, lines: [], coverage: 0 };
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#forget();
    if (worker) await worker.terminate();
  }

  #forget(): void {
    this.#worker = undefined;
    this.#ready = undefined;
  }
}
