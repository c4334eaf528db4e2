import { createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../../net/safe-fetch.ts';
import { createProxySession } from './ssrf-proxy.ts';

/**
 * The rendering browser's proxy (ADR 061), driven the way Chromium drives it: absolute-URL GETs
 * for http and CONNECT for tunnels. The private-address rule is safe-fetch's own, with one
 * exception (127.0.0.1, where the test's site listens), so every other private address is refused
 * for real, by literal address and by a name that resolves to one.
 */
let site: Server;
let sitePort = 0;
let hits = 0;
const allowOnlySite = (address: string) => address !== '127.0.0.1' && isPrivateAddress(address);

beforeAll(async () => {
  site = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(4096));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  sitePort = (site.address() as AddressInfo).port;
});
afterAll(async () => {
  site.closeAllConnections();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

function viaProxy(port: number, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path: url,
      method: 'GET',
      headers: { host: new URL(url).host },
    });
    req.once('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.once('error', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

function tunnel(port: number, authority: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
    );
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(answer.split('\r\n')[0] ?? '');
      }
    });
    socket.on('error', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
  });
}

describe('the rendering browser’s SSRF proxy', () => {
  it('passes the allowed site and refuses private literals, private names (localhost) and metadata addresses, counting each', async () => {
    const session = await createProxySession({
      refuse: allowOnlySite,
      connectTimeoutMs: 2000,
      maxBytes: 1_000_000,
    });
    try {
      hits = 0;
      expect(await viaProxy(session.port, `http://127.0.0.1:${sitePort}/ok`)).toMatchObject({ status: 200 });
      expect(hits).toBe(1);
      expect((await viaProxy(session.port, `http://10.0.0.1/x`)).status).toBe(403);
      expect((await viaProxy(session.port, `http://169.254.169.254/latest/meta-data/`)).status).toBe(403);
      // A name is resolved and every address checked: localhost is ::1 and/or 127.0.0.1 here; the
      // hex form of 127.0.0.2 is normalised before the check.
      expect((await viaProxy(session.port, `http://0x7f000002:${sitePort}/`)).status).toBe(403);
      expect(await tunnel(session.port, `[::1]:${sitePort}`)).toBe('HTTP/1.1 403 Forbidden');
      expect(await tunnel(session.port, '10.1.2.3:443')).toBe('HTTP/1.1 403 Forbidden');
      expect(await tunnel(session.port, `127.0.0.1:${sitePort}`)).toBe('HTTP/1.1 200 Connection Established');
      expect(hits).toBe(1);
      expect(session.refused).toEqual(
        expect.arrayContaining([
          '10.0.0.1:80',
          '169.254.169.254:80',
          `127.0.0.2:${sitePort}`,
          `[::1]:${sitePort}`,
          '10.1.2.3:443',
        ]),
      );
    } finally {
      await session.close();
    }
  });

  it('refuses a name whose resolved addresses are private (the check runs in the socket’s lookup)', async () => {
    const session = await createProxySession({
      refuse: isPrivateAddress,
      connectTimeoutMs: 2000,
      maxBytes: 1_000_000,
    });
    try {
      hits = 0;
      expect((await viaProxy(session.port, `http://localhost:${sitePort}/`)).status).toBe(403);
      expect(await tunnel(session.port, `localhost:${sitePort}`)).toBe('HTTP/1.1 403 Forbidden');
      expect(hits).toBe(0);
      expect(session.refused).toEqual([`localhost:${sitePort}`, `localhost:${sitePort}`]);
    } finally {
      await session.close();
    }
  });

  it('cuts a page’s connections once it has moved more than its byte limit', async () => {
    const session = await createProxySession({
      refuse: allowOnlySite,
      connectTimeoutMs: 2000,
      maxBytes: 6000,
    });
    try {
      await viaProxy(session.port, `http://127.0.0.1:${sitePort}/one`);
      expect(session.overLimit).toBe(false);
      await viaProxy(session.port, `http://127.0.0.1:${sitePort}/two`).catch(() => null);
      expect(session.overLimit).toBe(true);
      expect((await viaProxy(session.port, `http://127.0.0.1:${sitePort}/three`)).status).toBe(403);
    } finally {
      await session.close();
    }
  });
});
