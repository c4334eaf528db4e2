import { Semaphore } from '../../lib/throttle.ts';
import { applyEdits } from './apply-edits.ts';
import { describeStep, parseEditInstructions } from './edit-instructions.ts';
import type { ImageEngine } from './types.ts';
import { renderTypographicSlides } from './typographic-slides.ts';

export const OFFLINE_IMAGE_MODEL = 'altwise-sharp-editor-1';

export const TYPOGRAPHIC_NOTICE =
  'These are text slides: no image model is configured, so your prompt was set in type on a designed background. Set IMAGE_ENGINE=openai to generate pictures.';

/**
 * The embedded image engine (ADR 016): edits with sharp from the instructions it can parse, and
 * renders text slides instead of pretending to paint. Quality changes nothing here; the price is
 * the product's.
 */
export function createOfflineImageEngine(options: { maxConcurrent?: number } = {}): ImageEngine {
  // An edit of a 40-megapixel photo holds a few hundred MB in libvips: two at a time per process,
  // the others wait their turn (the request is already paid for and stays open).
  const gate = new Semaphore(options.maxConcurrent ?? 2);
  return {
    name: 'offline',
    model: OFFLINE_IMAGE_MODEL,
    planEdit(prompt) {
      return parseEditInstructions(prompt).map(describeStep);
    },
    async editImage(image, prompt) {
      const steps = parseEditInstructions(prompt);
      const release = await gate.acquire();
      try {
        return { png: await applyEdits(image, steps), operations: steps.map(describeStep) };
      } finally {
        release();
      }
    },
    async generateImages(prompt, count) {
      const release = await gate.acquire();
      try {
        return {
          images: await renderTypographicSlides(prompt, count),
          typographic: true,
          notice: TYPOGRAPHIC_NOTICE,
        };
      } finally {
        release();
      }
    },
  };
}
