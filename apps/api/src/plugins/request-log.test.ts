import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { OneLineRequestLog } from './request-log.ts';

describe('request log', () => {
  it('writes one line per request, when it ends, with method, URL, status and time', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(JSON.parse(String(chunk)));
        callback();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream }, logController: new OneLineRequestLog() });
    app.get('/things', async (_request, reply) => reply.code(204).send());
    try {
      const response = await app.inject({
        url: '/things?page=2',
        headers: { authorization: 'Bearer not-for-the-log' },
      });
      expect(response.statusCode).toBe(204);
      const requestLines = lines.filter((line) => line.req || line.res);
      expect(requestLines).toHaveLength(1);
      expect(requestLines[0]).toMatchObject({
        msg: 'request completed',
        req: { method: 'GET', url: '/things?page=2' },
        res: { statusCode: 204 },
        responseTime: expect.any(Number),
      });
      expect(JSON.stringify(lines)).not.toContain('not-for-the-log');
    } finally {
      await app.close();
    }
  });
});
