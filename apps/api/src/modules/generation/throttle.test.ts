import { describe, expect, it } from 'vitest';
import { detectImageType } from './image-type.ts';
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

describe('detectImageType', () => {
  const bytes = (...values: number[]) => Uint8Array.from(values);
  const text = (value: string) => new TextEncoder().encode(value);

  it('knows images by their first bytes, whatever they are called', () => {
    expect(detectImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(detectImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(detectImageType(text('GIF89a...'))).toBe('image/gif');
    expect(detectImageType(text('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('image/webp');
    expect(detectImageType(text('\u0000\u0000\u0000\u001cftypavif\u0000\u0000\u0000\u0000'))).toBe(
      'image/avif',
    );
    expect(detectImageType(text('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe(
      'image/svg+xml',
    );
  });

  it('refuses everything else', () => {
    expect(detectImageType(new Uint8Array())).toBeNull();
    expect(detectImageType(text('just some text, honest'))).toBeNull();
    expect(detectImageType(text('<html><body>not an image</body></html>'))).toBeNull();
    expect(detectImageType(text('\u0000\u0000\u0000\u001cftypmp42'))).toBeNull();
    expect(detectImageType(bytes(0x25, 0x50, 0x44, 0x46))).toBeNull(); // %PDF
  });
});
