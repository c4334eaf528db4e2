import type { Quality } from '@altwise/contracts/limits';
import { editImageResponseSchema } from '@altwise/contracts/studio';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { readUserId } from '../../../lib/auth-storage.ts';
import { creditsQueryKey } from '../../../lib/credits.ts';

export type EditImageInput = { image: File; prompt: string; quality: Quality };

/**
 * POST /images/edit-image (the product spec §7), multipart: image, userId, prompt, quality. The server charges
 * the quality's credits in the same transaction as the work and refunds them itself when the edit fails.
 */
export function editImage({ image, prompt, quality }: EditImageInput) {
  const form = new FormData();
  form.append('image', image, image.name);
  const userId = readUserId();
  if (userId) form.append('userId', userId);
  form.append('prompt', prompt);
  form.append('quality', quality);
  return api.post('/images/edit-image', form, { schema: editImageResponseSchema });
}

/** A spend (or a refund after a failure) changed the balance either way: refetch it. */
export function useEditImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editImage,
    onSettled: () => queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
  });
}
