import { healthResponseSchema } from '@altwise/contracts/health';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper.ts';

const expectedDriver = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
let t: TestApp | undefined;
afterEach(() => t?.cleanup());

describe('GET /api/v1/health', () => {
  it('answers 200 with every component up and the drivers in use', async () => {
    t = await buildTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = healthResponseSchema.parse(response.json());
    expect(body).toMatchObject({
      status: 'ok',
      role: 'all',
      database: { status: 'up', driver: expectedDriver },
      queue: { status: 'up', driver: 'pg-boss' },
      storage: { status: 'up', driver: 'local' },
    });
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('answers 503 with the same shape when the database is gone', async () => {
    t = await buildTestApp();
    await t.app.deps.queue.stop();
    await t.app.deps.database.close();
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(503);
    const body = healthResponseSchema.parse(response.json());
    expect(body.status).toBe('degraded');
    expect(body.database).toMatchObject({ status: 'down', driver: expectedDriver });
    expect(body.database.message).toMatch(/Database unreachable/);
    expect(body.queue.status).toBe('down');
    expect(body.storage.status).toBe('up');
  });
});
