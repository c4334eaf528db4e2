import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findUnstorableText, refuseUnstorableText, unstorableTextMessage } from './text.ts';

describe('unstorable text', () => {
  it('finds NUL bytes and lone surrogates, not surrogate pairs', () => {
    expect(unstorableTextMessage('plain')).toBeNull();
    expect(unstorableTextMessage('emoji 🚀')).toBeNull();
    expect(unstorableTextMessage('a\u0000b')).toMatch(/NUL/);
    expect(unstorableTextMessage('a\uD83Db')).toMatch(/surrogate/);
    expect(unstorableTextMessage('\uDE80')).toMatch(/surrogate/);
  });

  it('names the path of each bad value and key, in arrays and objects', () => {
    expect(findUnstorableText({ a: ['ok', 'x\u0000'], 'k\u0000': 1 })).toEqual([
      { path: [], message: expect.stringMatching(/field name is not valid/) },
      { path: ['a', 1], message: expect.stringMatching(/NUL/) },
    ]);
  });

  it('walks a 10,000-deep array and object nesting without overflowing the stack', () => {
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 10_000; i++) deep = i % 2 ? [deep] : { a: deep };
    const started = performance.now();
    const found = findUnstorableText(deep);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(found).toHaveLength(1);
    expect(found[0]?.path).toHaveLength(10_000);
  });

  it('refuses before the wrapped schema runs and passes good input through it', () => {
    const schema = refuseUnstorableText(z.object({ name: z.string().trim() }));
    expect(schema.parse({ name: ' ok ' })).toEqual({ name: 'ok' });
    const result = schema.safeParse({ name: 'a\u0000b' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['name']]);
  });
});
