import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { AppConfig } from '../config.ts';
import { StartupError } from '../errors.ts';
import * as schema from './schema.ts';

/**
 * The one database type repositories use. Both the PGlite and the node-postgres drizzle instances
 * satisfy it, so a query is written once and runs on either.
 */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
// biome-ignore lint/suspicious/noExplicitAny: the relations config is not needed by repositories
export type Transaction = PgTransaction<PgQueryResultHKT, typeof schema, any>;
/** What a repository method accepts: the database, or a transaction opened by a service. */
export type DbExecutor = Database | Transaction;

export type DatabaseDriver = 'pglite' | 'postgres';

/** Whether a `listen` subscription currently receives notifications. */
export type ListenerState = 'connected' | 'disconnected';

export type Listen = (
  channel: string,
  onMessage: (payload: string) => void,
  /** Called on every change of state, and with the error of each failed (re)connection attempt. */
  onState: (state: ListenerState, error?: unknown) => void,
) => Promise<() => Promise<void>>;

export type DatabaseHandle = {
  readonly driver: DatabaseDriver;
  readonly db: Database;
  /** Set when the embedded database is in use; the job queue shares this single connection. */
  readonly pglite: PGlite | undefined;
  /** Set for Postgres; the connection string the job queue opens its own pool with. */
  readonly url: string | undefined;
  /** Applies the committed SQL migrations in apps/api/drizzle. */
  migrate(): Promise<void>;
  /** Runs `select 1`; resolves to the round trip in milliseconds. */
  ping(): Promise<number>;
  /**
   * LISTENs on `channel` (ADR 039). Resolves once the first attempt to connect has ended, either
   * way, with a function that stops listening. On Postgres a dedicated connection (not from the
   * pool) that reconnects on its own and proves itself with a probe notification sent through the
   * pool, at connect and every few seconds; until the probe has come back it counts as
   * disconnected. On PGlite the embedded database's own `listen`, connected for as long as it is open.
   * `close()` stops every listener.
   */
  listen: Listen;
  /** Idempotent. */
  close(): Promise<void>;
  readonly closed: boolean;
};

const migrationsFolder = path.resolve(import.meta.dirname, '../../drizzle');
/** Serialises migrations when several processes start against one Postgres server at once. */
const MIGRATION_LOCK_ID = 727_001;

export type DatabaseOptions =
  | { driver: 'postgres'; url: string; maxConnections?: number }
  /** `dir: null` keeps the database in memory (tests). */
  | {
      driver: 'pglite';
      dir: string | null;
      /** An in-memory database starts as this dump (`PGlite.dumpDataDir`) instead of an empty cluster. */
      loadDataDir?: Blob;
    };

export function databaseOptionsFromConfig(config: AppConfig): DatabaseOptions {
  return config.database.driver === 'postgres'
    ? { driver: 'postgres', url: config.database.url }
    : { driver: 'pglite', dir: config.database.dir };
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.driver === 'postgres'
    ? openPostgres(options.url, options.maxConnections)
    : openPglite(options.dir, options.loadDataDir);
}

/**
 * Runs raw SQL and returns its rows, the same way on both drivers (each returns an object with
 * `rows`, typed differently). Prefer the query builder; this is for what it cannot express.
 */
export async function queryRows<Row extends Record<string, unknown>>(
  db: DbExecutor,
  query: SQL,
): Promise<Row[]> {
  const result = (await db.execute(query)) as { rows: Row[] };
  return result.rows;
}

async function timedPing(db: Database): Promise<number> {
  const started = performance.now();
  await queryRows(db, sql`select 1`);
  return Math.round((performance.now() - started) * 100) / 100;
}

async function openPostgres(url: string, maxConnections = 10): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections, application_name: 'altwise-api' });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const postgresDb = drizzlePostgres({ client: pool, schema });
  const db: Database = postgresDb;
  let closed = false;
  const listeners = new Set<() => Promise<void>>();
  return {
    driver: 'postgres',
    db,
    pglite: undefined,
    url,
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePostgres(postgresDb, { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    ping: () => timedPing(db),
    async listen(channel, onMessage, onState) {
      if (closed) throw new Error('The database is closed.');
      const listener = listenPostgres(url, pool, channel, onMessage, onState);
      const stop = async () => {
        listeners.delete(stop);
        await listener.stop();
      };
      listeners.add(stop);
      await listener.ready;
      return stop;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
    get closed() {
      return closed;
    },
  };
}

/** Payloads starting with this are a listener's own probes, never handed to `onMessage`. */
const PROBE_PREFIX = 'altwise-probe:';
const PROBE_EVERY_MS = 10_000;
const PROBE_TIMEOUT_MS = 5_000;
const RECONNECT_DELAYS_MS = [250, 1_000, 5_000, 15_000];

/**
 * One LISTEN connection outside the pool. Connected only once a probe notified through the pool
 * (so through whatever sits between us and Postgres) has come back on it; a probe that does not
 * come back within PROBE_TIMEOUT_MS, an error or the end of the connection count as lost: the
 * state turns `disconnected` and a new connection is tried after a growing delay. A pooler in
 * transaction mode (PgBouncer) does not carry notifications to an idle client, so behind one the
 * listener stays disconnected instead of silently missing them.
 */
function listenPostgres(
  url: string,
  pool: pg.Pool,
  channel: string,
  onMessage: (payload: string) => void,
  onState: (state: ListenerState, error?: unknown) => void,
): { ready: Promise<void>; stop: () => Promise<void> } {
  let stopped = false;
  let connected = false;
  let attempts = 0;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let probeTimer: NodeJS.Timeout | undefined;
  /** The probe awaited now; `settle()` when it arrives, `settle(error)` when it cannot. */
  let awaited: { payload: string; settle: (error?: Error) => void } | undefined;

  const probe = () =>
    new Promise<void>((resolve, reject) => {
      const payload = `${PROBE_PREFIX}${randomUUID()}`;
      const settle = (error?: Error) => {
        clearTimeout(timeout);
        if (awaited?.payload === payload) awaited = undefined;
        if (error) reject(error);
        else resolve();
      };
      const timeout = setTimeout(
        () => settle(new Error(`The probe notification did not come back within ${PROBE_TIMEOUT_MS} ms.`)),
        PROBE_TIMEOUT_MS,
      );
      awaited = { payload, settle };
      pool.query('select pg_notify($1, $2)', [channel, payload]).catch((error: Error) => settle(error));
    });

  /** Ends a wait for a probe that can no longer arrive. */
  function abandonProbe(reason: string) {
    const pending = awaited;
    awaited = undefined;
    pending?.settle(new Error(reason));
  }

  function lose(c: pg.Client, error: unknown) {
    if (client !== c) return;
    client = undefined;
    abandonProbe('The listening connection was lost.');
    clearTimeout(probeTimer);
    c.removeAllListeners('notification');
    c.end().catch(() => {});
    if (stopped) return;
    connected = false;
    onState('disconnected', error);
    const delay = RECONNECT_DELAYS_MS[Math.min(attempts, RECONNECT_DELAYS_MS.length - 1)];
    attempts += 1;
    retry = setTimeout(() => void connect(), delay);
  }

  function scheduleProbe(c: pg.Client) {
    probeTimer = setTimeout(() => {
      probe().then(
        () => client === c && scheduleProbe(c),
        (error: unknown) => lose(c, error),
      );
    }, PROBE_EVERY_MS);
  }

  async function connect(): Promise<void> {
    if (stopped) return;
    const c = new pg.Client({
      connectionString: url,
      application_name: 'altwise-api-listen',
      // A connection that died without a word (a dropped network) is noticed by TCP and the probes.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client = c;
    c.on('error', (error) => lose(c, error));
    c.on('end', () => lose(c, new Error('The listening connection ended.')));
    c.on('notification', (message) => {
      if (message.channel !== channel) return;
      const payload = message.payload ?? '';
      if (payload.startsWith(PROBE_PREFIX)) {
        if (awaited?.payload === payload) awaited.settle();
      } else onMessage(payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${c.escapeIdentifier(channel)}`);
      await probe();
    } catch (error) {
      lose(c, error);
      return;
    }
    if (client !== c || stopped) return;
    attempts = 0;
    connected = true;
    onState('connected');
    scheduleProbe(c);
  }

  return {
    ready: connect(),
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(retry);
      clearTimeout(probeTimer);
      const c = client;
      client = undefined;
      abandonProbe('The listener was stopped.');
      if (connected) {
        connected = false;
        onState('disconnected');
      }
      await c?.end().catch(() => {});
    },
  };
}

async function openPglite(dir: string | null, loadDataDir?: Blob): Promise<DatabaseHandle> {
  let releaseLock = async () => {};
  if (dir) {
    await mkdir(dir, { recursive: true });
    releaseLock = await lockDataDir(dir);
  }
  let pglite: PGlite;
  try {
    pglite = await (dir ? PGlite.create(dir) : PGlite.create(loadDataDir ? { loadDataDir } : {}));
  } catch (error) {
    await releaseLock();
    throw error;
  }
  const pgliteDb = drizzlePglite({ client: pglite, schema });
  const db: Database = pgliteDb;
  let closed = false;
  return {
    driver: 'pglite',
    db,
    pglite,
    url: undefined,
    migrate: () => migratePglite(pgliteDb, { migrationsFolder }),
    ping: () => timedPing(db),
    async listen(channel, onMessage, onState) {
      if (closed) throw new Error('The database is closed.');
      const unlisten = await pglite.listen(channel, onMessage);
      onState('connected');
      let stopped = false;
      return async () => {
        if (stopped) return;
        stopped = true;
        onState('disconnected');
        if (!closed) await unlisten();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await pglite.close();
      } finally {
        await releaseLock();
      }
    },
    get closed() {
      return closed;
    },
  };
}

/**
 * PGlite is one process's database: two processes writing the same directory corrupt it. A lock
 * file with the owner's pid turns that mistake into a clear start-up error; a lock left by a process
 * that no longer runs is taken over.
 */
/** Directories this process holds the lock of (a restarted container can reuse the old pid). */
const heldLocks = new Set<string>();

async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const lockFile = path.join(dir, 'altwise.lock');
  if (heldLocks.has(lockFile)) {
    throw new StartupError(`The embedded database at ${dir} is already open in this process.`);
  }
  const take = () => writeFile(lockFile, String(process.pid), { flag: 'wx' });
  try {
    await take();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = Number.parseInt(await readFile(lockFile, 'utf8').catch(() => ''), 10);
    if (owner && owner !== process.pid && isRunning(owner)) {
      throw new StartupError(
        `The embedded database at ${dir} is in use by process ${owner}. Stop it, or give this instance its own DATA_DIR (or a shared DATABASE_URL).`,
      );
    }
    // Left behind by a process that is gone: take it over.
    await rm(lockFile, { force: true });
    await take();
  }
  heldLocks.add(lockFile);
  return async () => {
    heldLocks.delete(lockFile);
    await rm(lockFile, { force: true });
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
