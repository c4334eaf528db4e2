import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { ListenerState } from '../../db/client.ts';
import { createSessionUserCache, type SessionUserRecord } from './session-users.ts';

const logger = pino({ level: 'silent' });
const ada = (sessionVersion: number): SessionUserRecord => ({
  id: 'u-1',
  email: 'ada@example.com',
  sessionVersion,
});

/** A cache whose listener the test drives by hand, and a reader that counts its database reads. */
async function setUp(options: { ttlMs?: number; maxEntries?: number } = {}) {
  let notify: (payload: string) => void = () => {};
  let setState: (state: ListenerState, error?: unknown) => void = () => {};
  const cache = createSessionUserCache({
    logger,
    ...options,
    listen: async (_channel, onMessage, onState) => {
      notify = onMessage;
      setState = onState;
      onState('connected');
      return async () => {};
    },
  });
  await cache.start();
  const rows = new Map<string, SessionUserRecord>([['u-1', ada(1)]]);
  let reads = 0;
  const read = async (id: string) => {
    reads += 1;
    return rows.get(id);
  };
  return { cache, rows, read, reads: () => reads, notify: (id: string) => notify(id), setState };
}

describe('session user cache', () => {
  it('reads a user once, then answers from memory until a notification names it', async () => {
    const s = await setUp();
    expect(await s.cache.find('u-1', s.read)).toEqual(ada(1));
    expect(await s.cache.find('u-1', s.read)).toEqual(ada(1));
    expect(s.reads()).toBe(1);
    s.rows.set('u-1', ada(2));
    s.notify('u-1');
    expect(await s.cache.find('u-1', s.read)).toEqual(ada(2));
    expect(s.reads()).toBe(2);
    // A deleted user is not remembered as missing: each look reads again.
    s.rows.delete('u-1');
    s.notify('u-1');
    expect(await s.cache.find('u-1', s.read)).toBeUndefined();
    expect(await s.cache.find('u-1', s.read)).toBeUndefined();
    expect(s.reads()).toBe(4);
  });

  it('does not store a read that began before a change it heard of while reading', async () => {
    const s = await setUp();
    let release: () => void = () => {};
    const slowRead = async (id: string) => {
      const stale = await s.read(id);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return stale;
    };
    const pending = s.cache.find('u-1', slowRead);
    await new Promise((resolve) => setImmediate(resolve));
    // The change commits and its notification is handled while the read is still in flight.
    s.rows.set('u-1', ada(2));
    s.notify('u-1');
    release();
    expect(await pending).toEqual(ada(1));
    expect(await s.cache.find('u-1', s.read)).toEqual(ada(2));
  });

  it('forgets at once what this process changed itself', async () => {
    const s = await setUp();
    await s.cache.find('u-1', s.read);
    s.rows.set('u-1', ada(2));
    s.cache.forget('u-1');
    expect(await s.cache.find('u-1', s.read)).toEqual(ada(2));
  });

  it('clears and bypasses the cache while the listener is lost, and uses it again once back', async () => {
    const s = await setUp();
    await s.cache.find('u-1', s.read);
    s.setState('disconnected', new Error('connection reset'));
    expect(s.cache.active).toBe(false);
    s.rows.set('u-1', ada(2));
    // No notification can arrive now: every look reads the database.
    expect(await s.cache.find('u-1', s.read)).toEqual(ada(2));
    expect(await s.cache.find('u-1', s.read)).toEqual(ada(2));
    expect(s.reads()).toBe(3);
    s.setState('connected');
    await s.cache.find('u-1', s.read);
    await s.cache.find('u-1', s.read);
    expect(s.reads()).toBe(4);
  });

  it('never caches without a listener', async () => {
    const cache = createSessionUserCache({ logger });
    await cache.start();
    let reads = 0;
    const read = async () => {
      reads += 1;
      return ada(1);
    };
    await cache.find('u-1', read);
    await cache.find('u-1', read);
    expect(reads).toBe(2);
    expect(cache.active).toBe(false);
  });

  it('keeps an entry at most ttlMs and at most maxEntries entries, dropping the oldest', async () => {
    const s = await setUp({ ttlMs: 50, maxEntries: 2 });
    s.rows.set('u-2', { ...ada(1), id: 'u-2' });
    s.rows.set('u-3', { ...ada(1), id: 'u-3' });
    await s.cache.find('u-1', s.read);
    await s.cache.find('u-2', s.read);
    await s.cache.find('u-3', s.read);
    expect(s.reads()).toBe(3);
    await s.cache.find('u-3', s.read);
    await s.cache.find('u-2', s.read);
    expect(s.reads()).toBe(3);
    await s.cache.find('u-1', s.read);
    expect(s.reads()).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await s.cache.find('u-1', s.read);
    expect(s.reads()).toBe(5);
  });
});
