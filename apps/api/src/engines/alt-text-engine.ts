import type { EngineOptions } from './engine-options.ts';
import { createOfflineEngine } from './offline/offline-engine.ts';
import { createOpenAiEngine } from './openai/openai-engine.ts';
import type { AltTextEngine } from './types.ts';

/** Chooses the provider from configuration. Every result records the engine and model that wrote it. */
export function createAltTextEngine(options: EngineOptions): AltTextEngine {
  return options.provider === 'openai' ? createOpenAiEngine(options) : createOfflineEngine(options);
}
