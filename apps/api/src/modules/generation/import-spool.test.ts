import { access } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createRowSpool } from './import-spool.ts';

describe('an import’s row spool', () => {
  it('gives the rows back in order, a chunk at a time, and leaves no file behind', async () => {
    const spool = await createRowSpool<{ line: number; caption: string | null }>();
    const rows = Array.from({ length: 2_500 }, (_, n) => ({
      line: n + 2,
      caption: n % 2 ? `Line one\nline two, "quoted" ${n}` : null,
    }));
    for (const row of rows) await spool.write(row);
    await spool.finish();
    expect(spool.count).toBe(2_500);

    const chunks = [];
    for await (const chunk of spool.chunks(1_000)) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.length)).toEqual([1_000, 1_000, 500]);
    expect(chunks.flat()).toEqual(rows);

    await spool.remove();
    await expect(access(spool.file)).rejects.toThrow();
  });

  it('is removed when the file is never finished (a 413 or a 400 half-way)', async () => {
    const spool = await createRowSpool<number>();
    await spool.write(1);
    await spool.remove();
    await expect(access(spool.file)).rejects.toThrow();
  });
});
