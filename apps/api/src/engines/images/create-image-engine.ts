import { createOfflineImageEngine } from './offline-image-engine.ts';
import { createOpenAiImageEngine, type OpenAiImageOptions } from './openai-image-engine.ts';
import type { ImageEngine, ImageEngineName } from './types.ts';

export type ImageEngineConfig = { provider: ImageEngineName; openai: OpenAiImageOptions };

/** IMAGE_ENGINE picks the provider; offline is the default and needs nothing (ADR 016). */
export function createImageEngine(config: ImageEngineConfig): ImageEngine {
  return config.provider === 'openai' ? createOpenAiImageEngine(config.openai) : createOfflineImageEngine();
}
