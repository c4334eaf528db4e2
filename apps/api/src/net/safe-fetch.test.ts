import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, safeFetch } from './safe-fetch.ts';

describe('isPrivateAddress', () => {
  it('refuses every local, private and special address class', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '10.255.255.255',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fe80::1%eth0',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      // IPv4-compatible: the last 32 bits are an IPv4 address (here 127.0.0.1 and 10.0.0.1).
      '::127.0.0.1',
      '::7f00:1',
      '::a00:1',
      // 6to4: 2002:{IPv4}::/48 (127.0.0.1, 169.254.169.254, 192.168.1.1).
      '2002:7f00:1::1',
      '2002:a9fe:a9fe::',
      '2002:c0a8:101::1',
      // Teredo: the client's IPv4 address inverted in the last 32 bits (~127.0.0.1 = 80ff:fffe).
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001::1',
      '64:ff9b::7f00:1',
      'not-an-address',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
  });

  it('lets public addresses through', () => {
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '2606:2800:220:1:248:1893:25c8:1946',
      '::ffff:8.8.8.8',
      // Next to the refused blocks: 2001:4860::/32 (Google) and 2003::/16 are ordinary addresses.
      '2001:4860:4860::8888',
      '2003:de:2016::1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

describe('safeFetch', () => {
  const streamed = { sent: -1 };
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (req.url === '/to-loopback') {
        res.writeHead(302, { location: `http://127.0.0.2:${port}/page` }).end();
      } else if (req.url === '/to-localhost') {
        res.writeHead(301, { location: `http://localhost:${port}/page` }).end();
      } else if (req.url === '/stream') {
        // 10 pieces of 1,000 bytes, one every 20 ms; counts what was sent before the reader hung up.
        let sent = 0;
        const timer = setInterval(() => {
          if (sent === 10) {
            clearInterval(timer);
            res.end();
            return;
          }
          res.write('x'.repeat(1000));
          sent++;
        }, 20);
        res.once('close', () => {
          clearInterval(timer);
          streamed.sent = sent;
        });
      } else if (req.url?.startsWith('/loop')) {
        res.writeHead(302, { location: `/loop${Number(req.url.slice(5) || 0) + 1}` }).end();
      } else {
        res.end('hello');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // The test server stands in for a public host: only its own address is let through.
  const onlyTestServer = (address: string) => address !== '127.0.0.1' && isPrivateAddress(address);

  it('refuses other schemes, credentials and private addresses by default', async () => {
    await expect(safeFetch('file:///etc/passwd', { maxBytes: 100 })).rejects.toMatchObject({
      code: 'INVALID_URL',
    });
    await expect(safeFetch(`http://user:secret@127.0.0.1:${port}/`, { maxBytes: 100 })).rejects.toMatchObject(
      {
        code: 'INVALID_URL',
      },
    );
    await expect(safeFetch(`http://127.0.0.1:${port}/`, { maxBytes: 100 })).rejects.toMatchObject({
      code: 'REFUSED_ADDRESS',
    });
    await expect(safeFetch(`http://[::ffff:127.0.0.1]:${port}/`, { maxBytes: 100 })).rejects.toMatchObject({
      code: 'REFUSED_ADDRESS',
    });
    // A name is checked by the socket's own lookup, on the address it then connects to.
    await expect(safeFetch(`http://localhost:${port}/`, { maxBytes: 100 })).rejects.toMatchObject({
      code: 'REFUSED_ADDRESS',
    });
  });

  it('checks every redirect again', async () => {
    const base = `http://127.0.0.1:${port}`;
    const options = { maxBytes: 100, refuseAddress: onlyTestServer };
    expect((await safeFetch(`${base}/page`, options)).body.toString()).toBe('hello');
    for (const path of ['/to-metadata', '/to-loopback']) {
      await expect(safeFetch(`${base}${path}`, options)).rejects.toMatchObject({ code: 'REFUSED_ADDRESS' });
    }
  });

  it('follows at most the allowed number of redirects', async () => {
    const base = `http://127.0.0.1:${port}`;
    await expect(
      safeFetch(`${base}/loop0`, { maxBytes: 100, allowPrivate: true, maxRedirects: 5 }),
    ).rejects.toMatchObject({
      code: 'TOO_MANY_REDIRECTS',
    });
  });

  it('hands a streamed body over piece by piece, still capped at maxBytes, and hangs up when the reader stops', async () => {
    const base = `http://127.0.0.1:${port}`;
    let read = 0;
    const answer = await safeFetch(`${base}/stream`, {
      maxBytes: 100_000,
      allowPrivate: true,
      readBody: async (chunks) => {
        for await (const chunk of chunks) {
          read += chunk.byteLength;
          if (read >= 2000) break;
        }
      },
    });
    expect(answer.body.byteLength).toBe(0);
    expect(read).toBeGreaterThanOrEqual(2000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(streamed.sent).toBeGreaterThan(0);
    expect(streamed.sent).toBeLessThan(10);

    await expect(
      safeFetch(`${base}/stream`, {
        maxBytes: 5000,
        allowPrivate: true,
        readBody: async (chunks) => {
          for await (const _chunk of chunks);
        },
      }),
    ).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });
});
