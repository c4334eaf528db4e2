import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { expect, it } from 'vitest';
import type { PreparedForEngine } from '../src/engines/types.ts';
import { RateLimiter, Semaphore } from '../src/lib/throttle.ts';
import type { FilesService } from '../src/modules/files/service.ts';
import { type DescribeDeps, describeOnce } from '../src/modules/generation/describe.ts';
import { createTestEngine } from './generation-helpers.ts';

const fixtures = path.resolve(import.meta.dirname, 'fixtures/images');

it('prepares the next image while the engine call holds the only slot', async () => {
  const bytes = await readFile(path.join(fixtures, 'rocket.jpg'));
  let open: () => void = () => {};
  const engine = createTestEngine({ gate: new Promise<void>((resolve) => (open = resolve)) });
  const steps: string[] = [];
  const withPrepare = {
    ...engine,
    async prepareImage(image: Uint8Array): Promise<PreparedForEngine> {
      steps.push('prepare');
      return {
        describe: (options) => {
          steps.push('call');
          return engine.describeImage(image, options);
        },
      };
    },
  };
  const deps: DescribeDeps = {
    engine: withPrepare,
    files: { openFile: async () => ({ body: Readable.from([bytes]) }) } as unknown as FilesService,
    fetch: { allowPrivate: false, timeoutMs: 1_000 } as DescribeDeps['fetch'],
    limiter: new RateLimiter(0),
    engineSlots: new Semaphore(1),
    logger: console as unknown as FastifyBaseLogger,
  };
  const image = (name: string) => ({ src: name, fileKey: name, context: { fileName: name } });

  const results = Promise.all([describeOnce(deps, image('a.jpg')), describeOnce(deps, image('b.jpg'))]);
  // One call holds the only slot and waits; the other image is prepared meanwhile, not after.
  await expect.poll(() => [...steps].sort()).toEqual(['call', 'prepare', 'prepare']);
  open();
  const [a, b] = await results;
  expect([...steps].sort()).toEqual(['call', 'call', 'prepare', 'prepare']);
  expect([a.altText, b.altText]).toEqual([
    expect.stringContaining('Test description of a.jpg'),
    expect.stringContaining('Test description of b.jpg'),
  ]);
});

it('tells the engine a remote image’s file name, and keeps a given one', async () => {
  const bytes = await readFile(path.join(fixtures, 'rocket.jpg'));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const seen: Array<string | undefined> = [];
    const engine = createTestEngine();
    const deps: DescribeDeps = {
      engine: {
        ...engine,
        describeImage: (image, options) => {
          seen.push(options?.context?.fileName);
          return engine.describeImage(image, options);
        },
      },
      files: {} as FilesService,
      fetch: { allowPrivate: true, timeoutMs: 5_000 } as DescribeDeps['fetch'],
      limiter: new RateLimiter(0),
      engineSlots: new Semaphore(1),
      logger: console as unknown as FastifyBaseLogger,
    };
    const src = `http://127.0.0.1:${port}/img/red-leather-handbag.jpg?w=800`;
    await describeOnce(deps, { src, fileKey: null, context: { pageTitle: 'Bags' } });
    await describeOnce(deps, { src, fileKey: null, context: { fileName: 'given.jpg' } });
    expect(seen).toEqual(['red-leather-handbag.jpg', 'given.jpg']);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
