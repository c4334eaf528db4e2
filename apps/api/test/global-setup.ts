/**
 * Once per test run: an empty cluster with every migration applied, dumped to a file that each test
 * app's in-memory PGlite starts from. A fresh PGlite runs initdb (4–6 s on the 2-core machine); one
 * loaded from the dump is ready in under 2 s, and the app's own migrate() then finds nothing to do.
 * The file is named by a hash of the migrations, so a new migration makes a new template. Against a
 * Postgres server (TEST_DATABASE_URL) the template is a migrated database on that server, which each
 * test database is created from (CREATE DATABASE … TEMPLATE, a file copy).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

import type {} from './provided-context.ts';

const migrationsFolder = resolve(import.meta.dirname, '../drizzle');

async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string) => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const file = join(dir, entry.name);
      if (entry.isDirectory()) await walk(file);
      else hash.update(entry.name).update(await readFile(file));
    }
  };
  await walk(migrationsFolder);
  return hash.digest('hex').slice(0, 16);
}

export async function pgliteTemplate(): Promise<string> {
  const file = join(tmpdir(), `altwise-pglite-template-${await migrationsHash()}.tar`);
  if (existsSync(file)) return file;
  const pglite = await PGlite.create();
  try {
    await migrate(drizzle({ client: pglite }), { migrationsFolder });
    const dump = await pglite.dumpDataDir('none');
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
  } finally {
    await pglite.close();
  }
  return file;
}

/** A migrated database on the server, named by the migrations' hash; made once per server. */
async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `altwise_template_${await migrationsHash()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return name;
    const building = `${name}_${process.pid}`;
    await admin.query(`drop database if exists ${building}`);
    await admin.query(`create database ${building}`);
    const url = new URL(serverUrl);
    url.pathname = `/${building}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
    try {
      await migratePostgres(drizzlePostgres({ client: pool }), { migrationsFolder });
    } finally {
      await pool.end();
    }
    await admin.query(`alter database ${building} rename to ${name}`);
    return name;
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  const server = process.env.TEST_DATABASE_URL;
  project.provide('pgliteTemplate', server ? '' : await pgliteTemplate());
  project.provide('postgresTemplate', server ? await postgresTemplate(server) : '');
}
