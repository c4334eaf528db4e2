import { describe, expect, it } from 'vitest';
import { RateLimiter, Semaphore, settleEach } from './throttle.ts';

describe('Semaphore', () => {
  it('lets at most its size through and hands slots over in order', async () => {
    const slots = new Semaphore(2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map(async (n) => {
        const release = await slots.acquire();
        active++;
        peak = Math.max(peak, active);
        order.push(n);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active--;
        release();
        release(); // a second release is ignored
      }),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('RateLimiter', () => {
  it('spaces calls evenly at the rate per minute, and does not wait when unlimited', async () => {
    const limiter = new RateLimiter(60_000 / 20); // one call per 20 ms
    const started = performance.now();
    for (let i = 0; i < 6; i++) await limiter.take();
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);

    const unlimited = new RateLimiter(0);
    const quick = performance.now();
    for (let i = 0; i < 1000; i++) await unlimited.take();
    expect(performance.now() - quick).toBeLessThan(50);
  });
});

describe('settleEach', () => {
  it('keeps at most `limit` items running, and answers each outcome in order', async () => {
    let running = 0;
    let most = 0;
    const outcomes = await settleEach([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5 + (n % 3) * 5));
      running--;
      if (n === 4) throw new Error('four failed');
      return n * 10;
    });
    expect(most).toBe(3);
    expect(
      outcomes.map((outcome) => (outcome.ok ? outcome.value : (outcome.error as Error).message)),
    ).toEqual([10, 20, 30, 'four failed', 50, 60, 70]);
  });

  it('answers nothing for no items', async () => {
    expect(await settleEach([], 4, async () => 1)).toEqual([]);
  });
});
