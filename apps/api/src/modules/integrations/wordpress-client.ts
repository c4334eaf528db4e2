import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { createSandbox, SandboxLimitError, SandboxTaskError } from '../../lib/sandbox.ts';
import { guardedLookup, refusalRule, SafeFetchError } from '../../net/safe-fetch.ts';
import { type AnswerReading, MAX_ANSWER_DEPTH, MAX_ANSWER_VALUES } from './answer-json.ts';
import type { AnswerHandlers } from './answer-worker.ts';

/**
 * A WordPress REST client that authenticates with an application password (ADR 056).
 * Every call goes under the fetcher's SSRF rules (net/safe-fetch.ts): http or https only, every
 * resolved address checked in the socket's lookup, no redirect followed. Every failure is a
 * WordPressError whose message says in words what happened and never carries the credential.
 */

export type WordPressErrorReason =
  | 'refused-address'
  | 'unreachable'
  | 'timeout'
  | 'not-json'
  | 'rest-disabled'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'rate-limited'
  | 'too-large'
  | 'server-error'
  | 'rejected';

export class WordPressError extends Error {
  readonly reason: WordPressErrorReason;
  readonly status: number | undefined;
  constructor(reason: WordPressErrorReason, message: string, status?: number) {
    super(message);
    this.name = 'WordPressError';
    this.reason = reason;
    this.status = status;
  }
}

export type RestStyle = 'wp-json' | 'rest_route';

export type WordPressSite = {
  siteUrl: string;
  restStyle: RestStyle;
  username: string;
  applicationPassword: string;
};

export type WordPressAnswer<T> = { body: T; headers: http.IncomingHttpHeaders };

export type ClientOptions = {
  allowPrivate: boolean;
  /** Per call, the answer's body included. */
  timeoutMs: number;
  /** Most bytes one answer may have (WORDPRESS_MAX_ANSWER_BYTES); the connection is cut past it. */
  maxAnswerBytes: number;
  /** Waits for this site's turn before each call (the per-site rate limit). */
  beforeCall?: (method: 'GET' | 'POST') => Promise<void>;
};

/**
 * The thread WordPress answers are parsed in (answer-worker.ts, ADR 070): started on the first call
 * and stopped when idle. 10 s and 256 MB per answer; an answer within WORDPRESS_MAX_ANSWER_BYTES
 * and the depth and value limits takes milliseconds.
 */
let answerSandbox: ReturnType<typeof createSandbox<AnswerHandlers>> | undefined;
const answerReader = () => {
  answerSandbox ??= createSandbox<AnswerHandlers>(new URL('./answer-worker.ts', import.meta.url), {
    size: 2,
    timeoutMs: 10_000,
    maxOldGenerationMb: 256,
    maxQueue: 64,
  });
  return answerSandbox;
};

/** `8 MB`, `512 KB`: a byte limit in words. */
function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The REST address of `route` (`/wp/v2/media`, query string allowed) on this site. */
export function restUrl(siteUrl: string, style: RestStyle, route: string): URL {
  const [path, query] = route.split('?');
  const base = siteUrl.replace(/\/+$/, '');
  if (style === 'wp-json') return new URL(`${base}/wp-json${path}${query ? `?${query}` : ''}`);
  const url = new URL(`${base}/`);
  url.searchParams.set('rest_route', path ?? '/');
  for (const [name, value] of new URLSearchParams(query ?? '')) url.searchParams.set(name, value);
  return url;
}

function send(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string },
  options: ClientOptions,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const refuse = refusalRule(options);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && refuse(host))
    return Promise.reject(
      new WordPressError(
        'refused-address',
        `Refusing to connect to ${url.hostname}: it is a private or local address.`,
      ),
    );
  const seconds = Math.max(1, Math.round(options.timeoutMs / 1000));
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (
      error: Error | null,
      value?: { status: number; headers: http.IncomingHttpHeaders; body: Buffer },
    ) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else if (value) resolve(value);
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: init.method,
      lookup: guardedLookup(refuse),
      // A fresh socket per request: a pooled one would skip the lookup, and with it the check.
      agent: false,
      headers: {
        ...init.headers,
        accept: 'application/json',
        'user-agent': 'Altwise/1.0 (+alt text for images)',
        ...(init.body !== undefined
          ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(init.body)) }
          : {}),
      },
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish(
        new WordPressError(
          'timeout',
          `${url.hostname} did not answer within ${seconds} second${seconds === 1 ? '' : 's'}. Please try again.`,
        ),
      );
    }, options.timeoutMs);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const tooLarge = () => {
        response.destroy();
        finish(
          new WordPressError(
            'too-large',
            `${url.hostname} answered with more than ${sizeInWords(options.maxAnswerBytes)}, more than Altwise reads from one WordPress answer, so it stopped reading.`,
          ),
        );
      };
      // Refused before a byte of the body is read when the site announces the size.
      if (Number(response.headers['content-length']) > options.maxAnswerBytes) return tooLarge();
      response.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > options.maxAnswerBytes) return tooLarge();
        chunks.push(chunk);
      });
      response.once('end', () =>
        finish(null, {
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.once('error', () =>
        finish(
          new WordPressError('unreachable', `The connection to ${url.hostname} broke off. Please try again.`),
        ),
      );
    });
    // `on`, not `once`: destroying the request can emit a second error, which must not go unhandled.
    request.on('error', (error) => {
      if (error instanceof SafeFetchError && error.code === 'REFUSED_ADDRESS')
        finish(
          new WordPressError(
            'refused-address',
            `Refusing to connect to ${url.hostname}: it is a private or local address.`,
          ),
        );
      else
        finish(
          new WordPressError(
            'unreachable',
            `Could not reach ${url.hostname}. Check the address and try again.`,
          ),
        );
    });
    request.end(init.body);
  });
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
    return body.message.replace(/<[^>]*>/g, '').slice(0, 300);
  return undefined;
}

function codeOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'code' in body && typeof body.code === 'string') return body.code;
  return undefined;
}

/** A failed answer in words; `what` names the call ("reading the media library"). */
function failure(status: number, body: unknown, host: string, what: string): WordPressError {
  const said = messageOf(body);
  const code = codeOf(body);
  const theirs = said ? ` WordPress said: “${said}”` : '';
  if (code === 'rest_disabled' || code === 'rest_api_disabled')
    return new WordPressError(
      'rest-disabled',
      `The REST API of ${host} is turned off or blocked, so Altwise cannot reach the site. Turn it on (or allow it in the security plugin) and try again.`,
      status,
    );
  if (status === 401)
    return new WordPressError(
      'unauthorized',
      `WordPress at ${host} refused the user name or application password (HTTP 401). Check both, or make a new application password under Users → Profile.${theirs}`,
      status,
    );
  if (status === 403)
    return new WordPressError(
      'forbidden',
      `WordPress at ${host} does not let this user do this (HTTP 403) while ${what}. The user needs to be allowed to edit media and posts (an Editor or Administrator).${theirs}`,
      status,
    );
  if (status === 404)
    return new WordPressError(
      'not-found',
      `WordPress at ${host} has no such item (HTTP 404) while ${what}; it may have been deleted. Import again to see the site as it is now.${theirs}`,
      status,
    );
  if (status === 429)
    return new WordPressError(
      'rate-limited',
      `WordPress at ${host} is limiting requests (HTTP 429) while ${what}. Please try again in a few minutes.`,
      status,
    );
  if (status >= 500)
    return new WordPressError(
      'server-error',
      `WordPress at ${host} failed (HTTP ${status}) while ${what}. Please try again later.${theirs}`,
      status,
    );
  if (status >= 300 && status < 400)
    return new WordPressError(
      'rejected',
      `${host} redirected elsewhere (HTTP ${status}) while ${what}. Enter the site’s exact address (https, www or not) and try again.`,
      status,
    );
  return new WordPressError(
    'rejected',
    `WordPress at ${host} refused ${what} (HTTP ${status}).${theirs}`,
    status,
  );
}

export type WordPressClient = ReturnType<typeof createWordPressClient>;

/** Most requests WordPress takes in one call to `/batch/v1` (its default `rest_get_max_batch_size`). */
export const MAX_BATCH_REQUESTS = 25;

/** One write inside a batch: `path` is a REST route (`/wp/v2/posts/12`); `what` names it in messages. */
export type BatchWrite = { path: string; body: unknown; what: string };

/** What became of one request of a batch: WordPress's answer to it, or why it failed, in words. */
export type BatchOutcome<T> = { ok: true; body: T } | { ok: false; error: WordPressError };

/** Calls one site's REST API as its user. */
export function createWordPressClient(site: WordPressSite, options: ClientOptions) {
  const host = new URL(site.siteUrl).host;
  const authorization = `Basic ${Buffer.from(`${site.username}:${site.applicationPassword.replace(/\s+/g, '')}`).toString('base64')}`;

  async function call<T>(
    style: RestStyle,
    method: 'GET' | 'POST',
    route: string,
    what: string,
    json?: unknown,
  ): Promise<WordPressAnswer<T>> {
    await options.beforeCall?.(method);
    const url = restUrl(site.siteUrl, style, route);
    const answer = await send(
      url,
      { method, headers: { authorization }, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) },
      options,
    );
    const ok = answer.status >= 200 && answer.status < 300;
    const reading = await readAnswer(answer.body, what);
    if (!reading.ok && ok) {
      if (reading.problem === 'too-deep')
        throw new WordPressError(
          'too-large',
          `${host} answered with JSON nested more than ${MAX_ANSWER_DEPTH} levels deep while ${what}. WordPress never answers so; Altwise did not read it.`,
          answer.status,
        );
      if (reading.problem === 'too-many')
        throw new WordPressError(
          'too-large',
          `${host} answered with more than ${MAX_ANSWER_VALUES.toLocaleString('en')} values while ${what}, more than Altwise reads from one WordPress answer.`,
          answer.status,
        );
      throw new WordPressError(
        'not-json',
        `${host} answered with ${String(answer.headers['content-type'] ?? 'something').split(';')[0]} instead of the WordPress REST API’s JSON while ${what}. Is this a WordPress site with its REST API turned on?`,
        answer.status,
      );
    }
    const body = reading.ok ? reading.body : undefined;
    if (!ok) throw failure(answer.status, body, host, what);
    return { body: body as T, headers: answer.headers };
  }

  /** The answer's JSON, parsed in the answers' thread (ADR 070); an empty body is no JSON. */
  async function readAnswer(bytes: Buffer, what: string): Promise<AnswerReading> {
    if (bytes.byteLength === 0) return { ok: false, problem: 'not-json' };
    try {
      return await answerReader().run('readAnswerJson', bytes);
    } catch (error) {
      if (error instanceof SandboxLimitError && error.limit === 'busy')
        throw new WordPressError(
          'rate-limited',
          `Altwise is reading too many WordPress answers at once while ${what}. Please try again in a minute.`,
        );
      if (error instanceof SandboxLimitError || error instanceof SandboxTaskError)
        throw new WordPressError(
          'too-large',
          `${host}’s answer was too large or too complex to read while ${what}; Altwise stopped reading it.`,
        );
      throw error;
    }
  }

  /**
   * Sends up to 25 writes in one call to WordPress's `/batch/v1` (ADR 076). WordPress runs each on its
   * own and answers 207 with one answer per request, so each write succeeds or fails alone. A site
   * without the endpoint (before WordPress 5.6, or a plugin that removed it) answers 404: that
   * WordPressError, reason `not-found`, is thrown for the whole call.
   */
  async function batch<T>(writes: BatchWrite[], what: string): Promise<BatchOutcome<T>[]> {
    if (writes.length === 0) return [];
    if (writes.length > MAX_BATCH_REQUESTS)
      throw new Error(`a batch holds at most ${MAX_BATCH_REQUESTS} requests`);
    const answer = await call<{ responses?: unknown }>(site.restStyle, 'POST', '/batch/v1', what, {
      validation: 'normal',
      requests: writes.map((write) => ({ method: 'POST', path: write.path, body: write.body })),
    });
    const responses = answer.body?.responses;
    if (!Array.isArray(responses) || responses.length !== writes.length)
      throw new WordPressError(
        'not-json',
        `${host} did not answer the batch of ${writes.length} writes with one answer each while ${what}.`,
      );
    return writes.map((write, at) => {
      const one: unknown = responses[at];
      const status = one && typeof one === 'object' && 'status' in one ? Number(one.status) : Number.NaN;
      const body = one && typeof one === 'object' && 'body' in one ? one.body : undefined;
      if (!Number.isInteger(status))
        return {
          ok: false,
          error: new WordPressError(
            'not-json',
            `${host} gave no answer to one write of a batch while ${write.what}.`,
          ),
        };
      if (status >= 200 && status < 300) return { ok: true, body: body as T };
      return { ok: false, error: failure(status, body, host, write.what) };
    });
  }

  return {
    call,
    batch,
    get: <T>(route: string, what: string) => call<T>(site.restStyle, 'GET', route, what),
    post: <T>(route: string, json: unknown, what: string) =>
      call<T>(site.restStyle, 'POST', route, what, json),
  };
}

export type WordPressUser = { id: number; username?: string; capabilities?: Record<string, boolean> };

/**
 * Checks the site and the credential at once: `/wp-json/wp/v2/users/me?context=edit`, then
 * `?rest_route=` when pretty links are off. Answers how the REST API is reached and who the user is.
 */
export async function checkWordPress(
  site: Omit<WordPressSite, 'restStyle'>,
  options: ClientOptions,
): Promise<{ restStyle: RestStyle; user: WordPressUser }> {
  const client = createWordPressClient({ ...site, restStyle: 'wp-json' }, options);
  const what = 'checking the connection';
  let first: WordPressError | undefined;
  for (const style of ['wp-json', 'rest_route'] as const) {
    try {
      const answer = await client.call<WordPressUser>(style, 'GET', '/wp/v2/users/me?context=edit', what);
      if (!answer.body || typeof answer.body.id !== 'number')
        throw new WordPressError(
          'not-json',
          `${new URL(site.siteUrl).host} did not answer like WordPress’s REST API while ${what}.`,
        );
      return { restStyle: style, user: answer.body };
    } catch (error) {
      if (!(error instanceof WordPressError)) throw error;
      // The credential or the address is wrong whichever way the API is reached: say so at once.
      if (
        [
          'unauthorized',
          'forbidden',
          'refused-address',
          'unreachable',
          'timeout',
          'rate-limited',
          'rest-disabled',
        ].includes(error.reason)
      )
        throw error;
      first ??= error;
    }
  }
  const host = new URL(site.siteUrl).host;
  if (first && first.reason !== 'not-found' && first.reason !== 'not-json') throw first;
  throw new WordPressError(
    'not-json',
    `${host} does not answer like a WordPress site: neither ${host}/wp-json/ nor ${host}/?rest_route= gave the REST API’s JSON. Check the address, and that the REST API is turned on.`,
    first?.status,
  );
}
