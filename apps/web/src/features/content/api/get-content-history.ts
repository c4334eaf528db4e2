import { contentHistoryResponseSchema } from '@altwise/contracts/content';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /users/content-history: the signed-in user's generated texts, newest first. */
export function getContentHistory() {
  return api.get('/users/content-history', { schema: contentHistoryResponseSchema });
}

export const contentHistoryQuery = queryOptions({
  queryKey: ['content-history'],
  queryFn: getContentHistory,
});

export function useContentHistory() {
  return useQuery(contentHistoryQuery);
}
