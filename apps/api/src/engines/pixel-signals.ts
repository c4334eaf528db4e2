import type { PixelStats } from './image-stats.ts';
import { classifyKind } from './offline/compose.ts';
import type { PreparedImage } from './prepare-image.ts';
import type { ImageSignals } from './types.ts';

/**
 * The signals of an image that no model looked at (an answer from the page alone, or from a remote
 * model that reports no detections): size, format, kind from the pixels, colours and tone.
 */
export function pixelSignals(
  prepared: Pick<PreparedImage, 'original' | 'transparentShare'>,
  stats: PixelStats,
): Pick<
  ImageSignals,
  'width' | 'height' | 'format' | 'kind' | 'greyscale' | 'brightness' | 'colours' | 'objects' | 'faces'
> {
  const { width, height, format } = prepared.original;
  return {
    width,
    height,
    format,
    kind: classifyKind(
      {
        stats,
        ocr: { text: '', confidence: 0, words: 0, numbers: 0 },
        width,
        height,
        transparentShare: prepared.transparentShare,
      },
      '',
    ),
    greyscale: stats.greyscale,
    brightness: stats.brightness,
    colours: stats.colours,
    objects: [],
    faces: [],
  };
}
