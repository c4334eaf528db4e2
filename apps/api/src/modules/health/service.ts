import type { HealthResponse } from '@altwise/contracts/health';
import type { ProcessRole } from '../../config.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { ComponentStatus } from './component-status.ts';

const CHECK_TIMEOUT_MS = 3000;

async function withTimeout(check: Promise<ComponentStatus>, driver: string): Promise<ComponentStatus> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ComponentStatus>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: 'down', driver, message: `No answer within ${CHECK_TIMEOUT_MS} ms` }),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function checkDatabase(database: DatabaseHandle): Promise<ComponentStatus> {
  try {
    const latencyMs = await database.ping();
    return { status: 'up', driver: database.driver, latencyMs };
  } catch (error) {
    return {
      status: 'down',
      driver: database.driver,
      message: `Database unreachable (${(error as Error).name})`,
    };
  }
}

export function createHealthService(deps: {
  database: DatabaseHandle;
  queue: JobQueue;
  storage: FileStorage;
  role: ProcessRole;
  version: string;
}) {
  const bootedAt = Date.now();
  return {
    async checkHealth(): Promise<HealthResponse> {
      const [database, queue, storage] = await Promise.all([
        withTimeout(checkDatabase(deps.database), deps.database.driver),
        withTimeout(deps.queue.health(), 'pg-boss'),
        withTimeout(deps.storage.health(), deps.storage.driver),
      ]);
      const allUp = [database, queue, storage].every((component) => component.status === 'up');
      return {
        status: allUp ? 'ok' : 'degraded',
        version: deps.version,
        uptimeSeconds: Math.round((Date.now() - bootedAt) / 1000),
        role: deps.role,
        database,
        queue,
        storage,
      };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
