/**
 * `npm run dev`: the API with --watch on :3000 and Vite's dev server on :5173 (which proxies
 * /api and /files to the API). Ctrl-C stops both.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [
  spawn(process.execPath, ['--watch', join(root, 'apps/api/src/server.ts')], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development', SERVE_WEB: 'false' },
  }),
  spawn('npm', ['run', 'dev', '-w', '@altwise/web'], { stdio: 'inherit', cwd: root }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
