import { spawn } from 'node:child_process';
import { copyFile, cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import sharp from 'sharp';
import { runCli } from '../../bin/altwise-cli.ts';

/**
 * The CLI tests' static site: the committed HTML and Markdown of fixtures/static-site, with images
 * from fixtures/images and one image of text drawn here with sharp (what the offline OCR reads).
 */

export const bin = join(import.meta.dirname, '..', '..', 'bin', 'altwise.mjs');
const fixtures = join(import.meta.dirname, '..', 'fixtures');

/** Shown in opening-hours.png, and read back by the pixel check. */
export const openingHours = ['Open daily', '9 am to 5 pm'];

export async function drawOpeningHours(path: string): Promise<void> {
  const [first, second] = openingHours;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="120"><rect width="100%" height="100%" fill="#ffffff"/><text x="180" y="50" font-family="DejaVu Sans" font-weight="bold" font-size="30" fill="#111111" text-anchor="middle">${first}</text><text x="180" y="92" font-family="DejaVu Sans" font-size="26" fill="#111111" text-anchor="middle">${second}</text></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(path);
}

/** Copies the site into `dir` (which must not exist yet) and adds its images. */
export async function makeSite(dir: string): Promise<string> {
  await cp(join(fixtures, 'static-site'), dir, { recursive: true });
  await mkdir(join(dir, 'img'));
  for (const name of [
    'rocket.jpg',
    'coffee.jpg',
    'astronaut.jpg',
    'spacer.gif',
    'camera.jpg',
    'horse.webp',
    'chelsea.jpg',
  ])
    await copyFile(join(fixtures, 'images', name), join(dir, 'img', name));
  await drawOpeningHours(join(dir, 'img', 'opening-hours.png'));
  return dir;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real CLI in a child process (Node 24, as `altwise` runs it), with `input` piped to stdin. */
export function altwiseProcess(args: string[], options: { cwd: string; input?: string }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

function collect() {
  let text = '';
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** Runs wait for the one before: the working folder is the process's, one at a time. */
let previousRun: Promise<unknown> = Promise.resolve();

/**
 * The CLI in this process, as `altwise` runs it: the same entry (`runCli`) with `args`, the working
 * folder `cwd`, this process's environment, `input` as stdin, and stdout and stderr collected; the
 * exit code is what the process would exit with. Importing the CLI once instead of starting Node
 * for each run saves seconds a run (docs/benchmarks.md, "CI time"); `altwiseProcess` runs the real
 * binary.
 */
export function altwise(args: string[], options: { cwd: string; input?: string }): Promise<Run> {
  const run = previousRun.then(async () => {
    const stdout = collect();
    const stderr = collect();
    const input = options.input ? [Buffer.from(options.input)] : [];
    const home = process.cwd();
    process.chdir(options.cwd);
    try {
      const code = await runCli(args, {
        stdin: Readable.from(input),
        stdout: stdout.stream,
        stderr: stderr.stream,
        env: process.env,
      });
      return { code, stdout: stdout.text(), stderr: stderr.text() };
    } finally {
      process.chdir(home);
    }
  });
  previousRun = run.catch(() => undefined);
  return run;
}
