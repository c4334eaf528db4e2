import { apiKeyListSchema, type CreateApiKeyRequest, createdApiKeySchema } from '@altwise/contracts/api-keys';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const apiKeysQueryKey = ['api-keys'] as const;

/** GET /api-keys: the active keys, newest first (prefix and last use, never the key). */
export const apiKeysQuery = queryOptions({
  queryKey: apiKeysQueryKey,
  queryFn: () => api.get('/api-keys', { schema: apiKeyListSchema }),
});

export function useApiKeys() {
  return useQuery(apiKeysQuery);
}

/** POST /api-keys: the answer carries the whole key, this one time. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyRequest) => api.post('/api-keys', body, { schema: createdApiKeySchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}

/** DELETE /api-keys/{id}: the key stops working at once. */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api-keys/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}
