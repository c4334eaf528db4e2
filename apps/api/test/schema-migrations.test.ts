import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, queryRows } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';

/**
 * The Drizzle schema (src/db/tables) and the committed migrations (drizzle/) must agree (docs/contributing.md,
 * Adding a module): a table edit without `npm run db:generate`, a migration without its snapshot, or a
 * hand-edited migration whose SQL builds something else than its snapshot says, fails here.
 * Offline and fast: drizzle-kit's own diff, and the migrations applied to an in-memory PGlite.
 */
const drizzleDir = path.resolve(import.meta.dirname, '../drizzle');

type Journal = { entries: { idx: number; tag: string }[] };
type Snapshot = {
  id: string;
  prevId: string;
  tables: Record<
    string,
    {
      name: string;
      columns: Record<string, { name: string; type: string; notNull: boolean }>;
      foreignKeys: Record<string, { name: string; onDelete?: string }>;
    }
  >;
};

const readJson = async <T>(file: string): Promise<T> =>
  JSON.parse(await readFile(path.join(drizzleDir, file), 'utf8')) as T;
const snapshotFile = (idx: number) => `meta/${String(idx).padStart(4, '0')}_snapshot.json`;

let journal: Journal;
let latest: Snapshot;
beforeAll(async () => {
  journal = await readJson<Journal>('meta/_journal.json');
  const last = journal.entries.at(-1);
  if (!last) throw new Error('drizzle/meta/_journal.json lists no migration');
  latest = await readJson<Snapshot>(snapshotFile(last.idx));
});

describe('Drizzle schema and committed migrations', () => {
  it('leave nothing to generate: the latest snapshot is the schema of src/db/tables', async () => {
    const current = generateDrizzleJson(schema as Record<string, unknown>, latest.id);
    const statements = await generateMigration(latest as never, current);
    expect(
      statements,
      'The table files differ from the committed migrations: run `npm run db:generate -w @altwise/api -- --name <what>` and commit drizzle/',
    ).toEqual([]);
  });

  it('list every migration with its SQL file and a snapshot chained to the one before', async () => {
    let previous = '00000000-0000-0000-0000-000000000000';
    for (const [position, entry] of journal.entries.entries()) {
      expect(entry.idx, entry.tag).toBe(position);
      expect(
        (await readFile(path.join(drizzleDir, `${entry.tag}.sql`), 'utf8')).length,
        entry.tag,
      ).toBeGreaterThan(0);
      const snapshot = await readJson<Snapshot>(snapshotFile(entry.idx));
      expect(snapshot.prevId, `${entry.tag}: its snapshot must follow the previous one`).toBe(previous);
      previous = snapshot.id;
    }
  });

  describe('applied to an empty database', () => {
    let database: DatabaseHandle;
    beforeAll(async () => {
      database = await openDatabase({ driver: 'pglite', dir: null });
      await database.migrate();
    });
    afterAll(() => database?.close());

    it('build the tables, columns, types and nullability the latest snapshot describes', async () => {
      const rows = await queryRows<{
        table_name: string;
        column_name: string;
        data_type: string;
        udt_name: string;
        is_nullable: string;
      }>(
        database.db,
        sql`select table_name, column_name, data_type, udt_name, is_nullable from information_schema.columns
            where table_schema = 'public' and table_name <> '__drizzle_migrations'`,
      );
      const built = rows.map(
        (row) =>
          // An array column reports data_type ARRAY; its element type is the udt name without the "_".
          `${row.table_name}.${row.column_name} ${row.data_type === 'ARRAY' ? `${row.udt_name.slice(1)}[]` : row.data_type}${row.is_nullable === 'NO' ? ' not null' : ''}`,
      );
      const described = Object.values(latest.tables).flatMap((table) =>
        Object.values(table.columns).map(
          (column) => `${table.name}.${column.name} ${column.type}${column.notNull ? ' not null' : ''}`,
        ),
      );
      expect(built.sort()).toEqual(described.sort());
    });

    it('build the foreign keys with the ON DELETE rule the snapshot describes', async () => {
      const rules: Record<string, string> = {
        a: 'no action',
        r: 'restrict',
        c: 'cascade',
        n: 'set null',
        d: 'set default',
      };
      const rows = await queryRows<{ name: string; rule: string }>(
        database.db,
        sql`select conname as name, confdeltype as rule from pg_constraint
            where contype = 'f' and connamespace = 'public'::regnamespace`,
      );
      const built = rows.map((row) => `${row.name} ${rules[row.rule]}`);
      const described = Object.values(latest.tables).flatMap((table) =>
        Object.values(table.foreignKeys).map((fk) => `${fk.name} ${fk.onDelete ?? 'no action'}`),
      );
      expect(built.sort()).toEqual(described.sort());
    });
  });
});
