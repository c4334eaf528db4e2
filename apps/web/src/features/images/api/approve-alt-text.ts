import { libraryImageSchema } from '@altwise/contracts/library';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { libraryQueryKey } from './list-library-images.ts';

/** POST /images/altText/{id}/approve: the person keeps the alt text; the review flag clears. */
export function approveAltText(id: string) {
  return api.post(`/images/altText/${encodeURIComponent(id)}/approve`, undefined, {
    schema: libraryImageSchema,
  });
}

export function useApproveAltText() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveAltText,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryQueryKey }),
  });
}
