import { profileResponseSchema } from '@altwise/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /users/profile: the greeting, the Profile Information card and the library count. */
export function getProfile() {
  return api.get('/users/profile', { schema: profileResponseSchema });
}

// Same key as the account page's profile query: one cache entry, so an update there shows here.
export const profileQuery = queryOptions({ queryKey: ['profile'], queryFn: getProfile });

export function useProfile() {
  return useQuery(profileQuery);
}
