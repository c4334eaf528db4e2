import { setTimeout as sleep } from 'node:timers/promises';

/** At most `size` holders at once; the rest wait their turn in order. */
export class Semaphore {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    };
  }
}

/**
 * Spaces engine calls evenly so a provider sees at most `perMinute` of them from this process
 * (0: no limit). Evenly spaced rather than bursty, so a provider's own per-second limits hold too.
 */
export class RateLimiter {
  readonly #intervalMs: number;
  #nextSlot = 0;

  constructor(perMinute: number) {
    this.#intervalMs = perMinute > 0 ? 60_000 / perMinute : 0;
  }

  async take(signal?: AbortSignal): Promise<void> {
    if (this.#intervalMs === 0) return;
    const now = performance.now();
    const slot = Math.max(now, this.#nextSlot);
    this.#nextSlot = slot + this.#intervalMs;
    if (slot > now) await sleep(slot - now, undefined, { signal });
  }
}

/** One limiter per provider name, shared by every batch and regenerate of the process. */
export function createProviderLimiters(perMinute: number) {
  const limiters = new Map<string, RateLimiter>();
  return (provider: string) => {
    let limiter = limiters.get(provider);
    if (!limiter) {
      limiter = new RateLimiter(perMinute);
      limiters.set(provider, limiter);
    }
    return limiter;
  };
}

/** What became of one item of `settleEach`: its value, or what it threw. */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Runs `work` on every item with at most `limit` at once, and answers each item's outcome in the
 * items' order once all have ended: one item's failure neither stops nor hides the others.
 */
export async function settleEach<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<Settled<R>[]> {
  const outcomes: Settled<R>[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const at = next++;
      try {
        outcomes[at] = { ok: true, value: await work(items[at] as T, at) };
      } catch (error) {
        outcomes[at] = { ok: false, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return outcomes;
}
