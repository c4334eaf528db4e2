import type { Quality } from '@altwise/contracts/limits';

/**
 * The image engine of the media studio (ADR 016): edits a picture from a plain-English
 * prompt and makes new pictures from a prompt. One interface, one file per provider
 * (docs/contributing.md, habit 7): `offline` (sharp, no network) and `openai` (any OpenAI-compatible images API).
 */

export type ImageEngineName = 'offline' | 'openai';

export interface EditedImage {
  /** The edited picture, PNG. */
  png: Buffer;
  /** What was done, in words ("black and white", "caption at the bottom: “Hello”"). */
  operations: string[];
}

export interface GeneratedImages {
  /** One PNG per requested image. */
  images: Buffer[];
  /** True when these are text slides rather than pictures (the offline engine). */
  typographic: boolean;
  /** A sentence for the person about what was made. */
  notice?: string;
}

export interface ImageEngine {
  readonly name: ImageEngineName;
  readonly model: string;
  /**
   * Checks a prompt before anything is charged and answers what the edit will do, in words.
   * Throws EditPromptError when the engine cannot carry out any of it.
   */
  planEdit(prompt: string): string[];
  editImage(image: Uint8Array, prompt: string, quality: Quality): Promise<EditedImage>;
  generateImages(prompt: string, count: number, quality: Quality): Promise<GeneratedImages>;
}

/** The prompt asks for nothing the engine can do; the message says what it can do (HTTP 422). */
export class EditPromptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EditPromptError';
  }
}
