import { regenerateAltTextResponseSchema } from '@altwise/contracts/generation';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { creditsQueryKey } from '../../../lib/credits.ts';
import { libraryQueryKey } from './list-library-images.ts';

/** POST /images/altText/{id}/regenerate {chatGptPrompt?}: 1 credit, refunded by the server if it fails. */
export function regenerateAltText({ id, chatGptPrompt }: { id: string; chatGptPrompt?: string }) {
  return api.post(
    `/images/altText/${encodeURIComponent(id)}/regenerate`,
    chatGptPrompt ? { chatGptPrompt } : {},
    { schema: regenerateAltTextResponseSchema },
  );
}

/** The balance is refetched whether it worked or not (a failure is refunded, the product spec §4). */
export function useRegenerateAltText() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateAltText,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryQueryKey }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
  });
}
