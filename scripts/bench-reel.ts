/**
 * Reel benchmark: a 5-image reel with a 10 s track through the whole HTTP stack (app.inject on
 * POST /api/v1/images/createReels), BENCH_ROUNDS times (default 3). Prints each round's wall time
 * with the server's own split (checking and normalising the inputs, ffmpeg), the CPU time spent
 * (this process's sharp and Node work, and the ffmpeg children's) and the load average, so a
 * result taken on a busy machine can be told apart; then the median.
 *   npm run bench:reel
 *   BENCH_MUSIC_SECONDS=30 npm run bench:reel   (the longest reel music makes: 30 s)
 *   npm run bench:reel -- --json                 (last line: one JSON object)
 * Target on the 2-core reference machine: ≤ 10 s per reel.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath, parseStreams } from '../apps/api/src/modules/reels/ffmpeg.ts';
import { createUser } from '../apps/api/test/billing-helpers.ts';
import { buildTestApp } from '../apps/api/test/helper.ts';
import { printBenchJson, round } from './lib/bench-json.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/** BENCH_MUSIC_SECONDS=30 measures the longest reel the music can ask for. */
const musicSeconds = Number(process.env.BENCH_MUSIC_SECONDS ?? 10);
const targetMs = 10_000;
const fixtures = path.resolve(import.meta.dirname, '../apps/api/test/fixtures/images');
const photos = ['astronaut.jpg', 'coffee.jpg', 'chelsea.jpg', 'rocket.jpg', 'horse.webp'];
const run = promisify(execFile);

/** CPU seconds of this process and of its finished children (ffmpeg), from /proc on Linux. */
async function cpuSeconds(): Promise<{ self: number; children: number }> {
  const self = process.cpuUsage();
  const stat = await readFile('/proc/self/stat', 'utf8').catch(() => '');
  // Fields after the command name: cutime and cstime are the 14th and 15th, in clock ticks (100/s).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const children = (Number(fields[13] ?? 0) + Number(fields[14] ?? 0)) / 100;
  return { self: (self.user + self.system) / 1e6, children };
}

const scratch = await mkdtemp(path.join(os.tmpdir(), 'altwise-bench-reel-'));
const t = await buildTestApp();
try {
  // A chord (10 s by default) as a 192 kb/s MP3, like a short music clip.
  const track = path.join(scratch, 'track.mp3');
  await run(ffmpegPath, [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=220:duration=${musicSeconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=330:duration=${musicSeconds}`,
    '-filter_complex',
    'amix=inputs=2',
    '-b:a',
    '192k',
    track,
  ]);
  const user = await createUser(t);
  const boundary = '----altwise-bench-reel';
  const parts: Buffer[] = [];
  const addFile = (name: string, filename: string, contentType: string, data: Buffer) => {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
      ),
      data,
      Buffer.from('\r\n'),
    );
  };
  addFile('audioFile', 'track.mp3', 'audio/mpeg', await readFile(track));
  for (const photo of photos)
    addFile(
      'images',
      photo,
      photo.endsWith('.webp') ? 'image/webp' : 'image/jpeg',
      await readFile(path.join(fixtures, photo)),
    );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="skipCaptioning"\r\n\r\ntrue\r\n--${boundary}--\r\n`,
    ),
  );
  const payload = Buffer.concat(parts);

  console.log(
    `Reel benchmark: ${photos.length} images, ${musicSeconds} s music, ${os.cpus().length} cores, ${rounds} rounds`,
  );
  const samples: number[] = [];
  let lastReel = { bytes: 0, seconds: Number.NaN };
  for (let round = 1; round <= rounds; round++) {
    const cpuBefore = await cpuSeconds();
    const started = performance.now();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/createReels',
      headers: { ...user.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    const ms = performance.now() - started;
    const cpuAfter = await cpuSeconds();
    if (response.statusCode !== 200)
      throw new Error(`HTTP ${response.statusCode}: ${response.body.slice(0, 300)}`);
    samples.push(ms);
    const output = path.join(scratch, `reel-${round}.mp4`);
    await writeFile(output, response.rawPayload);
    const probe = await run(ffmpegPath, ['-hide_banner', '-i', output]).catch(
      (error: { stderr?: string }) => ({ stderr: error.stderr ?? '' }),
    );
    const info = parseStreams(probe.stderr);
    lastReel = { bytes: response.rawPayload.length, seconds: info.durationSeconds ?? Number.NaN };
    console.log(
      `  round ${round}: ${(ms / 1000).toFixed(2)} s  (server ${response.headers['server-timing']}; ` +
        `CPU ${(cpuAfter.self - cpuBefore.self).toFixed(2)} s node+sharp, ${(cpuAfter.children - cpuBefore.children).toFixed(2)} s ffmpeg; ` +
        `load ${os.loadavg()[0]?.toFixed(1)})  → ` +
        `${info.durationSeconds?.toFixed(2)} s ${info.video?.width}x${info.video?.height} ${info.video?.codec} ` +
        `${info.video?.fps} fps + ${info.audio?.codec}, ${(response.rawPayload.length / 1024 / 1024).toFixed(1)} MB`,
    );
  }
  const median = [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
  console.log(
    `median ${(median / 1000).toFixed(2)} s  (target ≤ ${targetMs / 1000} s: ${median <= targetMs ? 'met' : 'MISSED'})`,
  );
  printBenchJson('reel', {
    medianSeconds: round(median / 1000, 2),
    outputMb: round(lastReel.bytes / 1024 / 1024, 2),
    reelSeconds: round(lastReel.seconds, 2),
    rounds,
    musicSeconds,
    loadAverage: round(os.loadavg()[0] ?? Number.NaN, 2),
  });
} finally {
  await t.cleanup();
  await rm(scratch, { recursive: true, force: true });
}
