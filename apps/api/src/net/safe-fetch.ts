import dns, { type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Fetches a URL given by a user without letting it reach this server's own network (SSRF): http
 * and https only, no credentials in the URL, and the host's addresses checked on every connection
 * and every redirect. The check runs inside the socket's DNS lookup, so the address that was
 * checked is the address connected to: a name that resolves to a public address for the check and
 * a private one for the connection (DNS rebinding) cannot slip through. Page scraping and the
 * engine's image downloads both use it.
 */

export type SafeFetchErrorCode =
  | 'INVALID_URL'
  | 'REFUSED_ADDRESS'
  | 'UNREACHABLE'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'UNSUPPORTED_TYPE'
  | 'HTTP_ERROR'
  | 'TOO_MANY_REDIRECTS';

export class SafeFetchError extends Error {
  readonly code: SafeFetchErrorCode;
  /** The HTTP status the remote server answered with (HTTP_ERROR). */
  readonly status: number | undefined;

  constructor(code: SafeFetchErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'SafeFetchError';
    this.code = code;
    this.status = options.status;
  }
}

export interface SafeFetchOptions {
  /** Lets private and local addresses through: FETCH_ALLOW_PRIVATE, for local testing only. */
  allowPrivate?: boolean;
  /** The body is refused beyond this many bytes. */
  maxBytes: number;
  /** Time to open the TCP connection, per hop. */
  connectTimeoutMs?: number;
  /** Time for the whole fetch: every redirect and the body. */
  timeoutMs?: number;
  maxRedirects?: number;
  accept?: string;
  /** Checked before the body is read; false refuses the answer as UNSUPPORTED_TYPE. */
  acceptContentType?: (contentType: string) => boolean;
  /** Called before each redirect is followed; throwing refuses it (an audit stays on its origin). */
  checkRedirect?: (next: URL, from: URL) => void;
  /**
   * Reads the body as it arrives instead of keeping it (a sitemap of 50 MB): gets the chunks, with
   * `maxBytes` and the time limit still holding, and may stop early by leaving the loop, which
   * closes the connection. The result's `body` is then empty.
   */
  readBody?: (chunks: AsyncIterable<Buffer>) => Promise<void>;
  /** Which resolved addresses are refused; replaces the private-address rule (tests). */
  refuseAddress?: (address: string) => boolean;
}

export interface SafeFetchResult {
  /** The final URL, after redirects. */
  url: URL;
  status: number;
  headers: IncomingHttpHeaders;
  contentType: string;
  body: Buffer;
}

const refusedRanges = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, includes the cloud metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  refusedRanges.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  // IPv4-compatible (deprecated), with :: and ::1 in it: ::7f00:1 would carry 127.0.0.1.
  ['::', 96],
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind a translator, refused rather than unpacked
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  // Teredo and 6to4 carry an IPv4 address (2001:0:…:~7f00:1, 2002:7f00:1::) to a relay that unpacks
  // it: refused whole, as NAT64 is, rather than unpacked and judged.
  ['2001::', 32],
  ['2002::', 16],
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  refusedRanges.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:127.0.0.1, ::ffff:7f00:1), if any. */
function mappedIpv4(address: string): string | null {
  // The URL parser writes every form (0:0:0:0:0:ffff:127.0.0.1, ::FFFF:7F00:1) as ::ffff:7f00:1.
  const compressed = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!hex?.[1] || !hex[2]) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * True for addresses a user-given URL must not reach: loopback, private, link-local (169.254.169.254),
 * unique-local, multicast, unspecified, reserved, and IPv4-mapped forms of them. Anything that is
 * not an IP address counts as private.
 */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return true;
  if (family === 4) return refusedRanges.check(bare, 'ipv4');
  const mapped = mappedIpv4(bare);
  if (mapped) return refusedRanges.check(mapped, 'ipv4');
  return refusedRanges.check(bare, 'ipv6');
}

const refusedMessage = (host: string) => `Refusing to fetch ${host}: it is a private or local address.`;

/** Parses and checks a URL's form: http or https, no user name or password. */
export function parseFetchableUrl(address: string | URL): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new SafeFetchError('INVALID_URL', `Not a valid address: ${String(address).slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError('INVALID_URL', 'Only http and https addresses can be fetched.');
  }
  if (url.username || url.password) {
    throw new SafeFetchError('INVALID_URL', 'Addresses with a user name or password cannot be fetched.');
  }
  return url;
}

export function refusalRule(options: Pick<SafeFetchOptions, 'allowPrivate' | 'refuseAddress'>) {
  if (options.refuseAddress) return options.refuseAddress;
  if (options.allowPrivate) return () => false;
  return isPrivateAddress;
}

/** Resolves every address of the URL's host and refuses the URL when any of them is refused. */
export async function assertPublicAddress(
  url: URL,
  options: Pick<SafeFetchOptions, 'allowPrivate' | 'refuseAddress'> = {},
): Promise<void> {
  const refuse = refusalRule(options);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [host]
    : (await dns.promises.lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw new SafeFetchError('UNREACHABLE', `Could not resolve ${url.hostname}.`);
  if (addresses.some(refuse)) throw new SafeFetchError('REFUSED_ADDRESS', refusedMessage(url.hostname));
}

/** A DNS lookup for the socket that refuses the host when any of its addresses is refused. */
export function guardedLookup(refuse: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (addresses.length === 0) {
        return callback(
          Object.assign(new Error(`Could not resolve ${hostname}.`), { code: 'ENOTFOUND' }),
          '',
          0,
        );
      }
      if (addresses.some((a) => refuse(a.address))) {
        return callback(new SafeFetchError('REFUSED_ADDRESS', refusedMessage(hostname)), '', 0);
      }
      const first = addresses[0] as LookupAddress;
      // net asks for every address when it races IPv4 and IPv6 (autoSelectFamily).
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `address` under the rules above, following at most `maxRedirects` redirects, and returns the
 * body (at most `maxBytes`). Every failure is a SafeFetchError with a message a person can act on.
 */
export async function safeFetch(address: string | URL, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const refuse = refusalRule(options);
  const lookup = guardedLookup(refuse);
  const maxRedirects = options.maxRedirects ?? 5;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const timeoutError = () =>
    new SafeFetchError(
      'TIMEOUT',
      `The address did not answer within ${Math.round(timeoutMs / 1000)} seconds.`,
    );

  try {
    let url = parseFetchableUrl(address);
    for (let hop = 0; ; hop++) {
      // Literal IP addresses never reach the lookup, so they are checked here.
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && refuse(host))
        throw new SafeFetchError('REFUSED_ADDRESS', refusedMessage(url.hostname));

      let response: IncomingMessage;
      try {
        response = await requestOnce(url, {
          lookup,
          connectTimeoutMs,
          signal: controller.signal,
          accept: options.accept,
        });
      } catch (error) {
        if (error instanceof SafeFetchError) throw error;
        if (timedOut) throw timeoutError();
        throw new SafeFetchError('UNREACHABLE', `Could not reach ${url.hostname}.`, { cause: error });
      }

      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (redirectStatuses.has(status) && location) {
        response.resume();
        if (hop >= maxRedirects) {
          throw new SafeFetchError('TOO_MANY_REDIRECTS', `Too many redirects (more than ${maxRedirects}).`);
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new SafeFetchError('INVALID_URL', `${url.hostname} redirected to an invalid address.`);
        }
        next = parseFetchableUrl(next);
        options.checkRedirect?.(next, url);
        url = next;
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw new SafeFetchError('HTTP_ERROR', `${url.hostname} answered with HTTP ${status}.`, { status });
      }
      const contentType = String(response.headers['content-type'] ?? '');
      if (options.acceptContentType && !options.acceptContentType(contentType)) {
        response.destroy();
        throw new SafeFetchError(
          'UNSUPPORTED_TYPE',
          `The address answered with ${contentType.split(';')[0] || 'an unknown type'}, which cannot be read here.`,
        );
      }
      const tooLarge = () =>
        new SafeFetchError(
          'TOO_LARGE',
          `The answer is larger than ${(options.maxBytes / (1024 * 1024)).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB.`,
        );
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > options.maxBytes) {
        response.destroy();
        throw tooLarge();
      }
      const answeredBy = url.hostname;
      let size = 0;
      async function* bodyChunks() {
        try {
          for await (const chunk of response as AsyncIterable<Buffer>) {
            size += chunk.byteLength;
            if (size > options.maxBytes) throw tooLarge();
            yield chunk;
          }
        } catch (error) {
          if (error instanceof SafeFetchError) throw error;
          if (timedOut) throw timeoutError();
          throw new SafeFetchError('UNREACHABLE', `The connection to ${answeredBy} broke off.`, {
            cause: error,
          });
        } finally {
          // Also when the reader stopped early: the rest of the body is not wanted.
          response.destroy();
        }
      }
      if (options.readBody) {
        try {
          await options.readBody(bodyChunks());
        } finally {
          response.destroy();
        }
        return { url, status, headers: response.headers, contentType, body: Buffer.alloc(0) };
      }
      const chunks: Buffer[] = [];
      for await (const chunk of bodyChunks()) chunks.push(chunk);
      return { url, status, headers: response.headers, contentType, body: Buffer.concat(chunks) };
    }
  } finally {
    clearTimeout(timer);
  }
}

function requestOnce(
  url: URL,
  options: {
    lookup: LookupFunction;
    connectTimeoutMs: number;
    signal: AbortSignal;
    accept: string | undefined;
  },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'GET',
      lookup: options.lookup,
      // A fresh socket per request: a pooled one would skip the lookup, and with it the check.
      agent: false,
      signal: options.signal,
      headers: {
        accept: options.accept ?? '*/*',
        'user-agent': 'AltwiseBot/1.0 (+alt text for images)',
      },
    });
    request.once('socket', (socket) => {
      if (!socket.connecting) return;
      const connectTimer = setTimeout(
        () =>
          request.destroy(
            new SafeFetchError(
              'TIMEOUT',
              `Could not connect to ${url.hostname} within ${Math.round(options.connectTimeoutMs / 1000)} seconds.`,
            ),
          ),
        options.connectTimeoutMs,
      );
      socket.once('connect', () => clearTimeout(connectTimer));
      socket.once('close', () => clearTimeout(connectTimer));
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end();
  });
}
