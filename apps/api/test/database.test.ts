import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../src/db/client.ts';
import { storedFiles } from '../src/db/tables/stored-files.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-db-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('embedded database', () => {
  it('persists data in its directory across reopening', async () => {
    const dir = path.join(dataDir, 'persist');
    const first = await openDatabase({ driver: 'pglite', dir });
    await first.migrate();
    await first.db.insert(storedFiles).values({ key: 'a/b.png', contentType: 'image/png', sizeBytes: 3 });
    await first.close();

    const second = await openDatabase({ driver: 'pglite', dir });
    try {
      await second.migrate();
      const rows = await second.db.select().from(storedFiles);
      expect(rows.map((row) => row.key)).toEqual(['a/b.png']);
      expect(await second.ping()).toBeGreaterThanOrEqual(0);
    } finally {
      await second.close();
    }
  });

  it('refuses a directory that is already open, with a clear message', async () => {
    const dir = path.join(dataDir, 'locked');
    const open = await openDatabase({ driver: 'pglite', dir });
    try {
      await expect(openDatabase({ driver: 'pglite', dir })).rejects.toThrow(/already open in this process/);
    } finally {
      await open.close();
    }
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = path.join(dataDir, 'stale');
    const seed = await openDatabase({ driver: 'pglite', dir });
    await seed.close();
    // A pid that cannot be running (above the kernel's pid_max), as left by a crash.
    await writeFile(path.join(dir, 'altwise.lock'), '99999999');
    const reopened = await openDatabase({ driver: 'pglite', dir });
    try {
      expect(await queryRows(reopened.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
    } finally {
      await reopened.close();
    }
  });
});
