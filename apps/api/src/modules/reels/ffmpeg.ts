import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * ffmpeg from the npm registry (@ffmpeg-installer/ffmpeg: a static build with libx264 and AAC), so
 * nothing is installed by hand. Its 2018 build has no `xfade` and there is no ffprobe: files are
 * inspected by reading what `ffmpeg -i` prints.
 */
const require = createRequire(import.meta.url);
export const ffmpegPath: string = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;

export type FfmpegFailureReason = 'failed' | 'timeout' | 'aborted';

export class FfmpegError extends Error {
  readonly reason: FfmpegFailureReason;
  /** What ffmpeg printed (bounded), for parsing and for the server log; never sent to a caller. */
  readonly stderr: string;

  constructor(reason: FfmpegFailureReason, message: string, stderr = '') {
    super(message);
    this.name = 'FfmpegError';
    this.reason = reason;
    this.stderr = stderr;
  }

  get stderrTail(): string {
    return this.stderr.slice(-2000);
  }
}

export type RunOptions = {
  /** Killed (SIGKILL) when it runs longer. */
  timeoutMs: number;
  /** Killed when this aborts (the client went away). */
  signal?: AbortSignal;
};

const MAX_STDERR_CHARS = 64 * 1024;

/** Runs ffmpeg with `args`; resolves with what it printed on stderr, rejects with an FfmpegError. */
export function runFfmpeg(args: string[], options: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new FfmpegError('aborted', 'ffmpeg was not started: the request was aborted'));
      return;
    }
    const child = spawn(ffmpegPath, ['-hide_banner', '-nostdin', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let stopped: FfmpegFailureReason | null = null;
    const stop = (reason: FfmpegFailureReason) => {
      if (stopped) return;
      stopped = reason;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = () => stop('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      // Keep the head (stream listing, durations) and the tail (the error), drop the progress lines.
      if (stderr.length > MAX_STDERR_CHARS * 2)
        stderr = `${stderr.slice(0, MAX_STDERR_CHARS)}\n…\n${stderr.slice(-MAX_STDERR_CHARS)}`;
    });
    const finish = (error: Error | null, code: number | null) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (stopped === 'timeout')
        reject(new FfmpegError('timeout', `ffmpeg took longer than ${options.timeoutMs} ms`, stderr));
      else if (stopped === 'aborted')
        reject(new FfmpegError('aborted', 'ffmpeg stopped: request aborted', stderr));
      else if (error) reject(new FfmpegError('failed', `ffmpeg could not start: ${error.message}`, stderr));
      else if (code !== 0) reject(new FfmpegError('failed', `ffmpeg exited with code ${code}`, stderr));
      else resolve(stderr);
    };
    child.once('error', (error) => finish(error, null));
    child.once('close', (code) => finish(null, code));
  });
}

const toSeconds = (hours: string, minutes: string, seconds: string) =>
  Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);

/** The `Duration: 00:00:03.02` line of `ffmpeg -i`, in seconds; null for N/A. */
export function parseDuration(stderr: string): number | null {
  const match = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  return match ? toSeconds(match[1] ?? '0', match[2] ?? '0', match[3] ?? '0') : null;
}

/** The last `time=00:00:03.02` progress figure: how much ffmpeg actually decoded. */
export function parseProgressTime(stderr: string): number | null {
  const matches = [...stderr.matchAll(/time=(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/g)];
  const last = matches.at(-1);
  return last ? toSeconds(last[1] ?? '0', last[2] ?? '0', last[3] ?? '0') : null;
}

export type StreamInfo = {
  video?: { codec: string; width: number; height: number; pixelFormat: string; fps: number | null };
  audio?: { codec: string; sampleRate: number | null; channels: string };
  durationSeconds: number | null;
};

/** Reads the first video and audio stream lines of `ffmpeg -i` output. */
export function parseStreams(stderr: string): StreamInfo {
  const info: StreamInfo = { durationSeconds: parseDuration(stderr) };
  const video = /Stream #\d+:\d+[^:]*: Video: (\w+)[^,]*, (\w+)[^,]*(?:\([^)]*\))?, (\d+)x(\d+)[^\n]*/.exec(
    stderr,
  );
  if (video) {
    const fps = /, ([\d.]+) fps/.exec(video[0]);
    info.video = {
      codec: video[1] ?? '',
      pixelFormat: video[2] ?? '',
      width: Number(video[3]),
      height: Number(video[4]),
      fps: fps ? Number(fps[1]) : null,
    };
  }
  const audio = /Stream #\d+:\d+[^:]*: Audio: (\w+)[^\n]*/.exec(stderr);
  if (audio) {
    const rate = /, (\d+) Hz/.exec(audio[0]);
    const channels = /Hz, ([\w.()]+)/.exec(audio[0]);
    info.audio = {
      codec: audio[1] ?? '',
      sampleRate: rate ? Number(rate[1]) : null,
      channels: channels?.[1] ?? '',
    };
  }
  return info;
}

/** What `ffmpeg -i file` prints (it always exits 1 without an output, so the exit code is ignored). */
export async function inspectMedia(file: string, options: RunOptions): Promise<StreamInfo> {
  try {
    return parseStreams(await runFfmpeg(['-i', file], options));
  } catch (error) {
    if (error instanceof FfmpegError && error.reason === 'failed') return parseStreams(error.stderr);
    throw error;
  }
}
