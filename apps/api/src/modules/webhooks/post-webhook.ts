import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, parseFetchableUrl, refusalRule, SafeFetchError } from '../../net/safe-fetch.ts';

export type PostOutcome =
  /** The receiver answered (any status); only 2xx counts as delivered. Redirects are not followed. */
  | { ok: boolean; statusCode: number; error: string | null }
  /** No answer: refused address, unreachable, timeout. */
  | { ok: false; statusCode: null; error: string };

/**
 * POSTs one signed webhook under the scraping SSRF rules (net/safe-fetch.ts): http or https only,
 * every resolved address checked inside the socket's lookup (no DNS rebinding), literal private IPs
 * refused, no redirect followed (a 3xx is an answer, and not a success). The request and the answer's
 * status line have `timeoutMs`; the answer's body is not read (the connection is closed).
 */
export async function postWebhook(
  address: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<PostOutcome> {
  const refuse = refusalRule(options);
  let url: URL;
  try {
    url = parseFetchableUrl(address);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && refuse(host))
      throw new SafeFetchError(
        'REFUSED_ADDRESS',
        `Refusing to send to ${url.hostname}: it is a private or local address.`,
      );
  } catch (error) {
    return { ok: false, statusCode: null, error: (error as Error).message };
  }
  const seconds = Math.round(options.timeoutMs / 1000);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      lookup: guardedLookup(refuse),
      // A fresh socket per request: a pooled one would skip the lookup, and with it the check.
      agent: false,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Altwise-Webhooks/1.0',
      },
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, statusCode: null, error: `No answer within ${seconds} seconds.` });
    }, options.timeoutMs);
    request.once('response', (response) => {
      const statusCode = response.statusCode ?? 0;
      // The body is not needed: close the connection rather than let a receiver trickle it forever.
      response.destroy();
      const ok = statusCode >= 200 && statusCode < 300;
      const redirect = statusCode >= 300 && statusCode < 400;
      finish({
        ok,
        statusCode,
        error: ok
          ? null
          : redirect
            ? `Answered with HTTP ${statusCode}; redirects are not followed.`
            : `Answered with HTTP ${statusCode}.`,
      });
    });
    // `on`, not `once`: destroying the request can emit a second error, which must not go unhandled.
    request.on('error', (error) => {
      finish({
        ok: false,
        statusCode: null,
        error: error instanceof SafeFetchError ? error.message : `Could not reach ${url.hostname}.`,
      });
    });
    request.end(body);
  });
}
