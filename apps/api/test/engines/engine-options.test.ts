import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { engineOptionsFromEnv } from '../../src/engines/engine-options.ts';
import { fetchImage, isPrivateAddress } from '../../src/engines/fetch-image.ts';
import { writeDraft } from '../../src/engines/offline/draft-writer.ts';

describe('engine configuration', () => {
  it('defaults to the offline engine with safe limits', () => {
    const options = engineOptionsFromEnv({});
    expect(options).toMatchObject({
      provider: 'offline',
      defaultMaxLength: 125,
      defaultLanguage: 'en',
      offline: { workers: 1, maxQueue: 32, ocrMinConfidence: 70, ocrTimeoutMs: 3000 },
      limits: { maxInputPixels: 40_000_000, maxSide: 1024 },
    });
    expect(options.openai).toMatchObject({ model: 'gpt-4o-mini', timeoutMs: 30_000, maxRetries: 2 });
  });

  it('reads every variable', () => {
    const options = engineOptionsFromEnv({
      ALT_TEXT_ENGINE: 'openai',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_MODEL: 'llava',
      OPENAI_TIMEOUT_MS: '10000',
      OPENAI_MAX_RETRIES: '4',
      ENGINE_WORKERS: '2',
      ALT_TEXT_MAX_LENGTH: '150',
    });
    expect(options.provider).toBe('openai');
    expect(options.openai).toMatchObject({
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'llava',
      maxRetries: 4,
    });
    // Local servers take any key; the SDK needs one.
    expect(options.openai?.apiKey).toBe('not-needed');
    expect(options.offline.workers).toBe(2);
    expect(options.defaultMaxLength).toBe(150);
  });

  it('lists every bad field at once', () => {
    try {
      engineOptionsFromEnv({ ALT_TEXT_ENGINE: 'magic', ENGINE_WORKERS: '0', OPENAI_BASE_URL: 'not a url' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ZodError);
      const paths = (error as ZodError).issues.map((i) => i.path.join('.'));
      expect(paths).toEqual(expect.arrayContaining(['ALT_TEXT_ENGINE', 'ENGINE_WORKERS', 'OPENAI_BASE_URL']));
    }
  });

  it('requires a key for api.openai.com', () => {
    expect(() => engineOptionsFromEnv({ ALT_TEXT_ENGINE: 'openai' })).toThrow(/OPENAI_API_KEY/);
  });
});

describe('fetching images by URL', () => {
  it('knows private, loopback and link-local addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isPrivateAddress(address)).toBe(true);
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) {
      expect(isPrivateAddress(address)).toBe(false);
    }
  });

  it('refuses non-http schemes and private addresses unless told otherwise', async () => {
    await expect(fetchImage('file:///etc/passwd', { maxBytes: 1000 })).rejects.toThrow(/Only http and https/);
    await expect(fetchImage('http://127.0.0.1:9/x.png', { maxBytes: 1000 })).rejects.toThrow(
      /private or local/,
    );
    await expect(fetchImage('http://169.254.169.254/latest/meta-data', { maxBytes: 1000 })).rejects.toThrow(
      /private or local/,
    );
  });

  it('downloads from an allowed address, checks redirects and caps the size', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/image' });
        res.end();
      } else if (req.url === '/big') {
        res.end(Buffer.alloc(5000));
      } else {
        res.end(Buffer.from('image-bytes'));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { bytes, url } = await fetchImage(`${base}/redirect`, { maxBytes: 1000, allowPrivate: true });
      expect(Buffer.from(bytes).toString()).toBe('image-bytes');
      expect(url.pathname).toBe('/image');
      await expect(fetchImage(`${base}/big`, { maxBytes: 1000, allowPrivate: true })).rejects.toMatchObject({
        code: 'TOO_LARGE',
      });
    } finally {
      server.close();
    }
  });
});

describe('offline draft writer', () => {
  it('writes a structured blog draft that says it is a draft and invents no facts', () => {
    const draft = writeDraft('Write an informal blog post about technology: accessible images on the web');
    expect(draft).toMatch(/^# Accessible Images on the Web\n/);
    expect(draft).toContain('Draft written offline');
    expect(draft).toContain('Talk to the reader directly');
    expect(draft).not.toMatch(/\d+%/);
  });

  it('writes a caption with hashtags from the prompt', () => {
    expect(writeDraft('Instagram caption for a sunset over the harbour', { purpose: 'caption' })).toBe(
      'A sunset over the harbour\n\n#sunset #harbour',
    );
  });
});

describe('altwise CLI', () => {
  const bin = join(import.meta.dirname, '..', '..', 'bin', 'altwise.mjs');
  const run = promisify(execFile);

  it('describes a file and prints JSON with signals and timings', async () => {
    const { stdout } = await run(process.execPath, [
      bin,
      'describe',
      join(import.meta.dirname, '..', 'fixtures', 'images', 'sale-banner.png'),
      '--json',
    ]);
    const result = JSON.parse(stdout);
    expect(result.altText).toMatch(/Summer Sale/);
    expect(result.engine).toBe('offline');
    expect(result.signals.timingsMs.total).toBeGreaterThan(0);
  }, 60_000);

  it('prints usage and exits 2 without a target', async () => {
    const error = await run(process.execPath, [bin, 'describe']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(error).toMatchObject({ code: 2 });
    expect((error as { stderr: string }).stderr).toMatch(/Usage: altwise describe/);
  });
});
