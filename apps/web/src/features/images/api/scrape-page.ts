import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * POST /users/scrape-and-generate {url} (the product spec §7). The answer is left unchecked here: the page
 * itself tells a usable list from an empty or unexpected answer (the product spec §8 'No images found or
 * unexpected response from server').
 */
export function scrapePage(url: string) {
  return api.post<unknown>('/users/scrape-and-generate', { url });
}

export function useScrapePage() {
  return useMutation({ mutationFn: scrapePage });
}
