import { isMainThread, parentPort, Worker } from 'node:worker_threads';

/**
 * Where untrusted input is parsed: HTML pages, XML, spreadsheets and archives from users or
 * crawled sites (docs/contributing.md, habit 12).
 * A sandbox is a small pool of worker threads that run named
 * handlers from one worker module, each task under a wall-clock limit and each thread under V8
 * heap limits (`resourceLimits`). A task that runs too long or needs too much memory has its
 * thread terminated and fails with a `SandboxLimitError`; the API's event loop never runs the
 * parse itself, so no input can stall request handling.
 *
 * The worker module calls `serveSandbox({ name: handler, ... })`; the main thread creates one
 * sandbox per module with `createSandbox<typeof handlers>(url, options)`.
 */

export type SandboxHandlers = Record<string, (input: never) => unknown>;

export type SandboxLimit = 'time' | 'memory' | 'crashed' | 'busy' | 'closed';

/** The input hit a limit of the sandbox (or the sandbox could not take it): never a server fault. */
export class SandboxLimitError extends Error {
  readonly limit: SandboxLimit;
  constructor(limit: SandboxLimit, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SandboxLimitError';
    this.limit = limit;
  }
}

/** A handler threw: the error's name, message and `code` cross the thread boundary. */
export class SandboxTaskError extends Error {
  readonly code: string | undefined;
  readonly taskErrorName: string;
  constructor(taskErrorName: string, message: string, code: string | undefined) {
    super(message);
    this.name = 'SandboxTaskError';
    this.taskErrorName = taskErrorName;
    this.code = code;
  }
}

export interface SandboxOptions {
  /** Threads at most; they start on demand and stop after `idleMs` without work. */
  size: number;
  /** Wall-clock limit of one task, from the moment a thread takes it. */
  timeoutMs: number;
  /** V8 old-generation heap limit of each thread. */
  maxOldGenerationMb: number;
  /** V8 young-generation limit of each thread. */
  maxYoungGenerationMb?: number;
  /** Stack of each thread (deep input must be walked without recursion anyway). */
  stackSizeMb?: number;
  /** Tasks waiting for a thread at most; one more is refused with limit `busy`. */
  maxQueue?: number;
  /** An idle thread is stopped after this long (it keeps its parsers warm until then). */
  idleMs?: number;
}

interface Request {
  id: number;
  name: string;
  input: unknown;
}

type Response =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { name: string; message: string; code?: string } };

interface Task {
  name: string;
  input: unknown;
  timeoutMs: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  busy?: { id: number; task: Task; timer: NodeJS.Timeout };
  idleTimer?: NodeJS.Timeout;
  /** Set once the thread is being replaced: its late messages and exit are ignored. */
  retired: boolean;
}

export interface Sandbox<H extends SandboxHandlers> {
  run<K extends keyof H & string>(
    name: K,
    input: Parameters<H[K]>[0],
    options?: { timeoutMs?: number },
  ): Promise<Awaited<ReturnType<H[K]>>>;
  /** Threads alive now (for tests and health). */
  readonly threads: number;
  close(): Promise<void>;
}

export function createSandbox<H extends SandboxHandlers>(
  workerUrl: URL,
  options: SandboxOptions,
): Sandbox<H> {
  const threads: Thread[] = [];
  const queue: Task[] = [];
  const maxQueue = options.maxQueue ?? 256;
  const idleMs = options.idleMs ?? 30_000;
  let nextId = 1;
  let closed = false;

  function spawn(): Thread {
    const worker = new Worker(workerUrl, {
      resourceLimits: {
        maxOldGenerationSizeMb: options.maxOldGenerationMb,
        maxYoungGenerationSizeMb: options.maxYoungGenerationMb ?? 32,
        stackSizeMb: options.stackSizeMb ?? 4,
      },
      stdout: false,
      stderr: false,
    });
    const thread: Thread = { worker, retired: false };
    worker.unref();
    worker.on('message', (message: Response) => {
      const busy = thread.busy;
      if (thread.retired || !busy || busy.id !== message.id) return;
      clearTimeout(busy.timer);
      thread.busy = undefined;
      worker.unref();
      if (message.ok) busy.task.resolve(message.result);
      else {
        const { name, message: text, code } = message.error;
        busy.task.reject(new SandboxTaskError(name, text, code));
      }
      startIdleTimer(thread);
      dispatch();
    });
    const onDeath = (error: Error | undefined) => {
      if (thread.retired) return;
      retire(thread);
      const busy = thread.busy;
      thread.busy = undefined;
      if (busy) {
        clearTimeout(busy.timer);
        const outOfMemory = (error as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        busy.task.reject(
          outOfMemory
            ? new SandboxLimitError('memory', 'The input needs more memory than it is allowed.', {
                cause: error,
              })
            : new SandboxLimitError('crashed', 'The input could not be processed.', { cause: error }),
        );
      }
      dispatch();
    };
    worker.on('error', onDeath);
    worker.on('exit', () => onDeath(undefined));
    threads.push(thread);
    return thread;
  }

  function retire(thread: Thread) {
    thread.retired = true;
    clearTimeout(thread.idleTimer);
    const index = threads.indexOf(thread);
    if (index >= 0) threads.splice(index, 1);
  }

  function startIdleTimer(thread: Thread) {
    clearTimeout(thread.idleTimer);
    thread.idleTimer = setTimeout(() => {
      if (thread.busy || thread.retired) return;
      retire(thread);
      void thread.worker.terminate();
    }, idleMs);
    thread.idleTimer.unref();
  }

  function dispatch() {
    while (queue.length > 0 && !closed) {
      let thread = threads.find((t) => !t.busy && !t.retired);
      if (!thread) {
        if (threads.length >= options.size) return;
        thread = spawn();
      }
      const task = queue.shift() as Task;
      const id = nextId++;
      clearTimeout(thread.idleTimer);
      const target = thread;
      const timer = setTimeout(() => {
        if (target.busy?.id !== id) return;
        target.busy = undefined;
        retire(target);
        void target.worker.terminate();
        task.reject(
          new SandboxLimitError(
            'time',
            `The input took longer than ${Math.round(task.timeoutMs / 100) / 10} s to process.`,
          ),
        );
        dispatch();
      }, task.timeoutMs);
      target.busy = { id, task, timer };
      target.worker.ref();
      target.worker.postMessage({ id, name: task.name, input: task.input } satisfies Request);
    }
  }

  return {
    run(name, input, runOptions) {
      if (closed) return Promise.reject(new SandboxLimitError('closed', 'The server is shutting down.'));
      if (queue.length >= maxQueue) {
        return Promise.reject(
          new SandboxLimitError('busy', 'Too much untrusted input is being processed; try again shortly.'),
        );
      }
      return new Promise((resolve, reject) => {
        queue.push({
          name,
          input,
          timeoutMs: runOptions?.timeoutMs ?? options.timeoutMs,
          resolve: resolve as (value: unknown) => void,
          reject,
        });
        dispatch();
      });
    },
    get threads() {
      return threads.length;
    },
    async close() {
      closed = true;
      for (const task of queue.splice(0)) {
        task.reject(new SandboxLimitError('closed', 'The server is shutting down.'));
      }
      const all = threads.splice(0);
      for (const thread of all) {
        thread.retired = true;
        clearTimeout(thread.idleTimer);
        if (thread.busy) {
          clearTimeout(thread.busy.timer);
          thread.busy.task.reject(new SandboxLimitError('closed', 'The server is shutting down.'));
        }
      }
      await Promise.all(all.map((t) => t.worker.terminate()));
    },
  };
}

/** Called once by a sandbox worker module: answers the main thread's tasks with these handlers. */
export function serveSandbox(handlers: SandboxHandlers): void {
  if (isMainThread || !parentPort) throw new Error('serveSandbox runs only in a worker thread.');
  const port = parentPort;
  port.on('message', async (request: Request) => {
    let response: Response;
    try {
      const handler = handlers[request.name] as ((input: unknown) => unknown) | undefined;
      if (!handler) throw new Error(`No sandbox handler named ${request.name}.`);
      response = { id: request.id, ok: true, result: await handler(request.input) };
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      const code = (e as { code?: unknown }).code;
      response = {
        id: request.id,
        ok: false,
        error: { name: e.name, message: e.message, code: typeof code === 'string' ? code : undefined },
      };
    }
    port.postMessage(response);
  });
}
