import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { openDatabase } from '../../apps/api/src/db/client.ts';
import { users } from '../../apps/api/src/db/tables/users.ts';
import { createSessionTokens } from '../../apps/api/src/modules/accounts/session-tokens.ts';
import { grantCredits } from '../../apps/api/src/modules/credits/service.ts';

/**
 * The multi-process topology of ADR 033 on one machine, for the benches: API processes
 * (PROCESS_ROLE=api, src/server.ts) and worker processes (src/worker.ts) on one Postgres database,
 * a page of images and an OpenAI-compatible model server answering after a fixed latency. Every
 * server listens on 127.0.0.1 only; each process's output goes to a log file in a throw-away directory.
 */

const apiDir = join(import.meta.dirname, '..', '..', 'apps', 'api');

export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A page server: /img/{n}.png is a distinct 96×64 PNG for every n (made on request, then cached). */
export async function startImageServer() {
  const cache = new Map<number, Promise<Buffer>>();
  const png = (n: number) =>
    sharp({
      create: {
        width: 96,
        height: 64,
        channels: 3,
        background: { r: n % 256, g: Math.floor(n / 256) % 256, b: (n * 53) % 256 },
      },
    })
      .png()
      .toBuffer();
  return listen(async (req, res) => {
    const match = /^\/img\/(\d+)\.png(?:\?.*)?$/.exec(req.url ?? '');
    if (!match) return void res.writeHead(404).end();
    const n = Number(match[1]);
    const image = cache.get(n) ?? png(n);
    cache.set(n, image);
    res.writeHead(200, { 'content-type': 'image/png' }).end(await image);
  });
}

/** An OpenAI-compatible chat-completions server that answers every call after `latencyMs`. */
export async function startModelServer(latencyMs: number) {
  let completions = 0;
  const server = await listen((req, res) => {
    req.resume();
    req.on('end', async () => {
      await sleep(latencyMs);
      completions++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${completions}`,
          object: 'chat.completion',
          created: 0,
          model: 'bench-vision',
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: {
                role: 'assistant',
                content: JSON.stringify({
                  altText: `A colour swatch, number ${completions}.`,
                  decorative: false,
                }),
              },
            },
          ],
        }),
      );
    });
  });
  return { ...server, completions: () => completions };
}

export type AppProcess = {
  role: 'api' | 'worker';
  child: ChildProcess;
  log: string;
  stop: () => Promise<void>;
};

export type Cluster = {
  apiUrl: string;
  env: NodeJS.ProcessEnv;
  dir: string;
  api: AppProcess;
  startWorker: (name: string) => Promise<AppProcess>;
  stop: () => Promise<void>;
};

/** Resolves when `line` shows up in the process's output; rejects when it exits first. */
function waitForOutput(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 60_000) {
  return new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start in ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4096);
      if (pattern.test(seen)) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready:\n${seen}`));
    });
  });
}

/** Polls the API's health route until it answers 200 (at most a minute); fails if the process exits. */
async function waitForHealth(url: string, api: AppProcess) {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    if (api.child.exitCode !== null)
      throw new Error(`the API process exited (${api.child.exitCode}); see ${api.log}`);
    const ok = await fetch(url)
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(250);
  }
  throw new Error(`the API process was not healthy within a minute; see ${api.log}`);
}

function spawnApp(role: 'api' | 'worker', env: NodeJS.ProcessEnv, log: string): AppProcess {
  const script = role === 'api' ? 'src/server.ts' : 'src/worker.ts';
  const child = spawn(process.execPath, [script], {
    cwd: apiDir,
    env: { ...process.env, ...env, PROCESS_ROLE: role },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const file = createWriteStream(log);
  child.stdout.pipe(file);
  child.stderr.pipe(file);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    role,
    child,
    log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(killer);
      }
    },
  };
}

/**
 * One API process on `databaseUrl` (it applies the migrations), ready to start workers. The model
 * is the fake server at `modelUrl`; `env` adds to or overrides the defaults.
 */
export async function startCluster(options: {
  databaseUrl: string;
  modelUrl: string;
  env?: NodeJS.ProcessEnv;
}): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'altwise-cluster-'));
  const port = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const env: NodeJS.ProcessEnv = {
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: join(dir, 'data'),
    JWT_SECRET: randomBytes(48).toString('base64url'),
    FETCH_ALLOW_PRIVATE: 'true',
    ALT_TEXT_ENGINE: 'openai',
    OPENAI_BASE_URL: `${options.modelUrl}/v1`,
    OPENAI_API_KEY: 'bench',
    OPENAI_MODEL: 'bench-vision',
    ...options.env,
  };
  const api = spawnApp('api', env, join(dir, 'api.log'));
  await waitForHealth(`http://127.0.0.1:${port}/api/v1/health`, api);
  const workers: AppProcess[] = [];
  return {
    apiUrl: `http://127.0.0.1:${port}`,
    env,
    dir,
    api,
    async startWorker(name) {
      const worker = spawnApp('worker', env, join(dir, `${name}.log`));
      workers.push(worker);
      await waitForOutput(worker.child, /Altwise worker is running/, `worker ${name}`);
      return worker;
    },
    async stop() {
      await Promise.all(workers.map((w) => w.stop()));
      await api.stop();
      if (process.env.BENCH_KEEP_LOGS) console.log(`[logs] kept in ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A confirmed account with `credits` credits, made in the database; its Bearer header. */
export async function createBenchUser(cluster: Cluster, credits: number) {
  const handle = await openDatabase({ driver: 'postgres', url: String(cluster.env.DATABASE_URL) });
  try {
    const email = `bench-${randomUUID().slice(0, 8)}@example.com`;
    const [user] = await handle.db
      .insert(users)
      .values({
        email,
        username: email.split('@')[0] ?? 'bench',
        firstName: 'Bench',
        lastName: 'Mark',
        emailConfirmedAt: new Date(),
      })
      .returning();
    if (!user) throw new Error('no user');
    if (credits > 0)
      await handle.db.transaction((tx) => grantCredits(tx, user.id, credits, 'grant', 'bench-credits'));
    const sessions = createSessionTokens(String(cluster.env.JWT_SECRET), '2h');
    const token = await sessions.issue({ userId: user.id, sessionVersion: user.sessionVersion });
    return { id: user.id, headers: { authorization: `Bearer ${token}` } };
  } finally {
    await handle.close();
  }
}
