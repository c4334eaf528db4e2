import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import {
  type SeededMedia,
  startWordPress,
  uploadMedia,
  type WordPressSite,
  wordpressRest,
} from '../../../scripts/lib/wordpress.ts';
import type { TestUser } from './billing-helpers.ts';
import { createTestEngine } from './generation-helpers.ts';
import { type TestApp, waitFor } from './helper.ts';

/**
 * The setup the WordPress suites share: the one real WordPress of the test run
 * (scripts/lib/wordpress.ts), a tag for this file's posts and files (the site is shared by every
 * suite and by both the PGlite and the Postgres pass), the integration API as a caller sees it, and
 * a proxy that records and can swallow the calls an app makes to WordPress.
 */

export {
  createImagePost,
  createPost,
  imageBlock,
  type SeededMedia,
  type SeededPost,
  type WordPressSite,
  wordpressRest,
} from '../../../scripts/lib/wordpress.ts';

/**
 * The test engine, saying what a person can check grounds its words (a caption): the publishable
 * rule (ADR 067) lets its approved suggestions go live. `options` as createTestEngine takes them.
 */
export const groundedEngine = (options: Parameters<typeof createTestEngine>[0] = {}) =>
  createTestEngine({
    verdict: () => ({
      confidence: 0.9,
      reasons: [{ source: 'caption', detail: 'The caption beside the image' }],
    }),
    ...options,
  });

/** GET /integrations/{id}, as far as the suites read it. */
export type Integration = {
  id: string;
  status: string;
  mediaCount: number | null;
  imported: number;
  placements: number;
  auditId: string | null;
  error: string | null;
  notice: string | null;
  failures: { mediaId: number; postId: number | null; message: string }[];
  progress: {
    written: number;
    failed: number;
    total: number;
    startedAt: string | null;
    etaSeconds: number | null;
  } | null;
};
/** One image of the import's audit. */
export type AuditItem = {
  id: string;
  pageUrl: string;
  src: string;
  alt: string | null;
  suggestion: string | null;
};
/** One row of GET /integrations/{id}/changes. */
export type Change = {
  id: string;
  mediaId: number;
  postId?: number;
  fileName?: string;
  src?: string;
  thumbnailUrl: string | null;
  field: string;
  before: string;
  after: string;
  undoneAt?: string;
};
export type RestPost = { content: { raw: string }; modified_gmt: string };

type Method = 'GET' | 'POST' | 'DELETE';

/** A tag for this file's posts, files and users on the shared WordPress. */
export const runTag = () => Math.random().toString(36).slice(2, 8);

/** A small PNG of one colour (a plain colour reads as a photo to the checks, not as decorative). */
export const png = (color: string, width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

/** A PNG of one colour uploaded to the media library as `as` (the site's administrator or another user). */
export async function uploadPng(
  as: Parameters<typeof uploadMedia>[0],
  options: {
    name: string;
    color: string;
    width?: number;
    height?: number;
    altText?: string;
    caption?: string;
  },
): Promise<SeededMedia> {
  const { color, width, height, ...rest } = options;
  return uploadMedia(as, { ...rest, bytes: await png(color, width, height), type: 'image/png' });
}

/** The shared WordPress and what a suite reads back from it. */
export async function openWordPress() {
  const site = await startWordPress();
  return {
    site,
    readPost: (id: number) => wordpressRest<RestPost>(site, `/wp/v2/posts/${id}?context=edit`),
    readPage: (id: number) => wordpressRest<RestPost>(site, `/wp/v2/pages/${id}?context=edit`),
    readAlt: async (id: number) =>
      (await wordpressRest<{ alt_text: string }>(site, `/wp/v2/media/${id}?context=edit`)).alt_text,
  };
}

/**
 * The integration API of one app as `who` calls it, and `settled`: the integration once its import,
 * publish or undo has ended. `app` is read at each call, so a suite may swap the app (a restart).
 */
export function integrationApi(
  app: () => TestApp | undefined,
  who: () => TestUser,
  options: { timeoutMs?: number; onAnswer?: (body: string) => void } = {},
) {
  const call = async (method: Method, url: string, payload?: object, as: TestUser = who()) => {
    const target = app();
    if (!target) throw new Error('no app');
    const response = await target.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: as.auth,
      ...(payload ? { payload } : {}),
    });
    options.onAnswer?.(response.body);
    return response;
  };
  const settled = (id: string) =>
    waitFor(async () => {
      const integration = (await call('GET', `/integrations/${id}`)).json() as Integration;
      return integration.status !== 'importing' && integration.status !== 'publishing' ? integration : null;
    }, options.timeoutMs ?? 90_000);
  return { call, settled };
}

/** Connects the site as `credentials` say and imports it; the integration once the import has ended. */
export async function connectAndImport(
  call: ReturnType<typeof integrationApi>['call'],
  settled: ReturnType<typeof integrationApi>['settled'],
  credentials: { siteUrl: string; username: string; applicationPassword: string },
): Promise<Integration> {
  const connected = await call('POST', '/integrations/wordpress', credentials);
  if (connected.statusCode !== 201)
    throw new Error(`connect answered ${connected.statusCode}: ${connected.body}`);
  const { id } = connected.json() as Integration;
  const started = await call('POST', `/integrations/${id}/import`);
  if (started.statusCode !== 202) throw new Error(`import answered ${started.statusCode}: ${started.body}`);
  return settled(id);
}

/**
 * Fixes the import's failing images that `ours` keeps (this file's, on the shared WordPress), waits
 * for every suggestion and approves them all, as a user does in the review. Answers the failing
 * images as they were and the approved ones with their suggestions.
 */
export async function fixAndApprove(
  call: ReturnType<typeof integrationApi>['call'],
  auditId: string,
  ours: (items: AuditItem[]) => AuditItem[],
): Promise<{ failing: AuditItem[]; approved: AuditItem[] }> {
  const read = async () =>
    ours(
      (await call('GET', `/audits/${auditId}/images?pageSize=500&verdict=fail`)).json().items as AuditItem[],
    );
  const failing = await read();
  const fix = await call('POST', `/audits/${auditId}/fix`, { imageIds: failing.map((item) => item.id) });
  if (fix.statusCode !== 202) throw new Error(`fix answered ${fix.statusCode}: ${fix.body}`);
  const approved = await waitFor(async () => {
    const items = await read();
    return items.every((item) => item.suggestion) ? items : null;
  }, 30_000);
  const review = await call('POST', `/audits/${auditId}/review`, {
    imageIds: approved.map((item) => item.id),
    action: 'accept',
  });
  if (review.statusCode !== 200) throw new Error(`review answered ${review.statusCode}: ${review.body}`);
  return { failing, approved };
}

/** `GET media 3` or `POST /wp/v2/media/12`: a call as the proxy saw it. */
function describeCall(req: IncomingMessage): string {
  const url = new URL(req.url ?? '/', 'http://proxy');
  const route = url.searchParams.get('rest_route') ?? url.pathname.replace(/^\/wp-json/, '');
  if (req.method === 'GET' && route === '/wp/v2/media') return `GET media ${url.searchParams.get('page')}`;
  return `${req.method} ${route}`;
}

/** The writes inside a call to `/batch/v1`, each as `POST /wp/v2/posts/12`; none for any other call. */
function batchedCalls(call: string, body: Buffer): string[] {
  if (call !== 'POST /batch/v1') return [];
  const { requests } = JSON.parse(body.toString('utf8')) as { requests: { method?: string; path: string }[] };
  return requests.map((request) => `${request.method ?? 'POST'} ${request.path}`);
}

export type WordPressProxy = {
  url: string;
  /**
   * Every call the apps made to WordPress, in order; a batch is listed as the writes it holds, so
   * `POST /wp/v2/posts/12` is that post's write whether it went alone or in a batch.
   */
  calls: string[];
  /** The writes of each call to `/batch/v1`, in order. */
  batches: string[][];
  /** Answer `/batch/v1` with WordPress's 404 for a route it does not have, as before WordPress 5.6. */
  withoutBatch: boolean;
  /** Writes in flight at once, most seen: POST calls sent on and not yet answered by WordPress. */
  mostWritesAtOnce: number;
  /**
   * Writes inside a batch that WordPress is to refuse: each gets a `status` WordPress does not know,
   * which it answers with a 400 of its own for that write alone.
   */
  spoil: (call: string) => boolean;
  /** Answers swallowed: the request reached WordPress (a write was made), the app never hears back. */
  held: ServerResponse[];
  /** Which calls to swallow. */
  swallow: (call: string) => boolean;
  /** How long to hold each answer before it goes back (ms), to make runs overlap. */
  delayMs: number;
  close: () => Promise<void>;
};

/**
 * A proxy in front of the real WordPress that records each call and can swallow an answer, as when
 * the process dies while WordPress writes.
 */
export async function startWordPressProxy(site: WordPressSite): Promise<WordPressProxy> {
  const target = new URL(site.url);
  const proxy: WordPressProxy = {
    url: '',
    calls: [],
    batches: [],
    withoutBatch: false,
    mostWritesAtOnce: 0,
    spoil: () => false,
    held: [],
    swallow: () => false,
    delayMs: 0,
    close: async () => {
      for (const res of proxy.held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  let writesAtOnce = 0;
  const server: Server = createServer((req, res) => {
    const described = describeCall(req);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      let body = Buffer.concat(chunks);
      if (proxy.withoutBatch && described === 'POST /batch/v1') {
        proxy.calls.push(described);
        res.writeHead(404, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            code: 'rest_no_route',
            message: 'No route was found matching the URL and request method.',
            data: { status: 404 },
          }),
        );
        return;
      }
      const inBatch = batchedCalls(described, body);
      const calls = inBatch.length > 0 ? inBatch : [described];
      proxy.calls.push(...calls);
      if (inBatch.length > 0) {
        proxy.batches.push(inBatch);
        const batch = JSON.parse(body.toString('utf8')) as {
          requests: { path: string; body?: Record<string, unknown> }[];
        };
        for (const [at, request] of batch.requests.entries())
          if (proxy.spoil(inBatch[at] as string))
            request.body = { ...request.body, status: 'no-such-status' };
        body = Buffer.from(JSON.stringify(batch));
      }
      const write = req.method === 'POST';
      if (write) proxy.mostWritesAtOnce = Math.max(proxy.mostWritesAtOnce, ++writesAtOnce);
      const answer = await fetch(new URL(req.url ?? '/', target), {
        method: req.method,
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(
            (entry): entry is [string, string] =>
              typeof entry[1] === 'string' && entry[0] !== 'host' && entry[0] !== 'content-length',
          ),
        ),
        ...(chunks.length > 0 ? { body } : {}),
      }).finally(() => {
        if (write) writesAtOnce--;
      });
      const answered = Buffer.from(await answer.arrayBuffer());
      if (calls.some((call) => proxy.swallow(call))) {
        proxy.held.push(res);
        return;
      }
      if (proxy.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, proxy.delayMs));
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'x-wp-total', 'x-wp-totalpages'])
        if (answer.headers.get(name)) headers[name] = answer.headers.get(name) as string;
      res.writeHead(answer.status, headers).end(answered);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
