import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath, parseStreams } from '../src/modules/reels/ffmpeg.ts';
import { createUser } from './billing-helpers.ts';
import { buildTestApp, type TestApp } from './helper.ts';

const run = promisify(execFile);
const fixtures = path.join(import.meta.dirname, 'fixtures', 'images');
const fixture = (name: string) => readFile(path.join(fixtures, name));

let t: TestApp;
let scratch: string;
/** A 3-second 440 Hz tone as MP3 and WAV, made by ffmpeg for this test. */
let toneMp3: Buffer;
let toneWav: Buffer;

async function ffmpeg(args: string[]): Promise<string> {
  try {
    const { stderr } = await run(ffmpegPath, ['-hide_banner', '-nostdin', ...args], {
      maxBuffer: 16 * 1024 * 1024,
    });
    return stderr;
  } catch (error) {
    // `ffmpeg -i file` without an output exits 1 after printing what it found.
    const stderr = (error as { stderr?: string }).stderr;
    if (typeof stderr === 'string' && stderr.includes('Input #0')) return stderr;
    throw error;
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'altwise-reels-test-'));
  const mp3 = path.join(scratch, 'tone.mp3');
  const wav = path.join(scratch, 'tone.wav');
  await ffmpeg(['-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', mp3]);
  await ffmpeg(['-y', '-f', 'lavfi', '-i', 'sine=frequency=660:duration=3', wav]);
  toneMp3 = await readFile(mp3);
  toneWav = await readFile(wav);
  // What a process killed mid-reel leaves behind: removed by the first reel after a start.
  const crashed = path.join(t.config.reels.tempDir, 'reel-left-by-a-crash');
  await mkdir(crashed, { recursive: true });
  await writeFile(path.join(crashed, 'upload-1'), 'half an upload');
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  await utimes(crashed, twoHoursAgo, twoHoursAgo);
});
afterAll(async () => {
  await t.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

type Part =
  | { name: string; value: string }
  | { name: string; filename: string; contentType: string; data: Buffer | Uint8Array };

/** A multipart/form-data body, built by hand so each part is exactly what the test says. */
function multipart(parts: Part[]) {
  const boundary = `----altwise-reel-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if ('filename' in part) head += `; filename="${part.filename}"\r\nContent-Type: ${part.contentType}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`));
    chunks.push('filename' in part ? Buffer.from(part.data) : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const image = (filename: string, data: Buffer | Uint8Array, contentType = 'image/jpeg'): Part => ({
  name: 'images',
  filename,
  contentType,
  data,
});
const music = (filename: string, data: Buffer | Uint8Array, contentType = 'audio/mpeg'): Part => ({
  name: 'audioFile',
  filename,
  contentType,
  data,
});

function createReel(parts: Part[], headers: Record<string, string>) {
  const body = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/images/createReels',
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
}

/** What is left in the reels' scratch directory (each request's own directory must be gone). */
async function leftovers(): Promise<string[]> {
  return readdir(t.config.reels.tempDir).catch(() => []);
}

async function inspect(video: Buffer) {
  const file = path.join(scratch, `out-${Math.random().toString(16).slice(2)}.mp4`);
  await writeFile(file, video);
  return { file, info: parseStreams(await ffmpeg(['-i', file])) };
}

/** Mean loudness (dB) of the video's audio between `from` and `from + seconds`. */
async function meanVolume(file: string, from: number, seconds: number): Promise<number> {
  const stderr = await ffmpeg([
    '-ss',
    String(from),
    '-t',
    String(seconds),
    '-i',
    file,
    '-map',
    '0:a',
    '-af',
    'volumedetect',
    '-f',
    'null',
    '-',
  ]);
  const match = /mean_volume: (-?[\d.]+) dB/.exec(stderr);
  if (!match) throw new Error(`no volume in ${stderr.slice(-500)}`);
  return Number(match[1]);
}

describe('POST /images/createReels', () => {
  it('needs a signed-in user', async () => {
    const response = await createReel(
      [music('tone.mp3', toneMp3), image('astronaut.jpg', await fixture('astronaut.jpg'))],
      {},
    );
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('renders a 1080×1920 H.264/AAC MP4 at 30 fps, each image 2 s, the 3 s music looped to 4 s', async () => {
    const user = await createUser(t);
    const response = await createReel(
      [
        music('tone.mp3', toneMp3),
        image('astronaut.jpg', await fixture('astronaut.jpg')),
        image('horse.webp', await fixture('horse.webp'), 'image/webp'),
        { name: 'skipCaptioning', value: 'true' },
        { name: 'userId', value: user.id },
      ],
      user.auth,
    );
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.headers['content-disposition']).toBe('attachment; filename="reel.mp4"');

    const { file, info } = await inspect(response.rawPayload);
    expect(info.durationSeconds).toBeGreaterThan(3.9);
    expect(info.durationSeconds).toBeLessThan(4.2);
    expect(info.video).toMatchObject({
      codec: 'h264',
      pixelFormat: 'yuv420p',
      width: 1080,
      height: 1920,
      fps: 30,
    });
    expect(info.audio?.codec).toBe('aac');
    // The tone is 3 s long: sound after 3 s means it looped; the end fades out.
    expect(await meanVolume(file, 3.1, 0.3)).toBeGreaterThan(-30);
    expect(await meanVolume(file, 0.5, 1)).toBeGreaterThan(-30);
    // +faststart: the index (moov) comes before the media data (mdat).
    const video = response.rawPayload;
    expect(video.indexOf('moov')).toBeGreaterThan(0);
    expect(video.indexOf('moov')).toBeLessThan(video.indexOf('mdat'));
    // Its own work directory is gone, and so is the one an earlier crash left.
    expect(await leftovers()).toEqual([]);
  }, 60_000);

  it('takes images by the URL of the caller’s own stored files (absolute or /files/…), and WAV music', async () => {
    const user = await createUser(t);
    const stored = await t.app.deps.files.saveFile({
      body: await fixture('coffee.jpg'),
      contentType: 'image/jpeg',
      folder: 'studio',
      ownerId: user.id,
    });
    const relative = new URL(stored.url).pathname;
    const response = await createReel(
      [
        music('tone.wav', toneWav, 'audio/wav'),
        { name: 'images', value: stored.url },
        { name: 'images', value: relative },
      ],
      user.auth,
    );
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const { info } = await inspect(response.rawPayload);
    // Two images at the 2 s minimum: 4 s.
    expect(info.durationSeconds).toBeGreaterThan(3.9);
    expect(info.durationSeconds).toBeLessThan(4.2);
    expect(info.video).toMatchObject({ width: 1080, height: 1920 });
  }, 60_000);

  it('accepts M4A music with PNG and GIF images', async () => {
    const user = await createUser(t);
    const m4a = path.join(scratch, 'tone.m4a');
    await ffmpeg(['-y', '-f', 'lavfi', '-i', 'sine=frequency=550:duration=5', '-c:a', 'aac', m4a]);
    const response = await createReel(
      [
        music('tone.m4a', await readFile(m4a), 'audio/mp4'),
        image('logo.png', await fixture('logo.png'), 'image/png'),
        image('spacer.gif', await fixture('spacer.gif'), 'image/gif'),
      ],
      user.auth,
    );
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const { info } = await inspect(response.rawPayload);
    // 5 s of music for two images: 2.5 s each.
    expect(info.durationSeconds).toBeGreaterThan(4.9);
    expect(info.durationSeconds).toBeLessThan(5.2);
  }, 60_000);

  it('refuses a sixth image with 413 and the product spec message', async () => {
    const user = await createUser(t);
    const photo = await fixture('coffee.jpg');
    const response = await createReel(
      [music('tone.mp3', toneMp3), ...Array.from({ length: 6 }, (_, i) => image(`photo-${i}.jpg`, photo))],
      user.auth,
    );
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ message: 'Maximum 5 images allowed', code: 'PAYLOAD_TOO_LARGE' });
    expect(await leftovers()).toEqual([]);
  });

  it('refuses an image over 10 MB by name, and music over 10 MB, with 413', async () => {
    const user = await createUser(t);
    const huge = Buffer.alloc(11 * 1024 * 1024, 7);
    huge.set([0xff, 0xd8, 0xff, 0xe0]);
    const tooBigImage = await createReel([music('tone.mp3', toneMp3), image('holiday.jpg', huge)], user.auth);
    expect(tooBigImage.statusCode).toBe(413);
    expect(tooBigImage.json()).toMatchObject({ message: 'holiday.jpg is larger than 10MB' });

    const tooBigMusic = await createReel(
      [music('long.mp3', Buffer.concat([toneMp3, huge])), image('coffee.jpg', await fixture('coffee.jpg'))],
      user.auth,
    );
    expect(tooBigMusic.statusCode).toBe(413);
    expect(tooBigMusic.json()).toMatchObject({ message: 'Music file should be less than 10MB' });
    expect(await leftovers()).toEqual([]);
  });

  it('refuses music that is not audio by its bytes (415) or that ffmpeg cannot decode (400), naming the file', async () => {
    const user = await createUser(t);
    const photo = await fixture('coffee.jpg');
    // A photo named like a song, text, and an MP3 header followed by garbage that ffmpeg cannot decode.
    for (const [filename, data, status] of [
      ['song.mp3', photo, 415],
      ['notes.mp3', Buffer.from('just some text, not music\n'.repeat(20)), 415],
      ['broken.mp3', Buffer.concat([Buffer.from('ID3'), Buffer.alloc(4000, 0x41)]), 400],
      ['empty.mp3', Buffer.alloc(0), 415],
    ] as const) {
      const response = await createReel([music(filename, data), image('coffee.jpg', photo)], user.auth);
      expect(response.statusCode, filename).toBe(status);
      expect(response.json().message).toContain(filename);
    }
    expect(await leftovers()).toEqual([]);
  });

  it('refuses images that are not images by their bytes (415) or that sharp cannot decode (400), naming the file', async () => {
    const user = await createUser(t);
    const photo = await fixture('coffee.jpg');
    for (const [filename, data, status] of [
      ['not-an-image.png', await fixture('not-an-image.png'), 415],
      // A real JPEG start, cut off: the magic bytes pass, sharp does not.
      ['cut.jpg', photo.subarray(0, 300), 400],
      ['tone.jpg', toneMp3, 415],
    ] as const) {
      const response = await createReel(
        [music('tone.mp3', toneMp3), image('coffee.jpg', photo), image(filename, data)],
        user.auth,
      );
      expect(response.statusCode, filename).toBe(status);
      expect(response.json().message).toContain(filename);
    }
    expect(await leftovers()).toEqual([]);
  });

  it('needs at least one image and the music', async () => {
    const user = await createUser(t);
    const noImages = await createReel(
      [music('tone.mp3', toneMp3), { name: 'skipCaptioning', value: 'true' }],
      user.auth,
    );
    expect(noImages.statusCode).toBe(400);
    expect(noImages.json().message).toMatch(/at least one image/i);

    const noMusic = await createReel([image('coffee.jpg', await fixture('coffee.jpg'))], user.auth);
    expect(noMusic.statusCode).toBe(400);
    expect(noMusic.json().message).toMatch(/music/i);
  });

  it('uses only the caller’s own stored files, never other URLs, and only for the caller', async () => {
    const owner = await createUser(t);
    const intruder = await createUser(t);
    const stored = await t.app.deps.files.saveFile({
      body: await fixture('rocket.jpg'),
      contentType: 'image/jpeg',
      folder: 'studio',
      ownerId: owner.id,
    });
    const withImage = (value: string) => [music('tone.mp3', toneMp3), { name: 'images', value }];

    const someoneElses = await createReel(withImage(stored.url), intruder.auth);
    expect(someoneElses.statusCode).toBe(403);

    const missing = await createReel(withImage('/files/studio/2026-01/nothing-here.jpg'), intruder.auth);
    expect(missing.statusCode).toBe(404);

    const elsewhere = await createReel(withImage('https://example.com/cat.jpg'), intruder.auth);
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().message).toContain('https://example.com/cat.jpg');

    const otherUserId = await createReel(
      [...withImage(stored.url), { name: 'userId', value: intruder.id }],
      owner.auth,
    );
    expect(otherUserId.statusCode).toBe(403);
    expect(await leftovers()).toEqual([]);
  });

  it('stops the render and removes its files when the client goes away', async () => {
    const user = await createUser(t);
    // 30 s of music and five images: a render of several seconds, cut short by the client.
    const longTone = path.join(scratch, 'long.mp3');
    await ffmpeg(['-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=30', longTone]);
    const photo = await fixture('coffee.jpg');
    const body = multipart([
      music('long.mp3', await readFile(longTone)),
      ...Array.from({ length: 5 }, (_, i) => image(`photo-${i}.jpg`, photo)),
    ]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const request = http.request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/api/v1/images/createReels',
      headers: { ...user.auth, 'content-type': body.contentType, 'content-length': body.payload.length },
    });
    request.on('error', () => {});
    request.end(body.payload);

    // Wait until ffmpeg is rendering, then hang up.
    const until = async (done: () => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      return done();
    };
    expect(await until(() => t.app.deps.reels.stats().rendering === 1, 15_000)).toBe(true);
    const hungUp = Date.now();
    request.destroy();
    expect(await until(() => t.app.deps.reels.stats().admitted === 0, 5_000)).toBe(true);
    // Well before the render could have finished on its own.
    expect(Date.now() - hungUp).toBeLessThan(3_000);
    expect(await leftovers()).toEqual([]);
  }, 60_000);
});
