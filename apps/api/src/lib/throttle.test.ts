import { describe, expect, it } from 'vitest';
import { RateLimiter, Semaphore } from './throttle.ts';

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
