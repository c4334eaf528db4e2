import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { EngineInputError } from './errors.ts';

/**
 * Downloads an image by URL for the CLI (and any server code that needs the same guard): http
 * and https only, no private, loopback or link-local addresses unless allowed, a size cap, a
 * time limit, and every redirect checked again.
 */

export interface FetchImageOptions {
  allowPrivate?: boolean;
  maxBytes: number;
  timeoutMs?: number;
  maxRedirects?: number;
}

const privateRanges = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return privateRanges.check(mapped[1], 'ipv4');
    return privateRanges.check(address, 'ipv6');
  }
  return privateRanges.check(address, 'ipv4');
}

export async function assertPublicUrl(url: URL, allowPrivate = false): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EngineInputError('UNREADABLE_URL', 'Only http and https addresses can be fetched.');
  }
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true }).catch(() => []);
  if (addresses.length === 0)
    throw new EngineInputError('UNREADABLE_URL', `Could not resolve ${url.hostname}.`);
  if (addresses.some((a) => isPrivateAddress(a.address))) {
    throw new EngineInputError(
      'UNREADABLE_URL',
      `Refusing to fetch ${url.hostname}: it is a private or local address.`,
    );
  }
}

export async function fetchImage(
  address: string,
  options: FetchImageOptions,
): Promise<{ bytes: Uint8Array; url: URL }> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new EngineInputError('UNREADABLE_URL', `Not a valid address: ${address}`);
  }
  const signal = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  for (let hop = 0; hop <= (options.maxRedirects ?? 3); hop++) {
    await assertPublicUrl(url, options.allowPrivate);
    const response = await fetch(url, { redirect: 'manual', signal, headers: { accept: 'image/*' } }).catch(
      (error: unknown) => {
        throw new EngineInputError('UNREADABLE_URL', `Could not download ${url.href}.`, { cause: error });
      },
    );
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      continue;
    }
    if (!response.ok || !response.body) {
      throw new EngineInputError(
        'UNREADABLE_URL',
        `Downloading ${url.href} failed with HTTP ${response.status}.`,
      );
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > options.maxBytes)
      throw new EngineInputError('TOO_LARGE', 'The image is too large to download.');
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > options.maxBytes)
        throw new EngineInputError('TOO_LARGE', 'The image is too large to download.');
      chunks.push(chunk);
    }
    return { bytes: Buffer.concat(chunks), url };
  }
  throw new EngineInputError('UNREADABLE_URL', 'Too many redirects.');
}
