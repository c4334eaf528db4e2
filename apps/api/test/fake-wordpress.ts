import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in WordPress on 127.0.0.1 for answers no real WordPress gives (ADR 070): a site that
 * answers each REST route as the test says, and records the routes called. `/users/me` answers a
 * user unless the test says otherwise; a route the test leaves out answers an empty list.
 */

export type FakeAnswer = {
  status?: number;
  headers?: Record<string, string>;
  body: string | Buffer;
};

/** Answers one call: the REST route (`/wp/v2/media`) and its query; or writes the answer itself. */
export type FakeRoute = (
  query: URLSearchParams,
  res: ServerResponse,
) => FakeAnswer | undefined | Promise<FakeAnswer | undefined>;

export type FakeWordPress = {
  url: string;
  /** `GET /wp/v2/media page=3`: every call, in order. */
  calls: string[];
  close: () => Promise<void>;
};

export const json = (value: unknown, headers: Record<string, string> = {}): FakeAnswer => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

/** Media items `from`…`from + count - 1`, each a PNG under the site's uploads. */
export const mediaItems = (site: string, from: number, count: number) =>
  Array.from({ length: count }, (_, at) => ({
    id: from + at,
    source_url: `${site}/wp-content/uploads/photo-${from + at}.png`,
    alt_text: '',
    title: { raw: `Photo ${from + at}` },
  }));

export async function startFakeWordPress(routes: Record<string, FakeRoute>): Promise<FakeWordPress> {
  const site: FakeWordPress = {
    url: '',
    calls: [],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = url.searchParams.get('rest_route') ?? url.pathname.replace(/^\/wp-json/, '');
    const page = url.searchParams.get('page');
    site.calls.push(`${req.method} ${route}${page ? ` page=${page}` : ''}`);
    req.resume();
    const handler =
      routes[route] ??
      (route === '/wp/v2/users/me' ? () => json({ id: 1, username: 'editor' }) : () => json([]));
    const answer = await handler(url.searchParams, res);
    if (!answer || res.headersSent || res.destroyed) return;
    res
      .writeHead(answer.status ?? 200, answer.headers ?? { 'content-type': 'application/json' })
      .end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return site;
}
