import type { FastifyInstance } from 'fastify';

/**
 * Polls `GET /api/v1/health` while hostile input is processed and keeps the longest wait for an
 * answer: the promise is that no answer waits more than 1 s, whatever a user sends.
 * Requests go one after another (a new one as soon as the last answered, at most every 50 ms),
 * so a blocked event loop shows as one long wait.
 */
export function watchHealth(app: FastifyInstance): {
  stop: () => Promise<{ worstMs: number; answers: number }>;
} {
  let running = true;
  let worstMs = 0;
  let answers = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const response = await app.inject({ method: 'GET', url: '/api/v1/health' });
      const waited = performance.now() - started;
      if (response.statusCode !== 200) throw new Error(`health answered ${response.statusCode}`);
      worstMs = Math.max(worstMs, waited);
      answers++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { worstMs, answers };
    },
  };
}
