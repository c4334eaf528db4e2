import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { guardedLookup, SafeFetchError } from '../../../net/safe-fetch.ts';

/**
 * The rendering browser's only way out (ADR 061): a forward proxy on 127.0.0.1 (plain
 * HTTP and CONNECT tunnels) that checks every address with the same rule as `net/safe-fetch.ts`
 * and connects to the address it checked, so a name that resolves to a public address for the
 * check and a private one for the connection (DNS rebinding) cannot slip past. The browser sends
 * loopback through it too (`<-loopback>`).
 *
 * Each tab of the browser gets its own session, a listener on its own port: what a page was refused
 * and how many bytes it moved are counted for that page (`reset` between two pages of a tab cuts the
 * first page's connections and counts from zero), and closing the session cuts its connections.
 */

export type ProxySession = {
  /** The port the page's browser context uses as its proxy. */
  readonly port: number;
  /** Hosts (with port) the page tried to reach that are private or local, in the order tried. */
  readonly refused: string[];
  /** Bytes received from the sites the page loaded. */
  readonly bytes: number;
  /** True once `maxBytes` was passed: every connection of the session was cut then. */
  readonly overLimit: boolean;
  /** Starts counting for the next page of the same tab: its connections are cut, counts set to zero. */
  reset(): void;
  close(): Promise<void>;
};

export type SsrfProxyOptions = {
  /** True for an address the browser must not reach (`refusalRule` of safe-fetch). */
  refuse: (address: string) => boolean;
  connectTimeoutMs: number;
};

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** host:port of a CONNECT line or an absolute URL; null for anything else. */
function splitTarget(authority: string): { host: string; port: number } | null {
  try {
    const url = new URL(`http://${authority}`);
    const port = Number(url.port || 443);
    if (!url.hostname || !Number.isInteger(port) || port < 1 || port > 65535) return null;
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return null;
  }
}

export function createProxySession(options: SsrfProxyOptions & { maxBytes: number }): Promise<ProxySession> {
  const lookup = guardedLookup(options.refuse);
  const refused: string[] = [];
  const sockets = new Set<Duplex>();
  let bytes = 0;
  let overLimit = false;

  const track = (socket: Duplex) => {
    if (sockets.has(socket)) return;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const cutAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  const count = (size: number) => {
    bytes += size;
    if (bytes > options.maxBytes && !overLimit) {
      overLimit = true;
      cutAll();
    }
  };
  /** False (and the attempt recorded) when the literal address is refused; names are checked by `lookup`. */
  const literalAllowed = (host: string, port: number) => {
    if (isIP(host) && options.refuse(host)) {
      refused.push(`${host.includes(':') ? `[${host}]` : host}:${port}`);
      return false;
    }
    return true;
  };
  const isRefusal = (error: unknown) =>
    error instanceof SafeFetchError ||
    (error instanceof Error && error.cause instanceof SafeFetchError) ||
    (error instanceof Error && error.message.startsWith('Refusing to fetch'));

  const server = http.createServer((request: IncomingMessage, response: ServerResponse) => {
    track(request.socket);
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (target.protocol !== 'http:' || overLimit) {
      response.writeHead(403).end();
      return;
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const port = Number(target.port || 80);
    if (!literalAllowed(host, port)) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end('Refused: a private or local address.');
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined && !hopByHop.has(name)) headers[name] = value;
    const upstream = http.request({
      host,
      port,
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers,
      lookup,
      // A fresh socket per request: a pooled one would skip the lookup, and with it the check.
      agent: false,
      timeout: options.connectTimeoutMs,
    });
    upstream.once('socket', (socket) => track(socket));
    upstream.once('timeout', () => upstream.destroy(new Error('timeout')));
    upstream.once('response', (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers))
        if (value !== undefined && !hopByHop.has(name)) out[name] = value;
      response.writeHead(answer.statusCode ?? 502, out);
      answer.on('data', (chunk: Buffer) => {
        count(chunk.byteLength);
        if (!overLimit) response.write(chunk);
      });
      answer.once('end', () => response.end());
      answer.once('error', () => response.destroy());
    });
    upstream.once('error', (error) => {
      if (isRefusal(error)) refused.push(`${target.hostname}:${port}`);
      if (!response.headersSent) response.writeHead(isRefusal(error) ? 403 : 502).end();
      else response.destroy();
    });
    request.pipe(upstream);
  });

  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => {});
    const target = splitTarget(request.url ?? '');
    if (!target || overLimit) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    if (!literalAllowed(target.host, target.port)) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream: Socket = net.connect({
      host: target.host,
      port: target.port,
      lookup,
      timeout: options.connectTimeoutMs,
    });
    track(upstream);
    upstream.once('timeout', () => upstream.destroy());
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.byteLength > 0) upstream.write(head);
      upstream.on('data', (chunk: Buffer) => {
        count(chunk.byteLength);
        if (!overLimit) client.write(chunk);
      });
      client.pipe(upstream);
      upstream.once('end', () => client.end());
    });
    upstream.once('error', (error) => {
      if (isRefusal(error)) refused.push(`${target.host}:${target.port}`);
      if (client.writable)
        client.end(`HTTP/1.1 ${isRefusal(error) ? '403 Forbidden' : '502 Bad Gateway'}\r\n\r\n`);
    });
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        port,
        refused,
        get bytes() {
          return bytes;
        },
        get overLimit() {
          return overLimit;
        },
        reset: () => {
          cutAll();
          refused.length = 0;
          bytes = 0;
          overLimit = false;
        },
        close: () =>
          new Promise<void>((done) => {
            cutAll();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
