import { type GenerateAltTextRequest, startBatchResponseSchema } from '@altwise/contracts/generation';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { creditsQueryKey } from '../../../lib/credits.ts';

/** POST /images/generate-alt-text: starts a batch for the selected scraped images (one credit each). */
export function generateAltText(body: GenerateAltTextRequest) {
  return api.post('/images/generate-alt-text', body, { schema: startBatchResponseSchema });
}

/** The batch reserves credits up front: the balance is refetched whether the call succeeds or not. */
export function useGenerateAltText() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateAltText,
    onSettled: () => queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
  });
}
