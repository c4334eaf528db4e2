import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { StartupError } from './errors.ts';

/**
 * A worker-only process: runs the job handlers and schedules against a shared Postgres, serves no
 * HTTP. Use it with API processes started with PROCESS_ROLE=api.
 */
async function main() {
  const config = loadConfig({ ...process.env, PROCESS_ROLE: 'worker' });
  const app = await buildApp(config);
  await app.ready();

  closeWithGrace({ delay: 30_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an uncaught error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  app.log.info(
    { database: config.database.driver, storage: config.storage.driver },
    'Altwise worker is running',
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
