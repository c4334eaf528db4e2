import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MAX_MUSIC_BYTES, MAX_REEL_IMAGE_BYTES } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { createReelFieldsSchema } from '@altwise/contracts/studio';
import { refuseUnstorableText } from '@altwise/contracts/text';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest, forbidden, notFound, unavailable, validationFailed } from '../../errors.ts';
import type { FilesService } from '../files/service.ts';
import { FfmpegError, parseDuration, parseProgressTime, runFfmpeg } from './ffmpeg.ts';
import { SNIFF_BYTES, sniffAudio, sniffImage } from './media-types.ts';
import type { ReelForm, ReelSource, UploadedFile } from './reel-form.ts';
import {
  buildRenderArgs,
  defaultEncoderSettings,
  type EncoderSettings,
  MAX_MUSIC_DRIVEN_SECONDS,
  normaliseImage,
  planReel,
  type ReelPlan,
} from './render.ts';
import { createRenderGate } from './render-gate.ts';

export type ReelsOptions = {
  files: FilesService;
  /** PUBLIC_URL: stored files are linked as `${publicUrl}/files/<key>`. */
  publicUrl: string;
  /** Each request works in its own directory under this one, removed when the request ends. */
  tempDir: string;
  /** ffmpeg processes at once (REEL_MAX_RENDERS). */
  maxRenders: number;
  /** Reels admitted beyond those, waiting for a slot; more get a 503. */
  maxWaiting: number;
  /** A render running longer is killed (REEL_RENDER_TIMEOUT_SECONDS). */
  renderTimeoutMs: number;
  encoder?: EncoderSettings;
  logger: FastifyBaseLogger;
};

export type RenderedReel = {
  video: Buffer;
  plan: ReelPlan;
  /** Milliseconds spent checking and normalising the inputs, waiting for a slot, and in ffmpeg. */
  timings: { prepareMs: number; waitMs: number; renderMs: number };
};

export type ReelsService = ReturnType<typeof createReelsService>;

const AUDIO_CHECK_TIMEOUT_MS = 20_000;
/** Work directories older than this are leftovers of a process that died mid-reel. */
const STALE_WORK_DIR_MS = 60 * 60 * 1000;

/** `${publicUrl}/files/<key>` or `/files/<key>` → the storage key; null for any other URL. */
export function storedFileKey(url: string, publicUrl: string): string | null {
  let pathname: string;
  if (url.startsWith('/files/')) pathname = url;
  else {
    let parsed: URL;
    let base: URL;
    try {
      parsed = new URL(url);
      base = new URL(publicUrl);
    } catch {
      return null;
    }
    if (parsed.origin !== base.origin) return null;
    const basePath = base.pathname.replace(/\/$/, '');
    if (!parsed.pathname.startsWith(`${basePath}/files/`)) return null;
    pathname = parsed.pathname.slice(basePath.length);
  }
  const encodedKey = pathname.split(/[?#]/)[0]?.slice('/files/'.length) ?? '';
  try {
    return encodedKey.split('/').map(decodeURIComponent).join('/') || null;
  } catch {
    return null;
  }
}

async function readHead(filePath: string): Promise<Uint8Array> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Reels (the product spec §7 POST /images/createReels): 1–5 images and a music file become a 1080×1920
 * H.264/AAC MP4. Every request works in its own temporary directory, removed whatever happens.
 */
export function createReelsService(options: ReelsOptions) {
  const { files, publicUrl, logger } = options;
  const gate = createRenderGate({
    maxRenders: options.maxRenders,
    maxWaiting: options.maxWaiting,
    retryAfterSeconds: 30,
  });

  /**
   * A killed process never reaches its `finally`: the first reel after a start removes work
   * directories left from before (only old ones, as another process may share DATA_DIR).
   */
  let sweptStale = false;
  async function sweepStaleWorkDirs(): Promise<void> {
    if (sweptStale) return;
    sweptStale = true;
    const entries = await readdir(options.tempDir).catch(() => []);
    for (const entry of entries) {
      if (!entry.startsWith('reel-')) continue;
      const dir = path.join(options.tempDir, entry);
      const info = await stat(dir).catch(() => null);
      if (info && Date.now() - info.mtimeMs > STALE_WORK_DIR_MS) {
        await rm(dir, { recursive: true, force: true }).catch(() => {});
        logger.warn({ dir }, 'removed a reel work directory left by an earlier process');
      }
    }
  }

  /** Copies the caller's own stored file named by `source.url` into `workDir`. */
  async function fetchStoredFile(
    userId: string,
    source: Extract<ReelSource, { kind: 'url' }>,
    workDir: string,
    fileName: string,
    maxBytes: number,
  ): Promise<UploadedFile> {
    const key = storedFileKey(source.url, publicUrl);
    if (!key)
      throw badRequest(
        `${source.name}: only images stored in Altwise (links to /files/…) or uploaded files can be used in a reel, not ${source.url.slice(0, 200)}`,
      );
    const record = await files.findFile(key);
    if (!record || (record.expiresAt && record.expiresAt.getTime() <= Date.now()))
      throw notFound(`${source.name}: the file ${source.url.slice(0, 200)} was not found`);
    if (record.ownerId !== userId)
      throw forbidden(`${source.name}: you can only use your own files in a reel`);
    if (record.sizeBytes > maxBytes)
      throw badRequest(
        maxBytes === MAX_MUSIC_BYTES ? messages.reel.musicTooLarge : messages.reel.imageTooLarge(source.name),
      );
    const stored = await files.openFile(key);
    if (!stored) throw notFound(`${source.name}: the file ${source.url.slice(0, 200)} was not found`);
    const filePath = path.join(workDir, fileName);
    await pipeline(stored.body, createWriteStream(filePath));
    return { kind: 'file', path: filePath, name: source.name, sizeBytes: stored.sizeBytes };
  }

  /** Music's length in seconds (null when unknown); 400 naming the file when it is not decodable audio. */
  async function checkAudio(audio: UploadedFile, signal?: AbortSignal): Promise<number | null> {
    const notAudio = () =>
      badRequest(
        `${audio.name} is not an audio file we can read. Use an MP3, WAV, M4A, OGG, FLAC or AAC file.`,
      );
    if (audio.sizeBytes === 0 || !sniffAudio(await readHead(audio.path))) throw notAudio();
    try {
      // Decoding the first seconds proves the file is audio ffmpeg can read, not just its header.
      const stderr = await runFfmpeg(
        ['-i', audio.path, '-map', '0:a:0', '-t', String(MAX_MUSIC_DRIVEN_SECONDS + 1), '-f', 'null', '-'],
        { timeoutMs: AUDIO_CHECK_TIMEOUT_MS, signal },
      );
      const decoded = parseProgressTime(stderr);
      if (decoded !== null && decoded <= 0) throw notAudio();
      return parseDuration(stderr) ?? decoded;
    } catch (error) {
      if (error instanceof FfmpegError && error.reason === 'failed') {
        logger.info(
          { file: audio.name, ffmpeg: error.stderrTail },
          'refused an audio file ffmpeg cannot decode',
        );
        throw notAudio();
      }
      throw error;
    }
  }

  async function prepareImage(image: UploadedFile, index: number, workDir: string): Promise<string> {
    const notImage = () =>
      badRequest(`${image.name} is not an image we can read. Use a JPEG, PNG, WebP, GIF or AVIF file.`);
    if (image.sizeBytes === 0 || !sniffImage(await readHead(image.path))) throw notImage();
    const output = path.join(workDir, `frame-${index}.jpg`);
    try {
      await normaliseImage(image.path, output);
    } catch (error) {
      logger.info({ file: image.name, err: error }, 'refused an image sharp cannot decode');
      throw notImage();
    }
    return output;
  }

  return {
    /**
     * Makes the reel. `readForm` receives the request's temporary directory and reads the upload
     * into it; everything there is removed before this returns or throws.
     */
    async createReel(
      userId: string,
      readForm: (workDir: string) => Promise<ReelForm>,
      signal?: AbortSignal,
    ): Promise<RenderedReel> {
      const leave = gate.admit();
      let workDir: string | undefined;
      try {
        await mkdir(options.tempDir, { recursive: true });
        await sweepStaleWorkDirs();
        workDir = await mkdtemp(path.join(options.tempDir, 'reel-'));
        const form = await readForm(workDir);

        const fields = refuseUnstorableText(createReelFieldsSchema).safeParse(form.fields);
        if (!fields.success)
          throw validationFailed(
            'Invalid reel fields',
            fields.error.issues.map((issue) => ({
              path: issue.path.join('.') || 'body',
              message: issue.message,
            })),
          );

        const dir = workDir;
        const audio =
          form.audio.kind === 'file'
            ? form.audio
            : await fetchStoredFile(userId, form.audio, dir, 'audio-linked', MAX_MUSIC_BYTES);
        const images: UploadedFile[] = [];
        for (const [index, source] of form.images.entries()) {
          images.push(
            source.kind === 'file'
              ? source
              : await fetchStoredFile(userId, source, dir, `image-linked-${index}`, MAX_REEL_IMAGE_BYTES),
          );
        }

        const preparing = performance.now();
        // The music check (ffmpeg) and the images (sharp's threads) run side by side; every one
        // settles before anything is reported, so nothing still writes into the directory being removed.
        const [[audioCheck], imageChecks] = await Promise.all([
          Promise.allSettled([checkAudio(audio, signal)]),
          Promise.allSettled(images.map((image, index) => prepareImage(image, index, dir))),
        ]);
        if (audioCheck?.status !== 'fulfilled') throw audioCheck?.reason;
        const musicSeconds = audioCheck.value;
        const frames: string[] = [];
        for (const check of imageChecks) {
          if (check.status === 'rejected') throw check.reason;
          frames.push(check.value);
        }

        const plan = planReel(frames.length, musicSeconds);
        const outputPath = path.join(dir, 'reel.mp4');
        const prepareMs = performance.now() - preparing;
        const waiting = performance.now();
        const release = await gate.acquire(signal);
        const waitMs = performance.now() - waiting;
        let renderMs = 0;
        try {
          const started = performance.now();
          await runFfmpeg(
            buildRenderArgs({
              imagePaths: frames,
              audioPath: audio.path,
              outputPath,
              plan,
              encoder: options.encoder ?? defaultEncoderSettings,
            }),
            { timeoutMs: options.renderTimeoutMs, signal },
          );
          renderMs = performance.now() - started;
          logger.info(
            { images: frames.length, seconds: plan.totalSeconds, prepareMs, waitMs, renderMs },
            'rendered a reel',
          );
        } catch (error) {
          if (error instanceof FfmpegError && error.reason === 'timeout')
            throw unavailable(
              'Making the reel took too long. Please try again with fewer images or shorter music.',
            );
          if (error instanceof FfmpegError)
            logger.error({ err: error, ffmpeg: error.stderrTail }, 'reel render failed');
          throw error;
        } finally {
          release();
        }
        return { video: await readFile(outputPath), plan, timings: { prepareMs, waitMs, renderMs } };
      } finally {
        // The work directory is gone before the reel stops counting as admitted.
        if (workDir)
          await rm(workDir, { recursive: true, force: true }).catch((error) =>
            logger.error({ err: error, workDir }, 'could not remove a reel work directory'),
          );
        leave();
      }
    },

    /** Seconds a caller refused with 503 should wait. */
    retryAfterSeconds: gate.retryAfterSeconds,

    /** For tests and health: how busy the renderer is. */
    stats: () => gate.stats(),
  };
}
