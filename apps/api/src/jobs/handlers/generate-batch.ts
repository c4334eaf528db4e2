import type { GenerationService } from '../../modules/generation/service.ts';
import type { JobHandler } from '../queue.ts';

/** Works one generation batch; a retry or a second run of the same batch only finishes what is left. */
export function generateBatchHandler(generation: GenerationService): JobHandler<'generation.batch'> {
  return async (job) => {
    await generation.runBatch(job.data.batchId);
  };
}
