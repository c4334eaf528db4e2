import { randomUUID } from 'node:crypto';
import { API_BASE } from '@altwise/contracts/routes';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import packageJson from '../package.json' with { type: 'json' };
import type { AppConfig } from './config.ts';
import { type DatabaseHandle, databaseOptionsFromConfig, openDatabase } from './db/client.ts';
import { createJobQueue, type JobQueue, type WorkOptions } from './jobs/queue.ts';
import { startWorkers } from './jobs/workers.ts';
import { filesRoutes } from './modules/files/routes.ts';
import { createFilesService, type FilesService } from './modules/files/service.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { createHealthService } from './modules/health/service.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { securityPlugin } from './plugins/security.ts';
import { webPlugin } from './plugins/web.ts';
import { createStorage } from './storage/create-storage.ts';
import type { FileStorage } from './storage/file-storage.ts';

/** What the app runs on. Everything here is closed when the app closes. */
export type AppDeps = {
  database: DatabaseHandle;
  storage: FileStorage;
  queue: JobQueue;
  files: FilesService;
};

export type BuildAppOptions = {
  /** An already opened database (tests pass an in-memory PGlite); otherwise opened from config. */
  database?: DatabaseHandle;
  storage?: FileStorage;
  /** Worker polling, shortened by tests. */
  workOptions?: WorkOptions;
};

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    deps: AppDeps;
  }
}

/** 1 MiB for JSON bodies; file uploads set their own limits on their routes. */
export const BODY_LIMIT = 1024 * 1024;

const saneRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

function loggerOptions(config: AppConfig): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    ...(config.env === 'development' && process.stdout.isTTY
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

/**
 * Builds the whole app: opens the database and applies migrations, starts the job queue (and its
 * workers when the role includes them), and registers the HTTP plugins. The returned instance is
 * not yet listening; server.ts listens, worker.ts only keeps it running.
 */
export async function buildApp(config: AppConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && saneRequestId.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = options.database ?? (await openDatabase(databaseOptionsFromConfig(config)));
  let queue: JobQueue | undefined;
  try {
    await database.migrate();
    const storage = options.storage ?? createStorage(config);
    const files = createFilesService({ db: database.db, storage, logger: app.log });
    const runsWorkers = config.role !== 'api';
    queue = createJobQueue({ database, runsWorkers, logger: app.log });
    await queue.start();
    if (runsWorkers) await startWorkers(queue, { files }, options.workOptions);

    app.decorate('config', config);
    app.decorate('deps', { database, storage, queue, files });
  } catch (error) {
    await queue?.stop().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }

  app.addHook('onClose', async (instance) => {
    // Workers finish their current job before the database goes away.
    await instance.deps.queue
      .stop()
      .catch((error) => instance.log.error({ err: error }, 'stopping the queue failed'));
    await instance.deps.database.close();
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  try {
    await app.register(errorHandlerPlugin);
    await app.register(securityPlugin, { https: config.publicUrl.startsWith('https://') });
    await app.register(docsPlugin);

    const health = createHealthService({
      database: app.deps.database,
      queue: app.deps.queue,
      storage: app.deps.storage,
      role: config.role,
      version: packageJson.version,
    });
    await app.register(healthRoutes, { prefix: API_BASE, health });
    await app.register(filesRoutes, { files: app.deps.files });
    await app.register(webPlugin, config.web);
  } catch (error) {
    // The onClose hook stops the queue and closes the database.
    await app.close().catch(() => {});
    throw error;
  }

  return app;
}
