import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capture, freePort, isRoot } from './run.ts';
import { installDebianPackages } from './system-packages.ts';

export type PostgresServer = { url: string; stop: () => Promise<void> };

function findPgBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

/** Postgres refuses to run as root, so as root the server runs as the postgres system user. */
async function asServerUser(bin: string, args: string[]): Promise<string> {
  return isRoot() ? capture('runuser', ['-u', 'postgres', '--', bin, ...args]) : capture(bin, args);
}

async function uidOf(user: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([capture('id', ['-u', user]), capture('id', ['-g', user])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/**
 * Gives the test suite a Postgres server: TEST_DATABASE_URL when set, else a throw-away cluster
 * started from Debian's postgresql package (installed first when missing).
 */
export async function startPostgres(): Promise<PostgresServer> {
  if (process.env.TEST_DATABASE_URL) {
    return { url: process.env.TEST_DATABASE_URL, stop: async () => {} };
  }
  let bin = findPgBin();
  if (!bin) {
    await installDebianPackages(['postgresql'], 'A PostgreSQL server for the Postgres API suite');
    bin = findPgBin();
  }
  if (!bin)
    throw new Error('PostgreSQL is still missing after installing it (looked in /usr/lib/postgresql).');

  const dir = mkdtempSync(join(tmpdir(), 'altwise-pg-'));
  if (isRoot()) {
    const { uid, gid } = await uidOf('postgres');
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const dataDir = join(dir, 'data');
  const port = await freePort();
  await asServerUser(join(bin, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  await asServerUser(join(bin, 'pg_ctl'), [
    '-D',
    dataDir,
    '-o',
    options,
    '-l',
    join(dir, 'server.log'),
    '-w',
    'start',
  ]);
  console.log(`[setup] PostgreSQL ${bin.split('/').at(-2)} started on 127.0.0.1:${port}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await asServerUser(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
