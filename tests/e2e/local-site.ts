import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LocalSite = { url: string; close: () => Promise<void> };

/**
 * A small website on 127.0.0.1 for the journeys to audit (the e2e server runs with
 * FETCH_ALLOW_PRIVATE): each path answers its HTML page or its picture, anything else 404. Pages are
 * served as written (a page that is not a whole document is wrapped in one titled `title`).
 */
export async function startLocalSite(
  pages: Record<string, string>,
  pictures: (path: string) => Buffer | undefined,
  title = 'Shop',
): Promise<LocalSite> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const page = pages[path];
    const picture = page === undefined ? pictures(path) : undefined;
    if (page !== undefined) {
      const html = /^<!doctype/i.test(page.trimStart())
        ? page
        : `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${page}</body></html>`;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else if (picture) {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': picture.length }).end(picture);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
