import { generateContentResponseSchema } from '@altwise/contracts/content';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { contentHistoryQuery } from './get-content-history.ts';

/** POST /openai/generate-content (the product spec §7): {prompt} built from topic, category and tone; the text is `text`. */
export function generateContent(prompt: string) {
  return api.post('/openai/generate-content', { prompt }, { schema: generateContentResponseSchema });
}

/** The new text is at the top of the history: the history query is refetched when next shown. */
export function useGenerateContent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateContent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contentHistoryQuery.queryKey }),
  });
}
