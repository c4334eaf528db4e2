import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FfmpegError,
  parseDuration,
  parseProgressTime,
  parseStreams,
  runFfmpeg,
} from '../src/modules/reels/ffmpeg.ts';
import { sniffAudio, sniffImage } from '../src/modules/reels/media-types.ts';
import { buildRenderArgs, normaliseImage, planReel } from '../src/modules/reels/render.ts';
import { createRenderGate } from '../src/modules/reels/render-gate.ts';
import { storedFileKey } from '../src/modules/reels/service.ts';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'altwise-reels-units-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('planReel', () => {
  it('gives each image an equal share of max(2 s × images, min(music, 30 s)) in whole frames', () => {
    expect(planReel(2, 3)).toMatchObject({ framesPerImage: 60, secondsPerImage: 2, totalSeconds: 4 });
    expect(planReel(5, 10)).toMatchObject({ framesPerImage: 60, totalSeconds: 10 });
    expect(planReel(3, 20)).toMatchObject({ framesPerImage: 200, totalSeconds: 20 });
    // Long music is cut at 30 s; unknown length falls back to the 2 s minimum.
    expect(planReel(1, 240)).toMatchObject({ framesPerImage: 900, totalSeconds: 30 });
    expect(planReel(4, null)).toMatchObject({ framesPerImage: 60, totalSeconds: 8 });
    expect(planReel(3, 10).framesPerImage).toBe(100);
  });

  it('keeps fades short and the music fade inside the video', () => {
    const plan = planReel(5, 10);
    expect(plan.imageFadeSeconds).toBeLessThanOrEqual(plan.secondsPerImage / 4);
    expect(plan.musicFadeSeconds).toBeLessThanOrEqual(plan.totalSeconds / 4);
    expect(() => planReel(0, 10)).toThrow();
  });

  it('builds one fade in/out chain per image, no xfade, and cuts the looped music to the video', () => {
    const args = buildRenderArgs({
      imagePaths: ['a.jpg', 'b.jpg'],
      audioPath: 'music.mp3',
      outputPath: 'out.mp4',
      plan: planReel(2, 3),
    });
    const graph = args[args.indexOf('-filter_complex') + 1] ?? '';
    expect(graph).not.toContain('xfade');
    expect(graph).toContain('fade=t=in');
    expect(graph).toContain('concat=n=2:v=1:a=0');
    expect(graph).toContain('atrim=0:4.000');
    expect(graph).toContain('afade=t=out');
    expect(args.join(' ')).toContain('-stream_loop -1 -i music.mp3');
    expect(args.join(' ')).toContain('-movflags +faststart');
    expect(args.join(' ')).toContain('-pix_fmt yuv420p');
  });
});

describe('sniffing', () => {
  const bytes = (...values: Array<number | string>) =>
    Buffer.concat(values.map((v) => (typeof v === 'string' ? Buffer.from(v, 'latin1') : Buffer.from([v]))));

  it('recognises the audio formats by their first bytes', () => {
    expect(sniffAudio(bytes('ID3', 4, 0, 0, 0, 0, 0))).toBe('mp3');
    expect(sniffAudio(bytes(0xff, 0xfb, 0x90, 0x64))).toBe('mp3');
    expect(sniffAudio(bytes(0xff, 0xf1, 0x50, 0x80))).toBe('aac');
    expect(sniffAudio(bytes('RIFF', 0, 0, 0, 0, 'WAVE'))).toBe('wav');
    expect(sniffAudio(bytes('OggS', 0))).toBe('ogg');
    expect(sniffAudio(bytes('fLaC', 0))).toBe('flac');
    expect(sniffAudio(bytes(0, 0, 0, 0x20, 'ftypM4A ', 0, 0, 0, 0))).toBe('m4a');
    expect(sniffAudio(bytes('<html><body>'))).toBeNull();
    expect(sniffAudio(bytes(0xff, 0xd8, 0xff, 0xe0))).toBeNull();
    expect(sniffAudio(bytes('RIFF', 0, 0, 0, 0, 'WEBP'))).toBeNull();
  });

  it('recognises the image formats by their first bytes', () => {
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0))).toBe('jpeg');
    expect(sniffImage(bytes('\x89PNG\r\n\x1a\n', 0, 0, 0, 0))).toBe('png');
    expect(sniffImage(bytes('RIFF', 0, 0, 0, 0, 'WEBP'))).toBe('webp');
    expect(sniffImage(bytes('GIF89a', 0, 0, 0, 0, 0, 0))).toBe('gif');
    expect(sniffImage(bytes(0, 0, 0, 0x1c, 'ftypavif', 0, 0, 0, 0, 'mif1'))).toBe('avif');
    expect(sniffImage(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffImage(bytes('ID3', 4, 0, 0, 0, 0, 0, 0, 0, 0, 0))).toBeNull();
  });
});

describe('storedFileKey', () => {
  const publicUrl = 'https://altwise.example';
  it('accepts links to this app’s /files/ only', () => {
    expect(storedFileKey('https://altwise.example/files/studio/2026-11/a.png', publicUrl)).toBe(
      'studio/2026-11/a.png',
    );
    expect(storedFileKey('/files/studio/2026-11/a.png?download=1', publicUrl)).toBe('studio/2026-11/a.png');
    expect(storedFileKey('https://altwise.example/files/a%20b.png', publicUrl)).toBe('a b.png');
    expect(storedFileKey('https://evil.example/files/studio/a.png', publicUrl)).toBeNull();
    expect(storedFileKey('http://altwise.example/files/studio/a.png', publicUrl)).toBeNull();
    expect(storedFileKey('https://altwise.example/api/v1/users', publicUrl)).toBeNull();
    expect(storedFileKey('file:///etc/passwd', publicUrl)).toBeNull();
    expect(storedFileKey('not a url', publicUrl)).toBeNull();
    expect(storedFileKey('/files/', publicUrl)).toBeNull();
  });
});

describe('createRenderGate', () => {
  it('lets maxRenders render, queues the next in order, and refuses beyond the waiting room', async () => {
    const gate = createRenderGate({ maxRenders: 1, maxWaiting: 1, retryAfterSeconds: 30 });
    const leaveA = gate.admit();
    const leaveB = gate.admit();
    expect(() => gate.admit()).toThrow(expect.objectContaining({ statusCode: 503 }));

    const releaseA = await gate.acquire();
    let bStarted = false;
    const b = gate.acquire().then((release) => {
      bStarted = true;
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(bStarted).toBe(false);
    releaseA();
    const releaseB = await b;
    expect(bStarted).toBe(true);
    releaseB();
    leaveA();
    leaveB();
    expect(gate.stats()).toEqual({ admitted: 0, rendering: 0, waiting: 0 });
  });

  it('drops a waiting reel whose request is aborted', async () => {
    const gate = createRenderGate({ maxRenders: 1, maxWaiting: 2, retryAfterSeconds: 30 });
    const release = await gate.acquire();
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal);
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(gate.stats().waiting).toBe(0);
    release();
    expect(gate.stats().rendering).toBe(0);
  });
});

describe('normaliseImage', () => {
  it('turns the picture upright by its EXIF orientation and fits it in 1080×1920', async () => {
    // A red landscape picture marked "rotate 90°": upright it is portrait and fills the frame's height.
    const input = path.join(scratch, 'rotated.jpg');
    await sharp({ create: { width: 400, height: 200, channels: 3, background: '#ff0000' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toFile(input);
    const output = path.join(scratch, 'frame.jpg');
    await normaliseImage(input, output);
    const { data, info } = await sharp(output).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 1080, height: 1920 });
    // Top middle: the picture itself (bright red), not the darkened backdrop.
    const topMiddle = (10 * info.width + info.width / 2) * info.channels;
    expect(data[topMiddle]).toBeGreaterThan(200);
    // Left edge, halfway down: the darker backdrop beside the portrait picture.
    const leftEdge = ((info.height / 2) * info.width + 5) * info.channels;
    expect(data[leftEdge]).toBeLessThan(170);
  });

  it('throws for bytes that only look like an image', async () => {
    const input = path.join(scratch, 'fake.png');
    await writeFile(input, Buffer.from('\x89PNG\r\n\x1a\nnot really'));
    await expect(normaliseImage(input, path.join(scratch, 'fake-frame.jpg'))).rejects.toThrow();
  });
});

describe('reading ffmpeg output', () => {
  const sample = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'reel.mp4':
  Duration: 00:00:10.02, start: 0.000000, bitrate: 1800 kb/s
    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 1080x1920, 1700 kb/s, 30 fps, 30 tbr, 15360 tbn, 60 tbc (default)
    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, stereo, fltp, 128 kb/s (default)
size=N/A time=00:00:03.50 bitrate=N/A
size=N/A time=00:00:10.01 bitrate=N/A`;

  it('finds the duration, streams and decoded time', () => {
    expect(parseDuration(sample)).toBeCloseTo(10.02);
    expect(parseProgressTime(sample)).toBeCloseTo(10.01);
    expect(parseStreams(sample)).toEqual({
      durationSeconds: 10.02,
      video: { codec: 'h264', pixelFormat: 'yuv420p', width: 1080, height: 1920, fps: 30 },
      audio: { codec: 'aac', sampleRate: 44100, channels: 'stereo' },
    });
    expect(parseDuration('Duration: N/A, bitrate: N/A')).toBeNull();
  });
});

describe('runFfmpeg', () => {
  // Ten minutes of generated video: it would run far past the test unless it is stopped.
  const endless = ['-f', 'lavfi', '-i', 'testsrc=size=1080x1920:rate=30:duration=600', '-f', 'null', '-'];

  it('kills ffmpeg at the time limit', async () => {
    const started = performance.now();
    const error = await runFfmpeg(endless, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FfmpegError);
    expect((error as FfmpegError).reason).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('kills ffmpeg when the request is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const error = await runFfmpeg(endless, { timeoutMs: 60_000, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect((error as FfmpegError).reason).toBe('aborted');
  });

  it('reports a failure with what ffmpeg printed', async () => {
    const error = await runFfmpeg(['-i', path.join(scratch, 'missing.mp3'), '-f', 'null', '-'], {
      timeoutMs: 10_000,
    }).catch((e: unknown) => e);
    expect((error as FfmpegError).reason).toBe('failed');
    expect((error as FfmpegError).stderr).toContain('No such file');
  });
});
