#!/usr/bin/env node
// Launcher for the altwise CLI. The CLI is TypeScript run by Node 24's type stripping; an npm bin
// shebang may find an older system node, so re-run with the repository's Node 24 when needed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const launcher = fileURLToPath(import.meta.url);
const here = dirname(launcher);
const major = Number(process.versions.node.split('.')[0]);

if (major >= 24) {
  // altwise-cli.ts only exports the CLI, so that tests can run it in their own process too.
  const { runCli } = await import(join(here, 'altwise-cli.ts'));
  const { processIo } = await import(join(here, 'cli-io.ts'));
  process.exitCode = await runCli(process.argv.slice(2), processIo());
} else {
  const node = findRepoNode(here);
  if (!node) {
    process.stderr.write(
      'altwise needs Node.js 24 or newer; run npm install at the repository root first.\n',
    );
    process.exit(1);
  }
  const result = spawnSync(node, [launcher, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

function findRepoNode(start) {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', 'node', 'bin', 'node');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
