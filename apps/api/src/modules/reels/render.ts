import sharp from 'sharp';

/** Portrait Full HD, what Reels, Shorts and TikTok show full screen. */
export const REEL_WIDTH = 1080;
export const REEL_HEIGHT = 1920;
export const REEL_FPS = 30;
/** Every image stays on screen at least this long. */
export const MIN_SECONDS_PER_IMAGE = 2;
/** The music decides the length up to this; more images than fit at 2 s each make it longer. */
export const MAX_MUSIC_DRIVEN_SECONDS = 30;
/** Fade from and to black at each image change, at most this long (and at most a quarter of a share). */
const MAX_IMAGE_FADE_SECONDS = 0.3;
/** The music fades out over the end of the video. */
const MAX_MUSIC_FADE_SECONDS = 1.5;

export type ReelPlan = {
  imageCount: number;
  framesPerImage: number;
  secondsPerImage: number;
  totalSeconds: number;
  imageFadeSeconds: number;
  musicFadeSeconds: number;
};

/**
 * The video lasts max(2 s × images, min(music, 30 s)), split equally between the images in whole
 * frames. Music shorter than that loops; longer music is cut.
 */
export function planReel(imageCount: number, musicSeconds: number | null): ReelPlan {
  if (imageCount < 1) throw new Error('A reel needs at least one image');
  const musicDriven = Math.min(musicSeconds ?? 0, MAX_MUSIC_DRIVEN_SECONDS);
  const wanted = Math.max(MIN_SECONDS_PER_IMAGE * imageCount, musicDriven);
  const framesPerImage = Math.max(
    MIN_SECONDS_PER_IMAGE * REEL_FPS,
    Math.round((wanted * REEL_FPS) / imageCount),
  );
  const secondsPerImage = framesPerImage / REEL_FPS;
  const totalSeconds = (framesPerImage * imageCount) / REEL_FPS;
  return {
    imageCount,
    framesPerImage,
    secondsPerImage,
    totalSeconds,
    imageFadeSeconds: Math.min(MAX_IMAGE_FADE_SECONDS, secondsPerImage / 4),
    musicFadeSeconds: Math.min(MAX_MUSIC_FADE_SECONDS, totalSeconds / 4),
  };
}

/**
 * Images larger than this many pixels are refused before decoding (a decompression bomb guard), the
 * engine's limit too (engines/prepare-image.ts): five of them may be decoded side by side.
 */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Turns any accepted image into a safe 1080×1920 JPEG: upright (EXIF), first frame only, the whole
 * picture fitted in the frame over a blurred, darkened copy of itself filling the rest. ffmpeg only ever sees these.
 * Throws sharp's error when the image does not decode.
 */
export async function normaliseImage(inputPath: string, outputPath: string): Promise<void> {
  // One decode: upright, first frame, fitted inside the frame (JPEGs shrink while decoding);
  // transparency goes on white, as logos and icons are drawn for a light page.
  const picture = await sharp(inputPath, { animated: false, limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize(REEL_WIDTH, REEL_HEIGHT, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: picture.info.width, height: picture.info.height, channels: picture.info.channels };
  // The backdrop: the picture cropped to fill, shrunk to a 20th, darkened; scaling it back up blurs it.
  const backdrop = await sharp(picture.data, { raw })
    .resize(REEL_WIDTH / 20, REEL_HEIGHT / 20, { fit: 'cover' })
    .modulate({ brightness: 0.5 })
    .blur(1.5)
    .raw()
    .toBuffer({ resolveWithObject: true });
  await sharp(backdrop.data, {
    raw: { width: backdrop.info.width, height: backdrop.info.height, channels: backdrop.info.channels },
  })
    .resize(REEL_WIDTH, REEL_HEIGHT, { kernel: 'cubic' })
    .composite([{ input: picture.data, raw, gravity: 'center' }])
    .flatten({ background: '#111111' })
    .jpeg({ quality: 90 })
    .toFile(outputPath);
}

export type EncoderSettings = {
  /** x264 preset: speed against file size at the same quality. */
  preset: string;
  crf: number;
  /** 0 lets ffmpeg and x264 choose. */
  threads: number;
};

/**
 * Measured on the 2-core reference machine (npm run bench:reel, ADR 017): superfast with the
 * still-image tune costs about a fifth less CPU than veryfast for the same crf, the file being
 * larger (~2.5 MB for 10 s instead of ~0.9 MB), which a download of a short reel can afford.
 */
export const defaultEncoderSettings: EncoderSettings = { preset: 'superfast', crf: 23, threads: 0 };

const seconds = (value: number) => value.toFixed(3);

/**
 * ffmpeg arguments for the reel: each normalised image decoded once and repeated for its share,
 * faded in from and out to black with `fade` (this build has no `xfade`), the shares concatenated;
 * the music looped (`-stream_loop -1`) and cut to the video's length, faded out at the end; H.264
 * yuv420p + AAC in an MP4 with the index first (`+faststart`) so it plays while downloading.
 */
export function buildRenderArgs(input: {
  imagePaths: string[];
  audioPath: string;
  outputPath: string;
  plan: ReelPlan;
  encoder?: EncoderSettings;
}): string[] {
  const { imagePaths, audioPath, outputPath, plan } = input;
  const encoder = input.encoder ?? defaultEncoderSettings;
  const fade = plan.imageFadeSeconds;
  const fadeOutStart = plan.secondsPerImage - fade;
  const args: string[] = ['-y', '-loglevel', 'info'];
  for (const imagePath of imagePaths) args.push('-framerate', String(REEL_FPS), '-i', imagePath);
  args.push('-stream_loop', '-1', '-i', audioPath);

  const chains = imagePaths.map((_, index) => {
    const fades = [
      // The first image starts on screen; the others come in from black.
      index > 0 ? `fade=t=in:st=0:d=${seconds(fade)}` : null,
      `fade=t=out:st=${seconds(fadeOutStart)}:d=${seconds(fade)}`,
    ].filter(Boolean);
    return (
      // Converted to yuv420p once, before the one decoded frame is repeated.
      `[${index}:v]format=yuv420p,loop=loop=${plan.framesPerImage - 1}:size=1:start=0,setpts=N/${REEL_FPS}/TB,` +
      `${fades.join(',')}[v${index}]`
    );
  });
  const joined = imagePaths.map((_, index) => `[v${index}]`).join('');
  chains.push(`${joined}concat=n=${imagePaths.length}:v=1:a=0[v]`);
  chains.push(
    `[${imagePaths.length}:a:0]atrim=0:${seconds(plan.totalSeconds)},asetpts=PTS-STARTPTS,` +
      `afade=t=out:st=${seconds(plan.totalSeconds - plan.musicFadeSeconds)}:d=${seconds(plan.musicFadeSeconds)}[a]`,
  );

  args.push(
    '-filter_complex',
    chains.join(';'),
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-c:v',
    'libx264',
    '-preset',
    encoder.preset,
    '-tune',
    'stillimage',
    '-crf',
    String(encoder.crf),
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(REEL_FPS),
    '-threads',
    String(encoder.threads),
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ar',
    '44100',
    '-ac',
    '2',
    '-t',
    seconds(plan.totalSeconds),
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    outputPath,
  );
  return args;
}
