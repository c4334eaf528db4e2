import type { Quality } from '@altwise/contracts/limits';
import { generateImagesResponseSchema } from '@altwise/contracts/studio';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { readUserId } from '../../../lib/auth-storage.ts';
import { creditsQueryKey } from '../../../lib/credits.ts';

export type GenerateImagesInput = { prompt: string; numberOfImages: number; quality: Quality };

/**
 * POST /images/generate {prompt, numberOfImages, quality, userId} (the product spec §7). The server charges the
 * per-image cost times the count before the work and refunds it when generation fails.
 */
export function generateImages(input: GenerateImagesInput) {
  return api.post(
    '/images/generate',
    { ...input, userId: readUserId() ?? undefined },
    { schema: generateImagesResponseSchema },
  );
}

export function useGenerateImages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateImages,
    onSettled: () => queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
  });
}
