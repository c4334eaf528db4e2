/**
 * `npm run typecheck`: `tsc -p` on each TypeScript project, two at a time. One tsc is one thread,
 * so on a 2-core machine two at once finish in a little over half the serial time
 * (docs/benchmarks.md, "CI time"). Each project's output is printed whole when it ends, so two
 * projects' errors never interleave; the exit code is 1 when any project fails.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const tsc = join(root, 'node_modules', '.bin', 'tsc');

// Longest first, so that the short ones fill in beside them.
const projects = ['apps/api', 'apps/web', 'tests/e2e', 'apps/web/scripts', 'scripts', 'packages/contracts'];

function check(project: string): Promise<boolean> {
  return new Promise((done, reject) => {
    const started = performance.now();
    const child = spawn(tsc, ['-p', project], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`tsc -p ${project}: ${code === 0 ? 'ok' : 'FAILED'} (${seconds}s)\n${output}`);
      done(code === 0);
    });
  });
}

const width = Math.max(1, Math.min(2, availableParallelism()));
const queue = [...projects];
let failed = false;
await Promise.all(
  Array.from({ length: width }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      if (!(await check(project))) failed = true;
    }
  }),
);
process.exit(failed ? 1 : 0);
