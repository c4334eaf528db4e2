import { publicConfigResponseSchema } from '@altwise/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /config: what this server lets the browser know, e.g. the Google client id (null when off). */
export function getPublicConfig() {
  return api.get('/config', { auth: false, schema: publicConfigResponseSchema });
}

export const publicConfigQuery = queryOptions({
  queryKey: ['public-config'],
  queryFn: getPublicConfig,
  staleTime: Number.POSITIVE_INFINITY,
});

export function usePublicConfig() {
  return useQuery(publicConfigQuery);
}
