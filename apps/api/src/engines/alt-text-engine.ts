import { judgeByAuditChecks } from './audit-judge.ts';
import type { EngineOptions } from './engine-options.ts';
import { createOfflineEngine } from './offline/offline-engine.ts';
import { createOpenAiEngine } from './openai/openai-engine.ts';
import type { AltTextEngine, AltTextResult, DescribeOptions } from './types.ts';

/**
 * Chooses the provider from configuration. Every result records the engine and model that wrote it,
 * and every result is judged by the audit's own checks in its context before anyone sees it (ADR 054):
 * whatever the provider wrote, a failing alt comes back fixed or flagged for review, never silently.
 */
export function createAltTextEngine(options: EngineOptions): AltTextEngine {
  const engine = options.provider === 'openai' ? createOpenAiEngine(options) : createOfflineEngine(options);
  const judged = async (result: Promise<AltTextResult>, describe: DescribeOptions = {}) =>
    judgeByAuditChecks(await result, describe.context, options.reviewThreshold);
  const { prepareImage } = engine;
  return {
    ...engine,
    describeImage: (image, describe) => judged(engine.describeImage(image, describe), describe),
    ...(prepareImage
      ? {
          prepareImage: async (image: Uint8Array) => {
            const prepared = await prepareImage(image);
            return {
              describe: (describe?: DescribeOptions) => judged(prepared.describe(describe), describe),
            };
          },
        }
      : {}),
  };
}
