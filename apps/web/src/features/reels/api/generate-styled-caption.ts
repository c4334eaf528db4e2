import { styledCaptionResponseSchema } from '@altwise/contracts/studio';
import { api } from '../../../lib/api-client.ts';
import { readUserId } from '../../../lib/auth-storage.ts';

/**
 * POST /images/generate-styled-caption (the product spec §7), multipart: image, userId, optional prompt. One credit
 * per call, refunded by the server when the caption fails. The page calls it once per image and
 * refetches the balance when the batch is done.
 */
export function generateStyledCaption(image: File, prompt: string) {
  const form = new FormData();
  form.append('image', image, image.name);
  const userId = readUserId();
  if (userId) form.append('userId', userId);
  if (prompt.trim()) form.append('prompt', prompt.trim());
  return api.post('/images/generate-styled-caption', form, { schema: styledCaptionResponseSchema });
}
