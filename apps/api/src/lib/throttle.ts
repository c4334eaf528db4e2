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
