import { queryOptions, useQuery } from '@tanstack/react-query';
import { authApi } from './lazy-api.ts';

/** GET /config: what this server lets the browser know, e.g. the Google client id (null when off). */
export async function getPublicConfig() {
  const { api, contracts } = await authApi();
  return api.get('/config', { auth: false, schema: contracts.publicConfigResponseSchema });
}

export const publicConfigQuery = queryOptions({
  queryKey: ['public-config'],
  queryFn: getPublicConfig,
  staleTime: Number.POSITIVE_INFINITY,
});

export function usePublicConfig() {
  return useQuery(publicConfigQuery);
}
