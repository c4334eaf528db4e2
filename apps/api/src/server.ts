import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { StartupError } from './errors.ts';

/** Starts the HTTP server (and, with PROCESS_ROLE=all, the job workers) on HOST:PORT. */
async function main() {
  const config = loadConfig();
  if (config.role === 'worker') {
    throw new ConfigError([
      'PROCESS_ROLE=worker runs no HTTP server: start src/worker.ts (npm run worker) instead',
    ]);
  }
  const app = await buildApp(config);

  closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an uncaught error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      role: config.role,
      database: config.database.driver,
      storage: config.storage.driver,
      dataDir: config.dataDir,
    },
    `Altwise is listening on ${config.publicUrl} (bound to ${config.host}:${config.port})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
