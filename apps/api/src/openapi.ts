import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';

/**
 * The OpenAPI document as committed in apps/api/openapi.json: built from a throwaway app on an
 * in-memory database, so it depends on the routes and schemas only, never on the environment.
 */
export async function buildOpenApiDocument(): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-openapi-'));
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      SERVE_WEB: 'false',
    });
    const app = await buildApp(config, { database: await openDatabase({ driver: 'pglite', dir: null }) });
    try {
      await app.ready();
      return `${JSON.stringify(app.swagger(), null, 2)}\n`;
    } finally {
      await app.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
