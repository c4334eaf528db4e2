import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type BuildAppOptions, buildApp } from '../src/app.ts';
import { type AppConfig, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import type {} from './provided-context.ts';

export type TestApp = {
  app: FastifyInstance;
  config: AppConfig;
  /** A fresh temporary DATA_DIR (local files live under it), removed by cleanup. */
  dataDir: string;
  cleanup: () => Promise<void>;
};

export type TestAppOverrides = {
  /** Extra environment variables, as strings, on top of the test defaults. */
  env?: Record<string, string>;
  /** Changes to the parsed config (e.g. a role the environment schema would refuse on PGlite). */
  config?: Partial<AppConfig>;
  /** Register extra routes or hooks before the app is made ready. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /** Reuse this DATA_DIR instead of a fresh one (and leave it in place on cleanup). */
  dataDir?: string;
  /** Open the database from config (a PGlite directory under DATA_DIR) instead of in memory. */
  persistent?: boolean;
} & Pick<
  BuildAppOptions,
  | 'storage'
  | 'workOptions'
  | 'mailTransport'
  | 'engine'
  | 'imageEngine'
  | 'pageLimits'
  | 'logStream'
  | 'renderOptions'
>;

/** What test/global-setup.ts provided; nothing when a bench imports this file outside Vitest. */
function provided(key: 'pgliteTemplate' | 'postgresTemplate'): string {
  try {
    return inject(key) ?? '';
  } catch {
    return '';
  }
}

let template: Promise<Blob | undefined> | undefined;
/** The migrated cluster every in-memory test database starts from (test/global-setup.ts). */
function migratedTemplate(): Promise<Blob | undefined> {
  template ??= (async () => {
    const file = provided('pgliteTemplate');
    return file ? new Blob([await readFile(file)]) : undefined;
  })();
  return template;
}

/**
 * The app on a fresh database: an in-memory PGlite by default; when TEST_DATABASE_URL points at a
 * Postgres server, a uniquely named database created on it for this app and dropped on cleanup.
 */
export async function buildTestApp(overrides: TestAppOverrides = {}): Promise<TestApp> {
  const ownsDataDir = !overrides.dataDir;
  const dataDir = overrides.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'altwise-test-')));
  const postgres =
    process.env.TEST_DATABASE_URL && !overrides.env?.DATABASE_URL
      ? await createPostgresDatabase(process.env.TEST_DATABASE_URL)
      : null;
  try {
    const config: AppConfig = {
      ...loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        DATA_DIR: dataDir,
        PUBLIC_URL: 'http://altwise.test',
        SERVE_WEB: 'false',
        // Every inject comes from 127.0.0.1: tests that check rate limits set their own.
        AUTH_RATE_LIMIT_PER_IP: '10000',
        AUTH_RATE_LIMIT_PER_EMAIL: '10000',
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
        ...overrides.env,
      }),
      ...overrides.config,
    };
    const database =
      config.database.driver === 'pglite' && !overrides.persistent
        ? await openDatabase({ driver: 'pglite', dir: null, loadDataDir: await migratedTemplate() })
        : undefined;
    const app = await buildApp(config, {
      database,
      storage: overrides.storage,
      mailTransport: overrides.mailTransport,
      imageEngine: overrides.imageEngine,
      engine: overrides.engine,
      pageLimits: overrides.pageLimits,
      renderOptions: overrides.renderOptions,
      logStream: overrides.logStream,
      workOptions: overrides.workOptions ?? { pollingIntervalSeconds: 0.5 },
    });
    await overrides.beforeReady?.(app);
    await app.ready();
    let cleaned = false;
    return {
      app,
      config,
      dataDir,
      async cleanup() {
        if (cleaned) return;
        cleaned = true;
        await app.close();
        await postgres?.drop();
        if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await postgres?.drop();
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** A fresh database on the Postgres server of `serverUrl`, for one test app. */
export async function createPostgresDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `altwise_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    // A copy of the migrated template (test/global-setup.ts) when the run made one.
    const template = provided('postgresTemplate');
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Polls until `check` resolves truthy, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result) return result;
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
