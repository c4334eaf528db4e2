import { listBatchesResponseSchema } from '@altwise/contracts/generation';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const activeBatchesQueryKey = ['image-batches', 'active'] as const;

/** GET /images/batches: the caller's unfinished batches and those finished in the last minute. */
export function listActiveBatches() {
  return api.get('/images/batches', { schema: listBatchesResponseSchema });
}

export const activeBatchesQuery = queryOptions({
  queryKey: activeBatchesQueryKey,
  queryFn: listActiveBatches,
  staleTime: 0,
});

/** The batches the library's progress panel follows (each one then through useBatchProgress). */
export function useActiveBatches() {
  return useQuery(activeBatchesQuery);
}
