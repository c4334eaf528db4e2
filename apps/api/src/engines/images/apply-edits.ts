import sharp, { type Sharp } from 'sharp';
import { EngineInputError } from '../errors.ts';
import { type EditStep, MAX_RESIZE_SIDE, type Strength } from './edit-instructions.ts';
import { captionBandSvg } from './svg-text.ts';

/**
 * Carries out parsed edit steps with sharp, one after the other in the order the prompt gave
 * them. Between steps the picture stays as raw RGBA pixels, so every step sees the size the
 * previous one left (a crop after a rotation crops the rotated picture). The result is a PNG.
 */

type Raw = { data: Buffer; width: number; height: number };

export const EDITOR_MAX_INPUT_PIXELS = 40_000_000;

const luminance = [0.2126, 0.7152, 0.0722];
const sepia = [
  [0.393, 0.769, 0.189],
  [0.349, 0.686, 0.168],
  [0.272, 0.534, 0.131],
];

const amount = (strength: Strength, slight: number, normal: number, strong: number) =>
  strength === 'slight' ? slight : strength === 'strong' ? strong : normal;

function load(raw: Raw): Sharp {
  return sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } });
}

async function toRaw(image: Sharp): Promise<Raw> {
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`expected 4 channels, got ${info.channels}`);
  return { data, width: info.width, height: info.height };
}

async function applyStep(raw: Raw, step: EditStep): Promise<Raw> {
  const { width, height } = raw;
  switch (step.kind) {
    case 'greyscale':
      return toRaw(load(raw).recomb([luminance, luminance, luminance] as never));
    case 'sepia':
      return toRaw(load(raw).recomb(sepia as never));
    case 'invert':
      return toRaw(load(raw).negate({ alpha: false }));
    case 'blur':
      return toRaw(
        load(raw).blur(amount(step.strength, 1.5, 4, 10) * Math.max(1, Math.min(width, height) / 1000)),
      );
    case 'sharpen':
      return toRaw(
        load(raw).sharpen({
          sigma: amount(step.strength, 0.8, 1.5, 2.5),
          m2: amount(step.strength, 2, 3, 6),
        }),
      );
    case 'brightness': {
      const change = amount(step.strength, 0.12, 0.25, 0.5);
      return toRaw(
        load(raw).modulate({ brightness: step.direction === 'up' ? 1 + change : 1 - change * 0.8 }),
      );
    }
    case 'contrast': {
      const change = amount(step.strength, 0.15, 0.3, 0.6);
      const a = step.direction === 'up' ? 1 + change : 1 - change * 0.7;
      const b = 128 * (1 - a);
      return toRaw(load(raw).linear([a, a, a, 1], [b, b, b, 0]));
    }
    case 'saturation': {
      const change = amount(step.strength, 0.2, 0.45, 0.9);
      return toRaw(
        load(raw).modulate({ saturation: step.direction === 'up' ? 1 + change : 1 - change * 0.8 }),
      );
    }
    case 'temperature': {
      const change = amount(step.strength, 0.05, 0.1, 0.2);
      const [r, b] = step.direction === 'warmer' ? [1 + change, 1 - change] : [1 - change, 1 + change];
      return toRaw(load(raw).linear([r, 1, b, 1], [0, 0, 0, 0]));
    }
    case 'rotate':
      return toRaw(load(raw).rotate(step.degrees));
    case 'flip':
      return toRaw(step.axis === 'vertical' ? load(raw).flip() : load(raw).flop());
    case 'crop': {
      const [rw, rh] = step.ratio;
      let cropWidth = width;
      let cropHeight = Math.round((width * rh) / rw);
      if (cropHeight > height) {
        cropHeight = height;
        cropWidth = Math.round((height * rw) / rh);
      }
      cropWidth = Math.max(1, Math.min(width, cropWidth));
      cropHeight = Math.max(1, Math.min(height, cropHeight));
      return toRaw(
        load(raw).extract({
          left: Math.floor((width - cropWidth) / 2),
          top: Math.floor((height - cropHeight) / 2),
          width: cropWidth,
          height: cropHeight,
        }),
      );
    }
    case 'resize': {
      let target: { width?: number; height?: number; fit?: 'inside' };
      if (step.percent !== undefined) {
        const scale = step.percent / 100;
        target = {
          width: Math.max(1, Math.round(width * scale)),
          height: Math.max(1, Math.round(height * scale)),
        };
      } else if (step.width && step.height)
        target = { width: step.width, height: step.height, fit: 'inside' };
      else target = step.width ? { width: step.width } : { height: step.height ?? height };
      const longest = Math.max(
        target.width ?? 0,
        target.height ?? 0,
        target.width && !target.height ? Math.round((height * target.width) / width) : 0,
        target.height && !target.width ? Math.round((width * target.height) / height) : 0,
      );
      if (longest > MAX_RESIZE_SIDE || longest < 1) {
        throw new EngineInputError(
          'TOO_LARGE',
          `The resized image would be ${longest} pixels on its longest side; the editor makes images up to ${MAX_RESIZE_SIDE} pixels.`,
        );
      }
      return toRaw(load(raw).resize({ ...target, kernel: 'lanczos3' }));
    }
    case 'caption': {
      const overlay = captionBandSvg(step.text, { width, height, position: step.position });
      return toRaw(load(raw).composite([{ input: overlay, top: 0, left: 0 }]));
    }
    case 'border': {
      const size = Math.max(
        2,
        Math.round(Math.min(width, height) * amount(step.strength, 0.015, 0.04, 0.08)),
      );
      return toRaw(
        load(raw).extend({
          top: size,
          bottom: size,
          left: size,
          right: size,
          background: { ...step.colour, alpha: 1 },
        }),
      );
    }
  }
}

/** Decodes the upload (upright, first frame), runs the steps and encodes a PNG. */
export async function applyEdits(input: Uint8Array, steps: EditStep[]): Promise<Buffer> {
  let raw: Raw;
  try {
    raw = await toRaw(
      sharp(input, { limitInputPixels: EDITOR_MAX_INPUT_PIXELS, failOn: 'error', pages: 1 })
        .rotate()
        .toColourspace('srgb'),
    );
  } catch (error) {
    throw new EngineInputError(
      'NOT_AN_IMAGE',
      'The image could not be read; it may be damaged or too large.',
      {
        cause: error,
      },
    );
  }
  for (const step of steps) raw = await applyStep(raw, step);
  return load(raw).png({ compressionLevel: 6 }).toBuffer();
}
