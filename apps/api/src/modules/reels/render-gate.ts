import { unavailable } from '../../errors.ts';

/**
 * Bounds the reels being made at once. A reel is admitted while fewer than `maxRenders +
 * maxWaiting` are in progress (else 503, Retry-After); it then waits its turn for one of the
 * `maxRenders` render slots, so no more than that many ffmpeg processes ever share the CPU.
 */
export function createRenderGate(options: {
  maxRenders: number;
  maxWaiting: number;
  retryAfterSeconds: number;
}) {
  let admitted = 0;
  let rendering = 0;
  const queue: Array<() => void> = [];

  const next = () => {
    while (rendering < options.maxRenders && queue.length > 0) {
      rendering += 1;
      queue.shift()?.();
    }
  };

  return {
    retryAfterSeconds: options.retryAfterSeconds,

    /** Claims a place or throws a 503; call the returned function exactly once when done. */
    admit(): () => void {
      if (admitted >= options.maxRenders + options.maxWaiting) {
        throw unavailable('Too many reels are being made right now. Please try again in a minute.');
      }
      admitted += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        admitted -= 1;
      };
    },

    /** Waits for a render slot; rejects if `signal` aborts first. Returns the slot's release. */
    async acquire(signal?: AbortSignal): Promise<() => void> {
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const start = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const index = queue.indexOf(start);
          if (index >= 0) queue.splice(index, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(start);
        next();
      });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rendering -= 1;
        next();
      };
    },

    stats() {
      return { admitted, rendering, waiting: queue.length };
    },
  };
}

export type RenderGate = ReturnType<typeof createRenderGate>;
