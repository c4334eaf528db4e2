import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A comment line now and then keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;

/**
 * Streams `read()` as server-sent `progress` events: the first at once, then each time the JSON
 * changes, reading every `pollMs` (the database is the source, so it works whichever process does
 * the work), until `done(value)` or the client leaves or the server closes. Call it after `read()`
 * has answered once, so a 404 still goes out in the usual error shape.
 */
export async function streamProgress<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    first: T;
    read: () => Promise<T>;
    done: (value: T) => boolean;
    pollMs: number;
    closing: () => boolean;
  },
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  let gone = false;
  raw.on('close', () => {
    gone = true;
  });
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
    'x-request-id': request.id,
  });
  const send = (json: string) => raw.write(`event: progress\ndata: ${json}\n\n`);
  let value = options.first;
  let last = JSON.stringify(value);
  send(last);
  let quietSince = Date.now();
  try {
    while (!gone && !options.closing() && !options.done(value)) {
      await sleep(options.pollMs);
      if (gone || options.closing()) break;
      value = await options.read();
      const json = JSON.stringify(value);
      if (json !== last) {
        last = json;
        send(json);
        quietSince = Date.now();
      } else if (Date.now() - quietSince > KEEPALIVE_MS) {
        raw.write(': keep-alive\n\n');
        quietSince = Date.now();
      }
    }
  } catch (error) {
    request.log.warn({ err: error }, 'event stream ended early');
  } finally {
    if (!raw.writableEnded) raw.end();
  }
}
