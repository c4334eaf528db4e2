import { api } from '../../../lib/api-client.ts';
import { readUserId } from '../../../lib/auth-storage.ts';

/** An image of the reel: a file chosen here, or the URL of a captioned or generated image. */
export type ReelImage = File | string;

/**
 * POST /images/createReels (the product spec §7), multipart: audioFile, images (repeated; files or URLs),
 * skipCaptioning. The answer is the MP4 itself.
 */
export function createReel({ audio, images }: { audio: File; images: readonly ReelImage[] }) {
  const form = new FormData();
  form.append('audioFile', audio, audio.name);
  for (const image of images) {
    if (typeof image === 'string') form.append('images', image);
    else form.append('images', image, image.name);
  }
  // Captions, when wanted, were made and chosen on the page already.
  form.append('skipCaptioning', 'true');
  const userId = readUserId();
  if (userId) form.append('userId', userId);
  return api.post<Blob>('/images/createReels', form, { responseType: 'blob' });
}
