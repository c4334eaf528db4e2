import type { Readable, Writable } from 'node:stream';

/**
 * What a command reads and writes besides its arguments and files: the process's own streams and
 * environment when it runs as `altwise`, others when a test runs it in the test's process. Paths
 * are resolved against the working folder, as a shell gives them.
 */
export interface CliIo {
  stdin: Readable;
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

export const processIo = (): CliIo => ({
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
