import { styledCaptionResponseSchema } from '@altwise/contracts/studio';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { readUserId } from '../../../lib/auth-storage.ts';
import { creditsQueryKey } from '../../../lib/credits.ts';

export type StyledCaptionInput = { image: File; prompt: string };

/**
 * POST /images/generate-styled-caption (the product spec §7), multipart: image, userId, optional prompt (the
 * tone). One credit, refunded by the server when the caption fails. Answers the caption text and the
 * image with the caption drawn on it.
 */
export function generateStyledCaption({ image, prompt }: StyledCaptionInput) {
  const form = new FormData();
  form.append('image', image, image.name);
  const userId = readUserId();
  if (userId) form.append('userId', userId);
  if (prompt.trim()) form.append('prompt', prompt.trim());
  return api.post('/images/generate-styled-caption', form, { schema: styledCaptionResponseSchema });
}

export function useGenerateStyledCaption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateStyledCaption,
    onSettled: () => queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
  });
}
