import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');

/**
 * A one-page site on loopback: `/` answers `page`, any other path the fixture image of that file name
 * (test/fixtures/images), 404 when there is none. For audits of a page of real photographs.
 */
export async function startFixtureSite(page: string): Promise<{ base: string; close: () => Promise<void> }> {
  const server = createServer(async (req, res) => {
    const url = req.url ?? '';
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    try {
      const bytes = await readFile(path.join(fixtures, path.basename(url)));
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
