import type { EditAltTextRequest } from '@altwise/contracts/generation';
import { libraryImageSchema } from '@altwise/contracts/library';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { libraryQueryKey } from './list-library-images.ts';

/** PATCH /images/altText/{id} {alt_text}: a person's own wording; answers the updated record. */
export function editAltText({ id, ...body }: EditAltTextRequest & { id: string }) {
  return api.patch(`/images/altText/${encodeURIComponent(id)}`, body, { schema: libraryImageSchema });
}

export function useEditAltText() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editAltText,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryQueryKey }),
  });
}
