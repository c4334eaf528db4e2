import { deleteLibraryImagesResponseSchema, MAX_LIBRARY_DELETE_IDS } from '@altwise/contracts/library';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { libraryQueryKey } from './list-library-images.ts';

/**
 * DELETE /images/altText {ids}: the server deletes only the caller's images among them. A selection
 * across pages can pass the 500 ids one call takes, so it goes in calls of at most 500.
 */
export async function deleteLibraryImages(ids: readonly string[]) {
  let deleted = 0;
  for (let start = 0; start < ids.length; start += MAX_LIBRARY_DELETE_IDS) {
    const chunk = ids.slice(start, start + MAX_LIBRARY_DELETE_IDS);
    const answer = await api.delete(
      '/images/altText',
      { ids: chunk },
      { schema: deleteLibraryImagesResponseSchema },
    );
    deleted += answer.deleted;
  }
  return { success: true as const, deleted };
}

export function useDeleteLibraryImages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLibraryImages,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryQueryKey }),
  });
}
